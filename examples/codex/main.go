// Command codex runs Codex CLI hook scripts, unchanged, in a small agent
// loop: the example hooks.json of Codex's hooks documentation, with the
// scripts it names, guards the prompt and the tool calls of a scripted
// model (no network, no keys), and the program prints what each hook
// decided.
//
// The project (.codex/hooks.json and .codex/hooks/*.py) and a home
// (~/.codex/hooks/session_start.py) are embedded and written at start to
// temporary folders (removed on exit); the project is made a git
// repository, since the documented commands find their scripts with
// $(git rev-parse --show-toplevel). It needs git and /usr/bin/python3.
// The host's tool is named "shell"; codex.ToolNames shows it to the
// scripts as Bash.
//
//	go run ./examples/codex
package main

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/codex"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "codex:", err)
		os.Exit(1)
	}
}

// out is where the story goes (a test reads it).
var out io.Writer = os.Stdout

// files are the project's .codex folder and the user's home.
//
//go:embed all:.codex all:home
var files embed.FS

// unpack writes the project and the home to a new temporary folder and
// makes the project a git repository; remove deletes it all.
func unpack(ctx context.Context) (repo, home string, remove func(), err error) {
	dir, err := os.MkdirTemp("", "codex-example-")
	if err != nil {
		return "", "", nil, err
	}
	remove = func() { os.RemoveAll(dir) }
	repo, home = filepath.Join(dir, "repo"), filepath.Join(dir, "home")
	project, _ := fs.Sub(files, ".codex")
	user, _ := fs.Sub(files, "home")
	for _, step := range []func() error{
		func() error { return os.CopyFS(filepath.Join(repo, ".codex"), project) },
		func() error { return os.CopyFS(home, user) },
		func() error { return exec.CommandContext(ctx, "git", "init", "-q", repo).Run() },
	} {
		if err := step(); err != nil {
			remove()
			return "", "", nil, err
		}
	}
	return repo, home, remove, nil
}

func run(ctx context.Context) error {
	repo, home, remove, err := unpack(ctx)
	if err != nil {
		return err
	}
	defer remove()
	hs, err := codex.Load(filepath.Join(repo, ".codex", "hooks.json"), codex.ToolNames(map[string]string{"shell": "Bash"}))
	if err != nil {
		return err
	}
	chain, err := hooks.NewChain(hs, hooks.WithTrace(decided),
		hooks.WithDiagnostics(func(d hooks.Diagnostic) { fmt.Fprintln(out, "  diagnostic:", d) }))
	if err != nil {
		return err
	}
	env := map[string]string{"PATH": os.Getenv("PATH"), "HOME": home, "SHELL": "/bin/sh"}
	r, err := chain.Start(ctx, hooks.Host{Workdir: repo, Env: env, Session: hooks.Session{ID: "demo"}}, hooks.RunStart{RunID: "demo"})
	if err != nil {
		return err
	}
	var end hooks.RunEnd
	defer func() { r.End(ctx, end) }()
	end.Output, end.Err = loop(ctx, r)
	fmt.Fprintf(out, "final answer: %s\n", end.Output)
	return end.Err
}

// decided prints what a hook decided, from the chain's trace: every
// decision but having none.
func decided(e hooks.TraceEvent) {
	if e.Decision != hooks.DecisionNoOpinion {
		fmt.Fprintf(out, "  %s ⤷ %s\n", e.Hook, e)
	}
}

// loop runs the model until it answers without tool calls and no Stop
// hook sends it on.
func loop(ctx context.Context, r *hooks.Run) (string, error) {
	messages := []hooks.Message{{Role: "user", Text: "Clean the build folder and list what is left."}}
	for range 6 {
		reply, err := r.CallModel(ctx, hooks.ModelRequest{Model: "gpt-5", System: "You are careful.", Messages: messages}, scriptedModel)
		if err != nil {
			return "", err
		}
		if reply.End != nil {
			return reply.End.Output, nil
		}
		if reply.Continue != "" {
			fmt.Fprintf(out, "a Stop hook sends the run on: %q\n", reply.Continue)
			messages = append(messages, hooks.Message{Role: "assistant", Text: reply.Response.Text}, hooks.Message{Role: "user", Text: reply.Continue})
			continue
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

// scriptedModel asks for two shell calls, then answers; asked to run the
// tests, it says they pass.
func scriptedModel(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
	switch c.ModelCalls() {
	case 1:
		return hooks.ModelResponse{ToolCalls: []hooks.ToolCall{
			{ID: "1", Name: "shell", Arguments: map[string]any{"command": "rm -rf build"}},
			{ID: "2", Name: "shell", Arguments: map[string]any{"command": "ls"}},
		}}, nil
	case 2:
		return hooks.ModelResponse{Text: "The build folder stays; README.md is left."}, nil
	}
	return hooks.ModelResponse{Text: "I ran the tests: all tests pass."}, nil
}

// runTool stands for the host's shell.
func runTool(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
	fmt.Fprintf(out, "  tool runs %s\n", call.Name)
	return hooks.ToolResult{Text: "README.md"}, nil
}
