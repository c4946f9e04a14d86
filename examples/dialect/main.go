// Command dialect runs the Tiny dialect (package tiny, written on package
// dialect alone) in a small scripted agent loop: a settings file guards
// the shell tool with a script and sends the run on once from its stop
// event, and the program prints what happened.
//
//	go run ./examples/dialect
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/examples/dialect/tiny"
)

// out is where the story goes (a test reads it).
var out io.Writer = os.Stdout

// settings guard the shell tool and ask for one more turn.
const settings = `{"hooks": {
  "beforeTool": [{"matcher": "shell", "command": "grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; } || echo '{}'"}],
  "stop": [{"command": "grep -q '\"active\":true' && echo '{}' || echo '{\"decision\": \"continue\", \"reason\": \"check the tests\"}'"}]
}}`

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "dialect:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "tiny-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	hs, err := tiny.Hooks([]byte(settings), tiny.Diagnostics(func(d hooks.Diagnostic) { fmt.Fprintln(out, "  diagnostic:", d) }))
	if err != nil {
		return err
	}
	chain, err := hooks.NewChain(hs)
	if err != nil {
		return err
	}
	r, err := chain.Start(ctx, hooks.Host{Workdir: filepath.Clean(dir), Session: hooks.Session{ID: "demo"}}, hooks.RunStart{RunID: "demo"})
	if err != nil {
		return err
	}
	defer r.End(ctx, hooks.RunEnd{Outcome: hooks.Completed})
	for _, cmd := range []string{"ls", "rm -rf /"} {
		res, err := r.CallTool(ctx, hooks.ToolCall{ID: cmd, Name: "shell", Arguments: map[string]any{"command": cmd}},
			func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
				return hooks.ToolResult{Text: "ran"}, nil
			})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "shell %q: %s\n", cmd, res.Text)
	}
	req := hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "done?"}}}
	for range 3 {
		reply, err := r.CallModel(ctx, req, func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
			return hooks.ModelResponse{Text: "all done"}, nil
		})
		if err != nil {
			return err
		}
		if reply.Continue == "" {
			fmt.Fprintln(out, "final:", reply.Response.Text)
			return nil
		}
		fmt.Fprintln(out, "sent on:", reply.Continue)
		req.Messages = append(req.Messages, hooks.Message{Role: "assistant", Text: reply.Response.Text}, hooks.Message{Role: "user", Text: reply.Continue})
	}
	return fmt.Errorf("the run did not finish")
}
