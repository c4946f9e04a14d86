// Command geminicli runs Gemini CLI hook scripts, unchanged, in a small
// agent loop: a project's .gemini/settings.json and the scripts it names
// narrow the tools offered (BeforeToolSelection, the filter of Gemini
// CLI's own guide), guard a shell call (BeforeTool), redact the model's
// reply (AfterModel) and send the run on until the answer has a summary
// (AfterAgent, the guide's validator), around a scripted model (no
// network, no keys). The program prints what each hook did.
//
// The settings and scripts are embedded, and written at start to a
// temporary project folder (removed on exit), which is the run's workdir:
// the commands find the scripts through $GEMINI_PROJECT_DIR, as they do
// under Gemini CLI. The host's tools are named "read", "ls", "shell" and
// "write"; geminicli.ToolNames shows them to the scripts by Gemini CLI's
// names. It needs bash, python3 and node.
//
//	go run ./examples/geminicli
package main

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/geminicli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "geminicli:", err)
		os.Exit(1)
	}
}

// out is where the story goes (a test reads it).
var out io.Writer = os.Stdout

// project is a Gemini CLI project's hook settings and scripts.
//
//go:embed all:.gemini
var project embed.FS

// toolNames shows the host's tools to the scripts by Gemini CLI's names.
var toolNames = map[string]string{"read": "read_file", "ls": "list_directory", "shell": "run_shell_command", "write": "write_file"}

// tools are the tools the host offers the model.
var tools = []hooks.ToolSpec{{Name: "read"}, {Name: "ls"}, {Name: "shell"}, {Name: "write"}}

func run(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "geminicli-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, project); err != nil {
		return err
	}
	settings, err := os.ReadFile(filepath.Join(dir, ".gemini", "settings.json"))
	if err != nil {
		return err
	}
	hs, err := geminicli.Hooks(settings, geminicli.ToolNames(toolNames))
	if err != nil {
		return err
	}
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(func(d hooks.Diagnostic) { fmt.Fprintln(out, "  diagnostic:", d) }))
	if err != nil {
		return err
	}
	host := hooks.Host{Workdir: dir, Session: hooks.Session{ID: "demo"},
		Notify: func(hook string, n hooks.Notice) { fmt.Fprintf(out, "  %s says: %s\n", hook, n.Body) }}
	r, err := chain.Start(ctx, host, hooks.RunStart{RunID: "demo"})
	if err != nil {
		return err
	}
	var end hooks.RunEnd
	defer func() { r.End(ctx, end) }()
	end.Output, end.Err = loop(ctx, r)
	fmt.Fprintf(out, "final answer: %s\n", end.Output)
	return end.Err
}

// loop runs the model until it answers without tool calls and the hooks
// let the answer stand.
func loop(ctx context.Context, r *hooks.Run) (string, error) {
	messages := []hooks.Message{{Role: "user", Text: "Please read the config, then test a cleanup of the build folder."}}
	model := scriptedModel()
	for range 6 {
		reply, err := r.CallModel(ctx, hooks.ModelRequest{System: "You are careful.", Messages: messages, Tools: tools}, model)
		if err != nil {
			return "", err
		}
		if reply.End != nil {
			return reply.End.Output, nil
		}
		messages = append(messages, hooks.Message{Role: "assistant", Text: reply.Response.Text, ToolCalls: reply.Response.ToolCalls})
		if len(reply.Response.ToolCalls) == 0 {
			if reply.Continue == "" {
				return reply.Response.Text, nil
			}
			fmt.Fprintf(out, "model said %q; AfterAgent sends the run on: %q\n", reply.Response.Text, reply.Continue)
			messages = append(messages, hooks.Message{Role: "user", Text: reply.Continue})
			continue
		}
		for _, call := range reply.Response.ToolCalls {
			args, _ := json.Marshal(call.Arguments)
			fmt.Fprintf(out, "model asks %s %s\n", call.Name, args)
			res, err := r.CallTool(ctx, call, runTool)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(out, "  model reads %q (error: %t)\n", res.Text, res.IsError)
			messages = append(messages, hooks.Message{Role: "tool", Text: res.Text, ToolCallID: call.ID})
		}
	}
	return "", fmt.Errorf("the model did not finish")
}

// scriptedModel asks for two tool calls, then answers: first without a
// summary (and with a leaked key), then with one.
func scriptedModel() hooks.ModelFunc {
	calls := 0
	return func(_ *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		calls++
		return answer(calls, req), nil
	}
}

// answer is the scripted model's n-th reply.
func answer(n int, req hooks.ModelRequest) hooks.ModelResponse {
	var offered []string
	for _, t := range req.Tools {
		offered = append(offered, t.Name)
	}
	must := ""
	if c := req.ToolChoice; c != nil && c.Mode == hooks.ToolChoiceRequired {
		must = " and must call one" // BeforeToolSelection's mode ANY
	}
	fmt.Fprintf(out, "model is offered %s%s\n", strings.Join(offered, ", "), must)
	switch n {
	case 1:
		return hooks.ModelResponse{ToolCalls: []hooks.ToolCall{
			{ID: "1", Name: "read", Arguments: map[string]any{"file_path": "config.yaml"}},
			{ID: "2", Name: "shell", Arguments: map[string]any{"command": "rm -rf build"}},
		}}
	case 2:
		return hooks.ModelResponse{Text: "The config uses key AKIAABCDEFGHIJKLMNOP; build left alone."}
	}
	return hooks.ModelResponse{Text: "Summary: read the config; rm -rf was refused, so build stays."}
}

// runTool stands for the host's tools.
func runTool(_ *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
	fmt.Fprintf(out, "  tool runs %s\n", call.Name)
	return hooks.ToolResult{Text: "debug: false"}, nil
}
