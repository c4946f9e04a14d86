// Command cursor runs a project's Cursor hooks (.cursor/hooks.json and
// the scripts it names, among them Cursor's own block-git.sh example,
// unchanged) in a small scripted agent loop: the shell guard refuses git
// and lets ls run, afterFileEdit logs the edited file, and the stop hook
// sends the agent back once with a follow-up (bounded by its
// loop_limit). No model, no network: the loop's turns are scripted. The
// program prints what each hook did. It needs bash and jq.
//
//	go run ./examples/cursor
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
	"github.com/rienda/hooks/cursor"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "cursor:", err)
		os.Exit(1)
	}
}

// out is where the story goes (a test reads it).
var out io.Writer = os.Stdout

// project is a Cursor project's hooks.json and scripts.
//
//go:embed all:project
var project embed.FS

func run(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "cursor-example-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := unpack(dir); err != nil {
		return err
	}
	settings, err := os.ReadFile(filepath.Join(dir, ".cursor", "hooks.json"))
	if err != nil {
		return err
	}
	hs, err := cursor.Hooks(settings, cursor.ShellTools("shell"), cursor.EditTools("write"),
		cursor.Diagnostics(func(d hooks.Diagnostic) { fmt.Fprintln(out, "  diagnostic:", d.Err) }))
	if err != nil {
		return err
	}
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(func(d hooks.Diagnostic) { fmt.Fprintln(out, "  diagnostic:", d.Err) }))
	if err != nil {
		return err
	}
	r, err := chain.Start(ctx, hooks.Host{Workdir: dir, Session: hooks.Session{ID: "example"}}, hooks.RunStart{Input: "ship it"})
	if err != nil {
		return err
	}
	defer r.End(context.WithoutCancel(ctx), hooks.RunEnd{Outcome: hooks.Completed})

	tool := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		return hooks.ToolResult{Text: "ran " + call.Name}, nil
	}
	for _, call := range []hooks.ToolCall{
		{ID: "1", Name: "shell", Arguments: map[string]any{"command": "git push origin main"}},
		{ID: "2", Name: "shell", Arguments: map[string]any{"command": "ls"}},
		{ID: "3", Name: "write", Arguments: map[string]any{"file_path": "main.go", "content": "package main\n"}},
	} {
		res, err := r.CallTool(ctx, call, tool)
		if err != nil {
			return err
		}
		what := call.Arguments["command"]
		if what == nil {
			what = call.Arguments["file_path"]
		}
		fmt.Fprintf(out, "%s %v: error=%v %.80q\n", call.Name, what, res.IsError, res.Text)
	}
	log, _ := os.ReadFile(filepath.Join(dir, ".cursor", "edited.log"))
	fmt.Fprintf(out, "afterFileEdit logged: %s", log)

	model := func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Text: "done"}, nil
	}
	msgs := []hooks.Message{{Role: "user", Text: "ship it"}}
	for turn := 1; turn <= 4; turn++ {
		reply, err := r.CallModel(ctx, hooks.ModelRequest{Messages: msgs}, model)
		if err != nil {
			return err
		}
		if reply.Continue == "" {
			fmt.Fprintf(out, "turn %d: the agent stops\n", turn)
			return nil
		}
		fmt.Fprintf(out, "turn %d: stop hook follow-up: %s\n", turn, reply.Continue)
		msgs = append(msgs, hooks.Message{Role: "assistant", Text: reply.Response.Text}, hooks.Message{Role: "user", Text: reply.Continue})
	}
	return nil
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
