// Command claudecode runs Claude Code hook scripts, unchanged, in a small
// agent loop: a project's .claude/settings.json and the scripts it names
// guard the tool calls of a scripted model (no network, no keys), and the
// program prints what each hook decided.
//
// The settings and scripts are embedded, and written at start to a
// temporary project folder (removed on exit), which is the run's workdir:
// the scripts find each other through $CLAUDE_PROJECT_DIR, as they do
// under Claude Code. The host's tools are named "fetch" and "shell";
// claudecode.ToolNames shows them to the scripts as WebFetch and Bash.
//
//	go run ./examples/claudecode
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
	"syscall"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "claudecode:", err)
		os.Exit(1)
	}
}

// out is where the story goes (a test reads it).
var out io.Writer = os.Stdout

// project is a Claude Code project's hook settings and scripts.
//
//go:embed all:.claude
var project embed.FS

// unpack writes the project to a new temporary folder; remove deletes it.
func unpack() (dir string, remove func(), err error) {
	dir, err = os.MkdirTemp("", "claudecode-")
	if err != nil {
		return "", nil, err
	}
	remove = func() { os.RemoveAll(dir) }
	if err := os.CopyFS(dir, project); err != nil {
		remove()
		return "", nil, err
	}
	return dir, remove, nil
}

// toolNames shows the host's tools to the scripts by Claude Code's names.
var toolNames = map[string]string{"fetch": "WebFetch", "shell": "Bash"}

func run(ctx context.Context) error {
	dir, remove, err := unpack()
	if err != nil {
		return err
	}
	defer remove()
	settings, err := os.ReadFile(filepath.Join(dir, ".claude", "settings.json"))
	if err != nil {
		return err
	}
	hs, err := claudecode.Hooks(settings, claudecode.ToolNames(toolNames))
	if err != nil {
		return err
	}
	chain, err := hooks.NewChain(hs, hooks.WithTrace(decided),
		hooks.WithDiagnostics(func(d hooks.Diagnostic) { fmt.Fprintln(out, "  diagnostic:", d) }))
	if err != nil {
		return err
	}
	r, err := chain.Start(ctx, hooks.Host{Workdir: dir, Session: hooks.Session{ID: "demo"}}, hooks.RunStart{RunID: "demo"})
	if err != nil {
		return err
	}
	var end hooks.RunEnd
	defer func() { r.End(ctx, end) }()
	end.Output, end.Err = loop(ctx, r)
	fmt.Fprintf(out, "final answer: %s\n", end.Output)
	return end.Err
}

// decided prints what a hook decided about a tool call, from the chain's
// trace: every decision but having none.
func decided(e hooks.TraceEvent) {
	if e.Point == hooks.BeforeToolExecute && e.Decision != hooks.DecisionNoOpinion {
		fmt.Fprintf(out, "  %s ⤷ %s\n", e.Hook, e)
	}
}

// loop runs the model until it answers without tool calls.
func loop(ctx context.Context, r *hooks.Run) (string, error) {
	messages := []hooks.Message{{Role: "user", Text: "Check the release notes and clean up."}}
	for range 4 {
		reply, err := r.CallModel(ctx, hooks.ModelRequest{System: "You are careful.", Messages: messages}, scriptedModel)
		if err != nil {
			return "", err
		}
		if len(reply.Response.ToolCalls) == 0 {
			return reply.Response.Text, nil
		}
		messages = append(messages, hooks.Message{Role: "assistant", ToolCalls: reply.Response.ToolCalls})
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

// scriptedModel asks for three tool calls, then answers.
func scriptedModel(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
	if c.ModelCalls() > 1 {
		return hooks.ModelResponse{Text: "The notes say: ship on Friday."}, nil
	}
	return hooks.ModelResponse{ToolCalls: []hooks.ToolCall{
		{ID: "1", Name: "fetch", Arguments: map[string]any{"url": "https://example.com/release"}},
		{ID: "2", Name: "fetch", Arguments: map[string]any{"url": "https://paste.test/upload"}},
		{ID: "3", Name: "shell", Arguments: map[string]any{"command": "rm -rf build"}},
	}}, nil
}

// runTool stands for the host's tools.
func runTool(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
	fmt.Fprintf(out, "  tool runs %s\n", call.Name)
	return hooks.ToolResult{Text: "ship on Friday"}, nil
}
