package hooks_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rienda/hooks"
)

// retryHook retries a tool call that failed, waiting longer before each
// attempt. Sleep waits for d unless ctx ends first; nil uses a timer.
type retryHook struct {
	attempts int
	backoff  time.Duration // before the second attempt; doubled after each
	sleep    func(ctx context.Context, d time.Duration) error
}

func (h retryHook) Name() string { return "retry" }

func (h retryHook) WrapTool(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
	sleep := h.sleep
	if sleep == nil {
		sleep = func(ctx context.Context, d time.Duration) error {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-t.C:
				return nil
			}
		}
	}
	wait := h.backoff
	for attempt := 1; ; attempt++ {
		res, err := next(c, call) // the tool again: not the guards, not the after-hooks
		if err == nil || attempt == h.attempts {
			return res, err
		}
		fmt.Printf("attempt %d: %v; retrying in %v\n", attempt, err, wait)
		if err := sleep(c.Context, wait); err != nil {
			return res, err
		}
		wait *= 2
	}
}

// A wrap hook retries a flaky tool with exponential backoff. The guard and
// the after-hook run once; the tool runs until it succeeds. (The example
// sleeps on a fake clock; in production leave sleep nil.)
func ExampleWrapToolHook_retry() {
	audit := hooks.Funcs{
		HookName: "audit",
		AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			fmt.Println("audit saw:", res.Text)
			return nil, nil
		},
	}
	var slept time.Duration
	fakeSleep := func(ctx context.Context, d time.Duration) error { slept += d; return nil }
	chain, err := hooks.NewChain([]hooks.Hook{audit, retryHook{attempts: 5, backoff: 10 * time.Millisecond, sleep: fakeSleep}})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: "weather?"})
	if err != nil {
		panic(err)
	}
	defer run.End(ctx, hooks.RunEnd{})

	failures := 2
	weather := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		if failures > 0 {
			failures--
			return hooks.ToolResult{}, errors.New("connection reset")
		}
		return hooks.ToolResult{Text: "21 °C in " + call.Arguments["city"].(string)}, nil
	}
	res, err := run.CallTool(ctx, hooks.ToolCall{ID: "1", Name: "weather", Arguments: map[string]any{"city": "Lyon"}}, weather)
	fmt.Println(res.Text, err)
	fmt.Println("waited:", slept)
	// Output:
	// attempt 1: connection reset; retrying in 10ms
	// attempt 2: connection reset; retrying in 20ms
	// audit saw: 21 °C in Lyon
	// 21 °C in Lyon <nil>
	// waited: 30ms
}

// A wrap hook falls back to a second model when the first one fails. The
// hooks around it see one model call, whichever model answered.
func ExampleWrapModelHook_fallback() {
	small := func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Text: "small model: " + req.Messages[0].Text}, nil
	}
	fallback := hooks.Funcs{
		HookName: "fallback",
		WrapModel: func(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
			resp, err := next(c, req)
			if err != nil {
				fmt.Println("first model failed:", err)
				return small(c, req)
			}
			return resp, nil
		},
	}
	chain, err := hooks.NewChain([]hooks.Hook{fallback})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: "hi"})
	if err != nil {
		panic(err)
	}
	defer run.End(ctx, hooks.RunEnd{})

	large := func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{}, errors.New("529 overloaded")
	}
	reply, err := run.CallModel(ctx, hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "hi"}}}, large)
	fmt.Println(reply.Response.Text, err)
	// Output:
	// first model failed: 529 overloaded
	// small model: hi <nil>
}

// A wrap hook gives each tool its own timeout: it passes the rest of the
// call a context with a deadline, and turns the deadline into an error
// result the model reads, so the run goes on.
func ExampleContext_WithContext() {
	timeouts := map[string]time.Duration{"search": 100 * time.Microsecond}
	perTool := hooks.Funcs{
		HookName: "timeouts",
		WrapTool: func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
			d, ok := timeouts[call.Name]
			if !ok {
				return next(c, call)
			}
			ctx, cancel := context.WithTimeout(c.Context, d)
			defer cancel()
			res, err := next(c.WithContext(ctx), call)
			if errors.Is(err, context.DeadlineExceeded) {
				return hooks.ToolResult{Text: fmt.Sprintf("%s timed out after %v", call.Name, d), IsError: true}, nil
			}
			return res, err
		},
	}
	chain, err := hooks.NewChain([]hooks.Hook{perTool})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: "find it"})
	if err != nil {
		panic(err)
	}
	defer run.End(ctx, hooks.RunEnd{})

	hangingSearch := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		<-c.Done() // a tool that waits must watch its context
		return hooks.ToolResult{}, c.Err()
	}
	res, err := run.CallTool(ctx, hooks.ToolCall{ID: "1", Name: "search"}, hangingSearch)
	fmt.Println(res.Text, res.IsError, err)
	// Output:
	// search timed out after 100µs true <nil>
}
