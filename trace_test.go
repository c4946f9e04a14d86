package hooks_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tracer collects trace events from any goroutine.
type tracer struct {
	mu     sync.Mutex
	events []hooks.TraceEvent
}

func (tr *tracer) add(e hooks.TraceEvent) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.events = append(tr.events, e)
}

// lines renders the events as "hook point decision [fields] reason".
func (tr *tracer) lines() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	out := make([]string, len(tr.events))
	for i, e := range tr.events {
		s := fmt.Sprintf("%s %s %s", e.Hook, e.Point, e.Decision)
		if len(e.Changed) > 0 {
			s += " [" + strings.Join(e.Changed, ",") + "]"
		}
		if e.Reason != "" {
			s += " " + e.Reason
		}
		if e.Err != nil {
			s += fmt.Sprintf(" %v (%s)", e.Err, e.Policy)
		}
		out[i] = s
	}
	tr.events = nil
	return out
}

func traced(t *testing.T, tr *tracer, hs ...hooks.Hook) *hooks.Run {
	t.Helper()
	var rec recorder
	chain, err := hooks.NewChain(hs, hooks.WithTrace(tr.add), hooks.WithDiagnostics(rec.diagnose))
	require.NoError(t, err)
	run, err := chain.Start(bg, hooks.Host{}, hooks.RunStart{RunID: "r-1"})
	require.NoError(t, err)
	return run
}

func TestTraceToolDecisions(t *testing.T) {
	var tr tracer
	quiet := hooks.Funcs{HookName: "quiet", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) { return nil, nil }}
	rewrite := hooks.Funcs{HookName: "rewrite", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return &hooks.ToolCallPatch{Arguments: map[string]any{"n": 1}}, nil
	}}
	gate := hooks.Funcs{HookName: "gate", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		switch call.Name {
		case "deny":
			return &hooks.ToolCallPatch{Allow: ptr(false)}, nil
		case "toolerror":
			return nil, &hooks.ToolError{Message: "not today"}
		case "cached":
			return &hooks.ToolCallPatch{Result: &hooks.ToolResult{Text: "hit"}}, nil
		case "broken":
			return nil, errors.New("boom")
		}
		return nil, nil
	}}
	redact := hooks.Funcs{HookName: "redact", AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		return &hooks.ToolResultPatch{Text: ptr("x"), IsError: ptr(false)}, nil
	}}
	run := traced(t, &tr, redact, quiet, rewrite, hooks.WithPolicy(gate, hooks.Report))
	tool := echoTool(&recorder{})

	_, err := run.CallTool(bg, hooks.ToolCall{Name: "ok"}, tool)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"quiet beforeToolExecute no opinion",
		"rewrite beforeToolExecute changed [arguments]",
		"gate beforeToolExecute no opinion",
		"redact afterToolExecute changed [text,isError]",
	}, tr.lines())

	for name, want := range map[string]string{
		"deny":      "gate beforeToolExecute refused refused by hook gate",
		"toolerror": "gate beforeToolExecute refused not today",
		"cached":    "gate beforeToolExecute answered",
		"broken":    "gate beforeToolExecute error boom (Report)",
	} {
		_, err := run.CallTool(bg, hooks.ToolCall{Name: name}, tool)
		require.NoError(t, err)
		lines := tr.lines()
		require.GreaterOrEqual(t, len(lines), 3, name)
		assert.Equal(t, want, lines[2], name)
	}
}

func TestTraceModelAndRunDecisions(t *testing.T) {
	var tr tracer
	h := hooks.Funcs{
		HookName: "h",
		BeforeRun: func(c *hooks.Context, s hooks.RunStart) (*hooks.RunPatch, error) {
			return &hooks.RunPatch{State: 1}, nil
		},
		BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			switch req.System {
			case "end":
				return &hooks.ModelRequestPatch{End: &hooks.End{Output: "bye"}}, nil
			case "respond":
				return &hooks.ModelRequestPatch{System: ptr("s"), Respond: &hooks.ModelResponse{Text: "hi"}}, nil
			}
			return &hooks.ModelRequestPatch{System: ptr("s"), Messages: []hooks.Message{}}, nil
		},
		AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			if resp.Text == "hi" {
				return &hooks.ModelResponsePatch{Continue: ptr("go on")}, nil
			}
			return &hooks.ModelResponsePatch{Text: ptr("t")}, nil
		},
		AfterRun: func(c *hooks.Context, e hooks.RunEnd) error { return errors.New("audit down") },
	}
	run := traced(t, &tr, h)
	assert.Equal(t, []string{"h beforeRun changed [state]"}, tr.lines())
	model := func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Text: "x"}, nil
	}
	for system, want := range map[string][]string{
		"":        {"h beforeModelRequest changed [system,messages]", "h afterModelResponse changed [text]"},
		"end":     {"h beforeModelRequest ended"},
		"respond": {"h beforeModelRequest answered [system]", "h afterModelResponse continued"},
	} {
		_, err := run.CallModel(bg, hooks.ModelRequest{System: system}, model)
		require.NoError(t, err)
		assert.Equal(t, want, tr.lines(), system)
	}
	run.End(bg, hooks.RunEnd{})
	assert.Equal(t, []string{"h afterRun error audit down (Report)"}, tr.lines())
}

func TestTraceEventsCarryRunAndAreSafeInParallel(t *testing.T) {
	var tr tracer
	run := traced(t, &tr, hooks.Funcs{HookName: "p", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return nil, nil
	}})
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			_, err := run.BeforeToolExecute(bg, hooks.ToolCall{Name: "x"})
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	require.Len(t, tr.events, 16)
	for _, e := range tr.events {
		assert.Equal(t, "r-1", e.RunID)
		assert.Equal(t, hooks.BeforeToolExecute, e.Point)
	}
}

func TestSeveralTracesAddUp(t *testing.T) {
	var first, second []string
	chain, err := hooks.NewChain([]hooks.Hook{hooks.Funcs{HookName: "guard",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return hooks.Refuse("no"), nil
		}}},
		hooks.WithTrace(func(e hooks.TraceEvent) { first = append(first, e.Hook+" "+e.String()) }),
		hooks.WithTrace(nil),
		hooks.WithTrace(func(e hooks.TraceEvent) { second = append(second, e.Hook+" "+e.String()) }))
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	_, err = run.CallTool(context.Background(), hooks.ToolCall{ID: "1", Name: "shell"}, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"guard refused: no"}, first)
	assert.Equal(t, first, second, "every trace gets every event")
}
