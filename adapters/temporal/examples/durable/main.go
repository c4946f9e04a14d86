// Command durable runs an agent loop as a Temporal workflow on a Temporal
// server started in this process, and prints its trace: the hooks'
// decisions as each step makes them, the pause for a person's approval,
// and the workflow's own record of the run.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/rienda/hooks"
	durable "github.com/rienda/hooks/adapters/temporal"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/server/temporaltest"
)

// guard is a JavaScript hook as a user writes it for any host: it asks a
// person before anything is deleted.
const guard = `module.exports = {
  beforeToolExecute: function (ctx, call) {
    if (call.name !== "delete") return;
    if (!ctx.confirm({ title: "Delete files?", body: "delete " + call.arguments.path })) {
      return { allow: false, reason: "refused by the user" };
    }
  },
};
`

func main() {
	if err := run(); err != nil {
		log.Fatal(err)
	}
}

func run() error {
	dir, err := os.MkdirTemp("", "durable-hooks")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := os.MkdirAll(filepath.Join(dir, "guard"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "guard", "index.js"), []byte(guard), 0o644); err != nil {
		return err
	}
	js, err := (&hooks.Loader{Dir: dir}).Load("guard")
	if err != nil {
		return err
	}
	redact := hooks.Funcs{HookName: "redact",
		AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			text := strings.ReplaceAll(res.Text, "hunter2", "[redacted]")
			return &hooks.ToolResultPatch{Text: &text}, nil
		},
	}
	chain, err := hooks.NewChain([]hooks.Hook{js, redact}, hooks.WithTrace(func(e hooks.TraceEvent) {
		fmt.Printf("  hook %-7s %-18s %s\n", e.Hook, e.Point, e)
	}))
	if err != nil {
		return err
	}

	server := temporaltest.NewServer()
	defer server.Stop()
	c := server.GetDefaultClient()
	questions := make(chan durable.Question, 1)
	agent := &durable.Agent{Chain: chain, Model: model, Tools: map[string]hooks.ToolFunc{
		"delete": func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
			return hooks.ToolResult{Text: "deleted"}, nil
		},
		"read": func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
			return hooks.ToolResult{Text: "password=hunter2"}, nil
		},
	}, Ask: func(ctx context.Context, q durable.Question) { questions <- q }}
	w := worker.New(c, "durable-example", worker.Options{})
	if err := durable.Register(w, agent); err != nil {
		return err
	}
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()

	ctx := context.Background()
	fmt.Println("start: run tidy-up")
	wr, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "tidy-up", TaskQueue: "durable-example"},
		durable.WorkflowName, durable.Input{Input: "tidy up the workspace"})
	if err != nil {
		return err
	}
	q := <-questions
	fmt.Printf("paused: the run waits for a person: %q (%s); its step stops here, unrecorded, and runs again with the answer\n", q.Prompt.Title, q.Prompt.Body)
	fmt.Println("person: no, not before the backup")
	if err := durable.SendAnswer(ctx, c, q.WorkflowID, durable.Answer{QuestionID: q.ID, By: "alice",
		Verdict: &hooks.Verdict{Approved: false, Message: "not before the backup"}}); err != nil {
		return err
	}
	var out durable.Output
	if err := wr.Get(ctx, &out); err != nil {
		return err
	}
	fmt.Println("the workflow's record:")
	for _, s := range out.Steps {
		fmt.Printf("  %-6s %s\n", s.Kind, s.Detail)
	}
	fmt.Println("conversation:")
	for _, m := range out.Messages {
		fmt.Printf("  %-9s %s\n", m.Role, m.Text)
	}
	fmt.Printf("output: %s\n", out.Output)
	return nil
}

// model stands for a real model: it asks to delete and to read, then
// sums up what the tools said.
func model(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
	last := req.Messages[len(req.Messages)-1]
	if last.Role == "user" {
		return hooks.ModelResponse{ToolCalls: []hooks.ToolCall{
			{ID: "1", Name: "delete", Arguments: map[string]any{"path": "build/"}},
			{ID: "2", Name: "read", Arguments: map[string]any{"path": ".env"}},
		}}, nil
	}
	var said []string
	for _, m := range req.Messages {
		if m.Role == "tool" {
			said = append(said, m.Text)
		}
	}
	return hooks.ModelResponse{Text: "done; the tools said: " + strings.Join(said, " | ")}, nil
}
