package hooks_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// echoModel is a model that records its call and answers the last message.
func echoModel(rec *recorder) hooks.ModelFunc {
	return func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		rec.add("model")
		if len(req.Messages) == 0 {
			return hooks.ModelResponse{Text: "nothing to say"}, nil
		}
		return hooks.ModelResponse{Text: req.Messages[len(req.Messages)-1].Text}, nil
	}
}

// modelLayer is a hook with a BeforeModelRequest, a wrap and an
// AfterModelResponse, recording "name:before", "name:wrap>", "name:wrap<"
// and "name:after".
func modelLayer(rec *recorder, name string) hooks.Funcs {
	return hooks.Funcs{
		HookName: name,
		BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			rec.add(name + ":before")
			return nil, nil
		},
		WrapModel: func(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
			rec.add(name + ":wrap>")
			resp, err := next(c, req)
			rec.add(name + ":wrap<")
			return resp, err
		},
		AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			rec.add(name + ":after:" + resp.Text)
			return nil, nil
		},
	}
}

// fallback is a model wrap that calls backup when next fails.
func fallback(backup hooks.ModelFunc) hooks.Funcs {
	return hooks.Funcs{HookName: "fallback", WrapModel: func(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
		resp, err := next(c, req)
		if err != nil {
			return backup(c, req)
		}
		return resp, nil
	}}
}

var wrapRequest = hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "hello"}}}

func TestWrapModelOrderAndFallback(t *testing.T) {
	rec := &recorder{}
	errDown := errors.New("overloaded")
	primary := func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
		rec.add("primary")
		return hooks.ModelResponse{}, errDown
	}
	run := startChain(t, rec, hooks.Host{}, nil, modelLayer(rec, "a"), fallback(echoModel(rec)), modelLayer(rec, "b"))
	reply, err := run.CallModel(context.Background(), wrapRequest, primary)
	require.NoError(t, err)
	assert.Equal(t, "hello", reply.Response.Text)
	assert.Equal(t, []string{"a:before", "b:before", "a:wrap>", "b:wrap>", "primary", "b:wrap<", "model", "a:wrap<", "b:after:hello", "a:after:hello"}, rec.got())

	t.Run("an error past every wrap is CallModel's, without after-hooks", func(t *testing.T) {
		rec := &recorder{}
		run := startChain(t, rec, hooks.Host{}, nil, modelLayer(rec, "a"))
		_, err := run.CallModel(context.Background(), wrapRequest, func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
			return hooks.ModelResponse{}, errDown
		})
		assert.ErrorIs(t, err, errDown)
		assert.Equal(t, []string{"a:before", "a:wrap>", "a:wrap<"}, rec.got())
	})
}

func TestWrapModelNotReachedByEndOrRespond(t *testing.T) {
	for name, patch := range map[string]*hooks.ModelRequestPatch{
		"respond": {Respond: &hooks.ModelResponse{Text: "canned"}},
		"end":     {End: &hooks.End{Output: "done"}},
	} {
		t.Run(name, func(t *testing.T) {
			rec := &recorder{}
			gate := hooks.Funcs{HookName: "gate", BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
				return patch, nil
			}}
			run := startChain(t, rec, hooks.Host{}, nil, gate, modelLayer(rec, "w"))
			reply, err := run.CallModel(context.Background(), wrapRequest, echoModel(rec))
			require.NoError(t, err)
			assert.Equal(t, patch.End, reply.End)
			if patch.Respond != nil {
				assert.Equal(t, "canned", reply.Response.Text)
			}

			step, err := run.BeforeModelRequest(context.Background(), wrapRequest)
			require.NoError(t, err)
			resp, err := run.ExecuteModel(context.Background(), step, echoModel(rec))
			require.NoError(t, err)
			_, err = run.AfterModelResponse(context.Background(), step, resp)
			require.NoError(t, err)
			assert.Empty(t, rec.got(), "neither the wrap nor the model runs")
			assert.Empty(t, rec.diagnostics())
		})
	}
}

