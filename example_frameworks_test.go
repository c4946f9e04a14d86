package hooks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/rienda/hooks"
)

// chatMessage stands for a framework's message type, with more than a
// hooks.Message carries (a cache mark).
type chatMessage struct {
	Role, Content string
	Cached        bool
}

// An adapter keeps each framework message with WithRaw; after the hooks,
// RebuildMessages gives back the framework's own values for the messages
// no hook changed, and builds only the others.
func ExampleRebuildMessages() {
	chain, err := hooks.NewChain([]hooks.Hook{hooks.Funcs{HookName: "reminder",
		BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			last := len(req.Messages) - 1 // insert a reminder before the last message
			msgs := slices.Insert(slices.Clone(req.Messages), last, hooks.Message{Role: "user", Text: "Answer briefly."})
			return &hooks.ModelRequestPatch{Messages: msgs}, nil
		}}})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	if err != nil {
		panic(err)
	}
	defer run.End(ctx, hooks.RunEnd{})

	history := []*chatMessage{{Role: "system", Content: "You help.", Cached: true}, {Role: "user", Content: "Why is the sky blue?"}}
	msgs := make([]hooks.Message, len(history))
	for i, m := range history {
		msgs[i] = hooks.Message{Role: m.Role, Text: m.Content}.WithRaw(m)
	}
	step, err := run.BeforeModelRequest(ctx, hooks.ModelRequest{Messages: msgs})
	if err != nil {
		panic(err)
	}
	out, err := hooks.RebuildMessages(step.Request.Messages, func(m hooks.Message) (*chatMessage, error) {
		return &chatMessage{Role: m.Role, Content: m.Text}, nil
	})
	if err != nil {
		panic(err)
	}
	for _, m := range out {
		fmt.Printf("%-6s %-22q framework's own: %v, cached: %v\n", m.Role, m.Content, slices.Contains(history, m), m.Cached)
	}
	// Output:
	// system "You help."            framework's own: true, cached: true
	// user   "Answer briefly."      framework's own: false, cached: false
	// user   "Why is the sky blue?" framework's own: true, cached: false
}

// A framework that owns its loop hands its tools only a context: the
// adapter puts the run in it once, and its tool middleware finds it there.
func ExampleContextWithRun() {
	chain, err := hooks.NewChain([]hooks.Hook{hooks.Funcs{HookName: "no-secrets",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if call.Arguments["file"] == ".env" {
				return hooks.Refuse(".env is private"), nil
			}
			return nil, nil
		}}})
	if err != nil {
		panic(err)
	}
	// The middleware: the framework calls it with its own ctx.
	read := func(ctx context.Context, file string) string {
		run, ok := hooks.RunFromContext(ctx)
		if !ok {
			return "no run in ctx"
		}
		res, err := run.CallTool(ctx, hooks.ToolCall{Name: "read", Arguments: map[string]any{"file": file}},
			func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
				return hooks.ToolResult{Text: "contents of " + file}, nil // hand the tool ctx, never c
			})
		if err != nil {
			return err.Error()
		}
		return res.Text
	}

	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: "read my files"})
	if err != nil {
		panic(err)
	}
	defer run.End(ctx, hooks.RunEnd{})
	ctx = hooks.ContextWithRun(ctx, run) // what the adapter gives the framework's loop
	fmt.Println(read(ctx, "notes.txt"))
	fmt.Println(read(ctx, ".env"))
	fmt.Println(read(context.Background(), "notes.txt"))
	// Output:
	// contents of notes.txt
	// .env is private
	// no run in ctx
}

// An MCP server keeps one run per session: started by the session's first
// call, ended when the session goes, and all ended when the server stops.
func ExampleRuns() {
	chain, err := hooks.NewChain([]hooks.Hook{hooks.Funcs{HookName: "audit",
		AfterRun: func(c *hooks.Context, end hooks.RunEnd) error {
			fmt.Printf("run %s ended: %s\n", end.RunID, end.Reason)
			return nil
		}}})
	if err != nil {
		panic(err)
	}
	runs := hooks.NewRuns(func(ctx context.Context, session string) (*hooks.Run, error) {
		return chain.Start(ctx, hooks.Host{Session: hooks.Session{ID: session}}, hooks.RunStart{RunID: "run-" + session})
	})
	ctx := context.Background()
	a1, _ := runs.Get(ctx, "A") // a tool call of session A
	a2, _ := runs.Get(ctx, "A") // another one
	b, _ := runs.Get(ctx, "B")
	fmt.Println(a1 == a2, a1.ID(), b.ID(), runs.Len())

	runs.End(ctx, "A", hooks.RunEnd{Reason: "session closed"}) // the session went away
	runs.Close(ctx, hooks.RunEnd{Reason: "server stopped"})
	_, err = runs.Get(ctx, "C")
	fmt.Println(err)
	// Output:
	// true run-A run-B 2
	// run run-A ended: session closed
	// run run-B ended: server stopped
	// hooks: runs are closed
}

