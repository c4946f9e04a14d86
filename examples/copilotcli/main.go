// Command copilotcli runs a repository's GitHub Copilot CLI hook files
// (.github/hooks/*.json, loaded as Copilot CLI loads them, and the scripts
// they name: GitHub's documented guard and statistics scripts, unchanged)
// in a small scripted agent loop: preToolUse refuses rm -rf / and lets
// ls run, postToolUse records each tool's result, and agentStop sends
// the agent back until it has run a command. No model, no network: the
// loop's turns are scripted. The program prints what each hook did. It
// needs bash and jq.
//
//	go run ./examples/copilotcli
package main

import (
	"context"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/copilotcli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "copilotcli:", err)
		os.Exit(1)
	}
}

// out is where the story goes (a test reads it).
var out io.Writer = os.Stdout

// project is a repository's .github/hooks folder and scripts.
//
//go:embed all:project
var project embed.FS

func run(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "copilotcli-example-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := unpack(dir); err != nil {
		return err
	}
	diag := func(d hooks.Diagnostic) { fmt.Fprintln(out, "  diagnostic:", d.Err) }
	hs, err := copilotcli.LoadDir(filepath.Join(dir, ".github", "hooks"),
		copilotcli.ToolNames(map[string]string{"shell": "bash"}), copilotcli.Diagnostics(diag))
	if err != nil {
		return err
	}
	for _, h := range hs {
		fmt.Fprintln(out, "loaded", h.Name())
	}
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(diag))
	if err != nil {
		return err
	}
	r, err := chain.Start(ctx, hooks.Host{Workdir: dir, Session: hooks.Session{ID: "example"}}, hooks.RunStart{Input: "clean up"})
	if err != nil {
		return err
	}
	defer r.End(context.WithoutCancel(ctx), hooks.RunEnd{Outcome: hooks.Completed})

	model := func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Text: "done"}, nil
	}
	reply, err := r.CallModel(ctx, hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "clean up"}}}, model)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "agentStop before any command: %q\n", reply.Continue)

	tool := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		return hooks.ToolResult{Text: "ran " + call.Arguments["command"].(string)}, nil
	}
	for _, command := range []string{"rm -rf /", "ls -la"} {
		res, err := r.CallTool(ctx, hooks.ToolCall{ID: command, Name: "shell", Arguments: map[string]any{"command": command}}, tool)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "shell %q: error=%v %q\n", command, res.IsError, res.Text)
	}
	stats, _ := os.ReadFile(filepath.Join(dir, "tool-stats.csv"))
	fmt.Fprintf(out, "tool-stats.csv rows: %d\n", countLines(stats))

	reply, err = r.CallModel(ctx, hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "clean up"}}}, model)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "agentStop after ls: %q\n", reply.Continue)
	return nil
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

// unpack writes the embedded project into dir, scripts executable.
func unpack(dir string) error {
	return fs.WalkDir(project, "project", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("project", path)
		target := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := project.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o755)
	})
}
