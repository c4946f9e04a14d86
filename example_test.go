package hooks_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/rienda/hooks"
)

// A guard made of a plain function: it refuses shell commands that delete.
func ExampleFuncs() {
	guard := hooks.Funcs{
		HookName: "no-rm",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if cmd, _ := call.Arguments["command"].(string); strings.Contains(cmd, "rm ") {
				return hooks.Refuse("deleting files is not allowed"), nil
			}
			return nil, nil // no opinion
		},
	}
	chain, err := hooks.NewChain([]hooks.Hook{guard})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: "tidy up"})
	if err != nil {
		panic(err)
	}
	defer run.End(ctx, hooks.RunEnd{})

	step, err := run.BeforeToolExecute(ctx, hooks.ToolCall{Name: "shell", Arguments: map[string]any{"command": "rm -rf /tmp/x"}})
	if err != nil {
		panic(err)
	}
	fmt.Println("refused:", step.Refused)
	fmt.Println("the model reads:", step.Result.Text)
	// Output:
	// refused: true
	// the model reads: deleting files is not allowed
}

// budget is a struct hook that handles two points: it keeps a per-run
// counter as its State and ends the run when the model has been called too
// often, and it reports the outcome at the end.
type budget struct{ max int }

func (b budget) Name() string { return "budget" }

func (b budget) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	if c.ModelCalls() >= b.max {
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: "model budget spent"}}, nil
	}
	return nil, nil
}

func (b budget) AfterRun(c *hooks.Context, end hooks.RunEnd) error {
	fmt.Printf("%s: run %s %s after %d model calls\n", c.Hook(), end.RunID, end.Outcome, c.ModelCalls())
	return nil
}

func Example_structHook() {
	chain, err := hooks.NewChain([]hooks.Hook{budget{max: 2}})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "r1"})
	if err != nil {
		panic(err)
	}
	model := func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Text: "thinking"}, nil
	}
	for turn := 1; ; turn++ {
		reply, err := run.CallModel(ctx, hooks.ModelRequest{}, model)
		if err != nil {
			panic(err)
		}
		if reply.End != nil {
			fmt.Printf("turn %d: ended: %s\n", turn, reply.End.Output)
			run.End(ctx, hooks.RunEnd{Output: reply.End.Output})
			break
		}
		fmt.Printf("turn %d: %s\n", turn, reply.Response.Text)
	}
	// Output:
	// turn 1: thinking
	// turn 2: thinking
	// turn 3: ended: model budget spent
	// budget: run r1 completed after 2 model calls
}

// Wrapping an existing tool runner: every call goes through the hooks, here
// one that rewrites a path argument and one that redacts the result.
func ExampleRun_CallTool() {
	sandbox := hooks.Funcs{
		HookName: "sandbox",
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			path, _ := call.Arguments["path"].(string)
			if strings.HasPrefix(path, "/") {
				return nil, nil
			}
			return &hooks.ToolCallPatch{Arguments: map[string]any{"path": "/sandbox/" + path}}, nil
		},
	}
	redact := hooks.Funcs{
		HookName: "redact",
		AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			text := strings.ReplaceAll(res.Text, "hunter2", "[redacted]")
			return &hooks.ToolResultPatch{Text: &text}, nil
		},
	}
	chain, err := hooks.NewChain([]hooks.Hook{redact, sandbox})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	if err != nil {
		panic(err)
	}
	defer run.End(ctx, hooks.RunEnd{})

	readFile := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		return hooks.ToolResult{Text: fmt.Sprintf("%s: password=hunter2", call.Arguments["path"])}, nil
	}
	res, err := run.CallTool(ctx, hooks.ToolCall{Name: "read", Arguments: map[string]any{"path": "notes.txt"}}, readFile)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Text)
	// Output:
	// /sandbox/notes.txt: password=[redacted]
}

// A JavaScript hook from source, as tests and embedders build them; a
// loaded hook (Loader.Load) works the same.
func ExampleCompileJS() {
	guard, err := hooks.CompileJS("https-only", `
		exports.beforeToolExecute = (ctx, call) => {
			if (call.arguments.url && call.arguments.url.startsWith("http://"))
				return { arguments: { ...call.arguments, url: "https://" + call.arguments.url.slice(7) } };
		};`, nil)
	if err != nil {
		panic(err)
	}
	chain, err := hooks.NewChain([]hooks.Hook{guard})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	if err != nil {
		panic(err)
	}
	defer run.End(ctx, hooks.RunEnd{})
	step, err := run.BeforeToolExecute(ctx, hooks.ToolCall{Name: "fetch", Arguments: map[string]any{"url": "http://example.com"}})
	if err != nil {
		panic(err)
	}
	fmt.Println(step.Call.Arguments["url"])
	// Output:
	// https://example.com
}

// Tracing what each hook decided, for logs or a debugger.
func ExampleWithTrace() {
	quiet := hooks.Funcs{HookName: "quiet", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return nil, nil
	}}
	guard := hooks.Funcs{HookName: "guard", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return hooks.Refuse("not on Fridays"), nil
	}}
	chain, err := hooks.NewChain([]hooks.Hook{quiet, guard}, hooks.WithTrace(func(e hooks.TraceEvent) {
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%s %s: %s %s", e.Hook, e.Point, e.Decision, e.Reason)))
	}))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	if err != nil {
		panic(err)
	}
	defer run.End(ctx, hooks.RunEnd{})
	if _, err := run.BeforeToolExecute(ctx, hooks.ToolCall{Name: "deploy"}); err != nil {
		panic(err)
	}
	// Output:
	// quiet beforeToolExecute: no opinion
	// guard beforeToolExecute: refused not on Fridays
}

// A JavaScript hook that keeps a count for the run: every export may
// return {state}, which later calls read in ctx.state (and Run.Snapshot
// saves). This one stops after 10 shell calls.
func ExampleCompileJS_state() {
	budget, err := hooks.CompileJS("shell-budget", `
		exports.beforeToolExecute = (ctx, call) => {
			if (call.name !== "shell") return;
			const calls = (ctx.state || 0) + 1;
			if (calls > 10) return { block: "Stopped: 10 shell calls is this run's budget." };
			return { state: calls };
		};`, nil)
	if err != nil {
		panic(err)
	}
	chain, err := hooks.NewChain([]hooks.Hook{budget})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	if err != nil {
		panic(err)
	}
	defer run.End(ctx, hooks.RunEnd{})
	for i := 1; i <= 11; i++ {
		step, err := run.BeforeToolExecute(ctx, hooks.ToolCall{Name: "shell", Arguments: map[string]any{"command": "ls"}})
		if err != nil {
			panic(err)
		}
		if step.Refused {
			fmt.Printf("call %d: %s\n", i, step.Reason)
		}
	}
	// Output:
	// call 11: Stopped: 10 shell calls is this run's budget.
}

// A Go hook that changes its state after the run started.
func ExampleContext_SetState() {
	var seen []any
	count := hooks.Funcs{HookName: "count", AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		n, _ := c.State().(int)
		c.SetState(n + 1) // the last writer wins under parallel tool calls
		seen = append(seen, c.State())
		return nil, nil
	}}
	chain, err := hooks.NewChain([]hooks.Hook{count})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	if err != nil {
		panic(err)
	}
	defer run.End(ctx, hooks.RunEnd{})
	tool := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		return hooks.ToolResult{Text: "ok"}, nil
	}
	for range 3 {
		if _, err := run.CallTool(ctx, hooks.ToolCall{Name: "read"}, tool); err != nil {
			panic(err)
		}
	}
	fmt.Println(seen)
	// Output:
	// [1 2 3]
}
