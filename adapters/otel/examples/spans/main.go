// Command spans runs a small agent run (a scripted model, no network)
// through a chain with the OpenTelemetry adapter, and prints the spans it
// produced as a tree: each span's name, status and attributes, and under
// it the hook decisions recorded as its events. The run has a rewritten
// call, a refused one, a cached answer and a tool that fails.
//
//	cd adapters/otel && go run ./examples/spans
//
// The spans go to the SDK's in-memory recorder; a real host passes a
// TracerProvider with an exporter instead. Durations (hooks.duration_ms)
// are left out of the printout, so that it reads the same every time.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/rienda/hooks"
	hooksotel "github.com/rienda/hooks/adapters/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "spans:", err)
		os.Exit(1)
	}
}

// run makes one agent run and prints its span tree to w.
func run(ctx context.Context, w io.Writer) error {
	recorder := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder))
	defer func() { _ = tp.Shutdown(context.Background()) }()
	tel, err := hooksotel.New(hooksotel.WithTracerProvider(tp), hooksotel.WithGenAIProvider("scripted"))
	if err != nil {
		return err
	}
	chain, err := hooks.NewChain(append([]hooks.Hook{tel.Hook()}, guards()...), tel.Option())
	if err != nil {
		return err
	}
	if err := agent(ctx, chain); err != nil {
		return err
	}
	printTree(w, recorder.Ended())
	return nil
}

// guards are the example's hooks.
func guards() []hooks.Hook {
	return []hooks.Hook{
		hooks.Funcs{HookName: "no-force-push", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if cmd, _ := call.Arguments["command"].(string); strings.Contains(cmd, "push --force") {
				return hooks.Refuse("force-push is turned off here"), nil
			}
			return nil, nil
		}},
		hooks.Funcs{HookName: "workdir", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if p, _ := call.Arguments["path"].(string); p != "" && !strings.HasPrefix(p, "/work/") {
				return &hooks.ToolCallPatch{Arguments: map[string]any{"path": "/work/" + strings.TrimPrefix(p, "/")}}, nil
			}
			return nil, nil
		}},
		hooks.Funcs{HookName: "cache", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if call.Name == "weather" {
				return &hooks.ToolCallPatch{Result: &hooks.ToolResult{Text: "sunny (cached)"}}, nil
			}
			return nil, nil
		}},
	}
}

// agent is the host's loop, scripted: one model call asks for four tools,
// a second one answers.
func agent(ctx context.Context, chain *hooks.Chain) error {
	host := hooks.Host{Session: hooks.Session{ID: "session-7"}, Agent: &hooks.Agent{Name: "helper", Model: "scripted-1"}}
	run, err := chain.Start(ctx, host, hooks.RunStart{RunID: "run-1", Input: "tidy up and push"})
	if err != nil {
		return err
	}
	model := func(c *hooks.Context, _ hooks.ModelRequest) (hooks.ModelResponse, error) {
		if c.ModelCalls() > 1 {
			return hooks.ModelResponse{Text: "done"}, nil
		}
		return hooks.ModelResponse{ToolCalls: []hooks.ToolCall{
			{ID: "call-1", Name: "read", Arguments: map[string]any{"path": "notes.txt"}},
			{ID: "call-2", Name: "shell", Arguments: map[string]any{"command": "git push --force"}},
			{ID: "call-3", Name: "weather", Arguments: map[string]any{"city": "Lyon"}},
			{ID: "call-4", Name: "deploy"},
		}}, nil
	}
	tool := func(_ *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		if call.Name == "deploy" {
			return hooks.ToolResult{}, errors.New("deploy target unreachable")
		}
		return hooks.ToolResult{Text: "ok"}, nil
	}
	reply, err := run.CallModel(ctx, hooks.ModelRequest{}, model)
	if err != nil {
		run.End(ctx, hooks.RunEnd{Err: err})
		return err
	}
	for _, call := range reply.Response.ToolCalls {
		// A tool's error would go back to the model as an error result;
		// its span records it.
		_, _ = run.CallTool(ctx, call, tool)
	}
	reply, err = run.CallModel(ctx, hooks.ModelRequest{}, model)
	run.End(ctx, hooks.RunEnd{Output: reply.Response.Text, Err: err})
	return err
}

// printTree prints spans as a tree, children under their parent, in the
// order they started.
func printTree(w io.Writer, spans []sdktrace.ReadOnlySpan) {
	slices.SortFunc(spans, func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) })
	children := map[trace.SpanID][]sdktrace.ReadOnlySpan{}
	ids := map[trace.SpanID]bool{}
	for _, s := range spans {
		ids[s.SpanContext().SpanID()] = true
	}
	var roots []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if parent := s.Parent().SpanID(); ids[parent] {
			children[parent] = append(children[parent], s)
		} else {
			roots = append(roots, s)
		}
	}
	var walk func(s sdktrace.ReadOnlySpan, depth int)
	walk = func(s sdktrace.ReadOnlySpan, depth int) {
		indent := strings.Repeat("  ", depth)
		status := ""
		if s.Status().Code == codes.Error {
			status = fmt.Sprintf(" [Error: %s]", s.Status().Description)
		}
		fmt.Fprintf(w, "%s%s (%s)%s\n", indent, s.Name(), s.SpanKind(), status)
		fmt.Fprintf(w, "%s    %s\n", indent, attributes(s.Attributes()))
		for _, e := range s.Events() {
			fmt.Fprintf(w, "%s    • %s: %s\n", indent, e.Name, attributes(e.Attributes))
		}
		for _, c := range children[s.SpanContext().SpanID()] {
			walk(c, depth+1)
		}
	}
	for _, r := range roots {
		walk(r, 0)
	}
}

// attributes formats attrs as key=value pairs, without the durations.
func attributes(attrs []attribute.KeyValue) string {
	var parts []string
	for _, kv := range attrs {
		if kv.Key != "hooks.duration_ms" {
			parts = append(parts, fmt.Sprintf("%s=%s", kv.Key, kv.Value.String()))
		}
	}
	return strings.Join(parts, " ")
}