// A model's arguments that are not a JSON object still reach the hooks,
// as text under InvalidArgumentsKey, so that a guard can refuse them.
func ExampleParseArguments() {
	args, err := hooks.ParseArguments([]byte(`{"path": "notes.txt", "lines": 20}`))
	fmt.Println(args, err)

	args, err = hooks.ParseArguments([]byte(`{"path": "/etc/pas`)) // cut off by the model's token limit
	fmt.Println(err)
	fmt.Printf("%q\n", args[hooks.InvalidArgumentsKey])

	args, err = hooks.ParseArguments([]byte(` null `))
	fmt.Println(len(args), err)
	// Output:
	// map[lines:20 path:notes.txt] <nil>
	// hooks: tool arguments are not a JSON object: unexpected end of JSON input
	// "{\"path\": \"/etc/pas"
	// 0 <nil>
}

// A framework with only before- and after-tool callbacks (adk-go) keeps
// each call's step in ToolSteps between the two.
func ExampleToolSteps() {
	chain, err := hooks.NewChain([]hooks.Hook{hooks.Funcs{HookName: "redact",
		AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			text := strings.ReplaceAll(res.Text, "hunter2", "****")
			return &hooks.ToolResultPatch{Text: &text}, nil
		}}})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	if err != nil {
		panic(err)
	}
	defer run.End(ctx, hooks.RunEnd{})
	var steps hooks.ToolSteps

	before := func(call hooks.ToolCall) *hooks.ToolResult { // nil: run the tool
		step, err := run.BeforeToolExecute(ctx, call)
		if err != nil {
			return &hooks.ToolResult{Text: err.Error(), IsError: true}
		}
		steps.Put(step)
		return step.Result
	}
	after := func(call hooks.ToolCall, res hooks.ToolResult) hooks.ToolResult {
		step, ok := steps.Take(call.ID)
		if !ok {
			step = hooks.ToolStep{Call: call} // no before: every hook's after runs, on this call
		}
		res, err := run.AfterToolExecute(ctx, step, res)
		if err != nil {
			return hooks.ToolResult{Text: err.Error(), IsError: true}
		}
		return res
	}

	call := hooks.ToolCall{ID: "call-1", Name: "env", Arguments: map[string]any{}}
	if before(call) == nil {
		fmt.Println(after(call, hooks.ToolResult{Text: "PASSWORD=hunter2"}).Text)
	}
	fmt.Println(steps.Len())
	// Output:
	// PASSWORD=****
	// 0
}

// An adapter holding the model's raw JSON arguments sends them to the tool
// as they are unless a hook rewrote them: only then does it re-encode.
func ExampleToolStep_Rewritten() {
	chain, err := hooks.NewChain([]hooks.Hook{hooks.Funcs{HookName: "sandbox",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if path, _ := call.Arguments["path"].(string); strings.HasPrefix(path, "/") {
				args := map[string]any{"path": "/sandbox" + path, "id": call.Arguments["id"]}
				return &hooks.ToolCallPatch{Arguments: args}, nil
			}
			return nil, nil
		}}})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	if err != nil {
		panic(err)
	}
	defer run.End(ctx, hooks.RunEnd{})

	for _, raw := range []string{`{"path":"a.txt","id":9007199254740993}`, `{"path":"/etc/hosts","id":9007199254740993}`} {
		args, _ := hooks.ParseArguments([]byte(raw))
		step, err := run.BeforeToolExecute(ctx, hooks.ToolCall{ID: "c1", Name: "read", Arguments: args})
		if err != nil {
			panic(err)
		}
		input := json.RawMessage(raw)
		if step.Rewritten() {
			input, _ = json.Marshal(step.Call.Arguments)
		}
		fmt.Printf("rewritten %v: %s\n", step.Rewritten(), input)
	}
	// Output:
	// rewritten false: {"path":"a.txt","id":9007199254740993}
	// rewritten true: {"id":9007199254740992,"path":"/sandbox/etc/hosts"}
}