func TestWrapModelSplitMethods(t *testing.T) {
	ctx := context.Background()
	splitCall := func(t *testing.T, run *hooks.Run, execute bool, model hooks.ModelFunc) {
		step, err := run.BeforeModelRequest(ctx, wrapRequest)
		require.NoError(t, err)
		var resp hooks.ModelResponse
		if execute {
			resp, err = run.ExecuteModel(ctx, step, model)
		} else {
			resp, err = model(nil, step.Request) // the host calls the model itself
		}
		require.NoError(t, err)
		_, err = run.AfterModelResponse(ctx, step, resp)
		require.NoError(t, err)
	}
	t.Run("ExecuteModel runs the wraps", func(t *testing.T) {
		rec := &recorder{}
		run := startChain(t, rec, hooks.Host{}, nil, modelLayer(rec, "a"))
		splitCall(t, run, true, echoModel(rec))
		assert.Equal(t, []string{"a:before", "a:wrap>", "model", "a:wrap<", "a:after:hello"}, rec.got())
		assert.Empty(t, rec.diagnostics())
	})
	t.Run("without it, one diagnostic per run naming the wraps", func(t *testing.T) {
		rec := &recorder{}
		run := startChain(t, rec, hooks.Host{}, nil, modelLayer(rec, "a"), fallback(echoModel(rec)))
		splitCall(t, run, false, echoModel(rec))
		splitCall(t, run, false, echoModel(rec))
		diags := rec.diagnostics()
		require.Len(t, diags, 1)
		assert.Equal(t, hooks.WrapModelCall, diags[0].Point)
		assert.ErrorContains(t, diags[0].Err, "a, fallback")
		assert.ErrorContains(t, diags[0].Err, "ExecuteModel")
	})
	t.Run("a chain without wraps says nothing", func(t *testing.T) {
		rec := &recorder{}
		l := modelLayer(rec, "a")
		l.WrapModel = nil
		run := startChain(t, rec, hooks.Host{}, nil, l)
		splitCall(t, run, false, echoModel(rec))
		assert.Empty(t, rec.diagnostics())
	})
}

func TestWrapTraceEvents(t *testing.T) {
	rec := &recorder{}
	var mu sync.Mutex
	var events []hooks.TraceEvent
	trace := hooks.WithTrace(func(e hooks.TraceEvent) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, e)
	})
	cache := toolWrap("cache", func(*hooks.Context, hooks.ToolCall, hooks.ToolFunc) (hooks.ToolResult, error) {
		return hooks.ToolResult{Text: "cached"}, nil
	})
	run := startChain(t, rec, hooks.Host{}, []hooks.Option{trace},
		toolLayer(rec, "a"), modelLayer(rec, "m"), hooks.WithPolicy(panicking("broken", false), hooks.Report), cache)
	_, err := run.CallTool(context.Background(), wrapCall, echoTool(rec))
	require.NoError(t, err)
	_, err = run.CallModel(context.Background(), wrapRequest, echoModel(rec))
	require.NoError(t, err)

	type seen struct {
		Hook     string
		Point    hooks.Point
		CallID   string
		Decision hooks.Decision
		Policy   hooks.Policy
	}
	var got []seen
	for _, e := range events {
		got = append(got, seen{e.Hook, e.Point, e.CallID, e.Decision, e.Policy})
		if e.Decision == hooks.DecisionErrored {
			var pe *hooks.PanicError
			assert.ErrorAs(t, e.Err, &pe)
		}
	}
	assert.Equal(t, []seen{
		{"a", hooks.BeforeToolExecute, "c1", hooks.DecisionNoOpinion, hooks.FailRun},
		{"broken", hooks.WrapToolCall, "c1", hooks.DecisionErrored, hooks.Report}, // traced at its panic, before the chain calls next for it
		{"cache", hooks.WrapToolCall, "c1", hooks.DecisionAnswered, hooks.FailRun},
		{"a", hooks.WrapToolCall, "c1", hooks.DecisionNoOpinion, hooks.FailRun},
		{"a", hooks.AfterToolExecute, "c1", hooks.DecisionNoOpinion, hooks.FailRun},
		{"m", hooks.BeforeModelRequest, "", hooks.DecisionNoOpinion, hooks.FailRun},
		{"m", hooks.WrapModelCall, "", hooks.DecisionNoOpinion, hooks.FailRun},
		{"m", hooks.AfterModelResponse, "", hooks.DecisionNoOpinion, hooks.FailRun},
	}, got)
}
