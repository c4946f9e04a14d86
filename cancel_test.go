package hooks_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cancelCase is one route a tool or model call can take; it reports
// whether the call ran, and the route's error.
type cancelCase func(t *testing.T, run *hooks.Run, ctx context.Context, ran *atomic.Int32) error

func cancelTool(ran *atomic.Int32) hooks.ToolFunc {
	return func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		ran.Add(1)
		return hooks.ToolResult{Text: "ran"}, nil
	}
}

func cancelModel(ran *atomic.Int32) hooks.ModelFunc {
	return func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		ran.Add(1)
		return hooks.ModelResponse{Text: "ran"}, nil
	}
}

func cancelStream(ran *atomic.Int32) hooks.StreamFunc {
	return func(c *hooks.Context, req hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		ran.Add(1)
		return hooks.ModelResponse{Text: "ran"}, yield(hooks.Chunk{Text: "ran"})
	}
}

// cancelRoutes are the routes of a call, each given a context that is
// already over by the time the call would start.
var cancelRoutes = map[string]cancelCase{
	"CallTool": func(t *testing.T, run *hooks.Run, ctx context.Context, ran *atomic.Int32) error {
		_, err := run.CallTool(ctx, wrapCall, cancelTool(ran))
		return err
	},
	"CallModel": func(t *testing.T, run *hooks.Run, ctx context.Context, ran *atomic.Int32) error {
		_, err := run.CallModel(ctx, hooks.ModelRequest{}, cancelModel(ran))
		return err
	},
	"StreamModel": func(t *testing.T, run *hooks.Run, ctx context.Context, ran *atomic.Int32) error {
		_, err := run.StreamModel(ctx, hooks.ModelRequest{}, cancelStream(ran), func(hooks.Chunk) error { return nil })
		return err
	},
	// The split methods: the step was let through before the context ended.
	"ExecuteTool": func(t *testing.T, run *hooks.Run, ctx context.Context, ran *atomic.Int32) error {
		step, err := run.BeforeToolExecute(context.Background(), wrapCall)
		require.NoError(t, err)
		_, err = run.ExecuteTool(ctx, step, cancelTool(ran))
		return err
	},
	"ExecuteModel": func(t *testing.T, run *hooks.Run, ctx context.Context, ran *atomic.Int32) error {
		step, err := run.BeforeModelRequest(context.Background(), hooks.ModelRequest{})
		require.NoError(t, err)
		_, err = run.ExecuteModel(ctx, step, cancelModel(ran))
		return err
	},
}

// passWraps are wraps on both calls that pass the call on.
func passWraps(name string, wrapped *atomic.Int32) hooks.Funcs {
	return hooks.Funcs{HookName: name,
		WrapTool: func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
			wrapped.Add(1)
			return next(c, call)
		},
		WrapModel: func(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
			wrapped.Add(1)
			return next(c, req)
		}}
}

// No route runs a call, nor a wrap around it, on a context that is over,
// with no wraps, one wrap or two: each returns the context's error.
func TestCancelledContextRunsNoCall(t *testing.T) {
	for _, wraps := range []int{0, 1, 2} {
		for name, route := range cancelRoutes {
			for _, cause := range []error{context.Canceled, context.DeadlineExceeded} {
				t.Run(fmt.Sprintf("%d wraps/%s/%s", wraps, name, cause), func(t *testing.T) {
					var ran, wrapped atomic.Int32
					var hs []hooks.Hook
					for i := range wraps {
						hs = append(hs, passWraps(string(rune('a'+i)), &wrapped))
					}
					if wraps == 0 {
						hs = append(hs, layer(&recorder{}, "quiet"))
					}
					run := start(t, &recorder{}, hs...)
					ctx := over(t, cause)
					err := route(t, run, ctx, &ran)
					require.ErrorIs(t, err, cause)
					assert.Zero(t, ran.Load(), "the call ran on an ended context")
					assert.Zero(t, wrapped.Load(), "a wrap ran on an ended context")
				})
			}
		}
	}
}

// over is a context that is already over, with cause.
func over(t *testing.T, cause error) context.Context {
	if errors.Is(cause, context.DeadlineExceeded) {
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		t.Cleanup(cancel)
		return ctx
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// A deadline that passes during a step stops everything after it: while
// a before-hook runs, while an outer wrap runs (its next runs nothing,
// nor does the inner wrap), while the inner wrap runs, and while the call
// itself runs (its answer came too late: the method returns the error).
func TestDeadlinePassingDuringEachStep(t *testing.T) {
	waitDone := func(c *hooks.Context) { <-c.Done() }
	for _, during := range []string{"before", "outer wrap", "inner wrap", "call"} {
		for _, kind := range []string{"tool", "model"} {
			t.Run(kind+"/"+during, func(t *testing.T) {
				var ran, outerNext, innerRan atomic.Int32
				var nextErr error
				outer := hooks.Funcs{HookName: "outer",
					BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
						if during == "before" {
							waitDone(c)
						}
						return nil, nil
					},
					BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
						if during == "before" {
							waitDone(c)
						}
						return nil, nil
					},
					WrapTool: func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
						if during == "outer wrap" {
							waitDone(c)
						}
						outerNext.Add(1)
						_, err := next(c, call)
						nextErr = err
						return hooks.ToolResult{Text: "answered"}, nil // swallows the error: still not used
					},
					WrapModel: func(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
						if during == "outer wrap" {
							waitDone(c)
						}
						outerNext.Add(1)
						_, err := next(c, req)
						nextErr = err
						return hooks.ModelResponse{Text: "answered"}, nil
					},
				}
				inner := hooks.Funcs{HookName: "inner",
					WrapTool: func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
						innerRan.Add(1)
						if during == "inner wrap" {
							waitDone(c)
						}
						return next(c, call)
					},
					WrapModel: func(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
						innerRan.Add(1)
						if during == "inner wrap" {
							waitDone(c)
						}
						return next(c, req)
					},
				}
				run := start(t, &recorder{}, outer, inner)
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
				defer cancel()
				tool := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
					ran.Add(1)
					waitDone(c)
					return hooks.ToolResult{Text: "late"}, nil
				}
				model := func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
					ran.Add(1)
					waitDone(c)
					return hooks.ModelResponse{Text: "late"}, nil
				}
				var err error
				if kind == "tool" {
					_, err = run.CallTool(ctx, wrapCall, tool)
				} else {
					_, err = run.CallModel(ctx, hooks.ModelRequest{}, model)
				}
				require.ErrorIs(t, err, context.DeadlineExceeded)
				switch during {
				case "before":
					assert.Zero(t, outerNext.Load()+innerRan.Load()+ran.Load(), "nothing runs after the before-hook")
				case "outer wrap":
					assert.Zero(t, innerRan.Load()+ran.Load(), "the outer wrap's next runs nothing")
					assert.ErrorIs(t, nextErr, context.DeadlineExceeded, "next says why")
				case "inner wrap":
					assert.Zero(t, ran.Load(), "the inner wrap's next runs nothing")
					assert.ErrorIs(t, nextErr, context.DeadlineExceeded)
				case "call":
					assert.Equal(t, int32(1), ran.Load())
				}
			})
		}
	}
}

// A wrap that hands the rest of the call a context of its own, detached
// from the host's, still cannot run the call once the host's has ended.
func TestWrapDetachedContextStillStopsWithTheHosts(t *testing.T) {
	var ran atomic.Int32
	var nextErr error
	ctx, cancel := context.WithCancel(context.Background())
	detach := hooks.Funcs{HookName: "detach",
		WrapTool: func(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
			cancel() // the host gives up while the wrap runs
			_, nextErr = next(c.WithContext(context.Background()), call)
			return hooks.ToolResult{Text: "answered"}, nil
		}}
	run := start(t, &recorder{}, detach)
	step, err := run.BeforeToolExecute(ctx, wrapCall)
	require.NoError(t, err)
	_, err = run.ExecuteTool(ctx, step, cancelTool(&ran))
	require.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, nextErr, context.Canceled)
	assert.Zero(t, ran.Load())
}
