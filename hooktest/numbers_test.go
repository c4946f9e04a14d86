package hooktest_test

import (
	"math"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// limit refuses payments above 500, the way a hook written against
// production data does: a model's numbers are float64.
var limit = hooks.Funcs{
	HookName: "limit",
	BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		amount, ok := call.Arguments["amount"].(float64)
		if !ok {
			return hooks.Refuse("amount is not a number"), nil
		}
		if amount > 500 {
			return hooks.Refuse("too much"), nil
		}
		return nil, nil
	},
}

func TestArgumentsReachHooksAsAModelSendsThem(t *testing.T) {
	var seen []any
	spy := hooks.Funcs{HookName: "spy", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		seen = append(seen, call.Arguments["amount"], call.Arguments["items"])
		original, ok := c.OriginalCall()
		require.True(t, ok)
		seen = append(seen, original.Arguments["amount"])
		return nil, nil
	}}
	h := hooktest.New(t, spy, limit)
	o := h.Tool("pay", map[string]any{"amount": 600, "items": []int{1, 2}})
	o.RequireRefused(t, "too much")
	assert.Equal(t, []any{600.0, []any{1.0, 2.0}, 600.0}, seen, "what a model sends: float64, []any")
	assert.Equal(t, 600.0, o.Call.Arguments["amount"], "the outcome's call is the call the hooks got")

	h.ToolCall(hooks.ToolCall{Name: "pay", Arguments: map[string]any{"amount": int64(12)}}, hooks.ToolResult{Text: "paid"}).
		RequireResult(t, "paid")
}

func TestModelToolCallsReachHooksAsJSON(t *testing.T) {
	var seen any
	spy := hooks.Funcs{HookName: "spy", AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		seen = resp.ToolCalls[0].Arguments["amount"]
		return nil, nil
	}}
	h := hooktest.New(t, spy)
	o := h.Model(hooks.ModelRequest{}, hooks.ModelResponse{ToolCalls: []hooks.ToolCall{{Name: "pay", Arguments: map[string]any{"amount": uint8(7)}}}})
	require.NoError(t, o.Err)
	assert.Equal(t, 7.0, seen)
	assert.Equal(t, 7.0, o.Reply.Response.ToolCalls[0].Arguments["amount"])
}

func TestJSHooksAndGoHooksSeeTheSameNumbers(t *testing.T) {
	js, err := hooks.CompileJS("js-limit", `exports.beforeToolExecute = (ctx, call) => {
		if (typeof call.arguments.amount !== "number") return {allow: false, reason: "amount is not a number"};
		if (call.arguments.amount > 500) return {allow: false, reason: "too much"};
	};`, nil)
	require.NoError(t, err)
	for _, h := range []hooks.Hook{limit, js} {
		t.Run(h.Name(), func(t *testing.T) {
			ht := hooktest.New(t, h)
			ht.Tool("pay", map[string]any{"amount": 600}).RequireRefused(t, "too much")
			ht.Tool("pay", map[string]any{"amount": 20}).RequireAllowed(t)
			ht.Tool("pay", map[string]any{"amount": "20"}).RequireRefused(t, "amount is not a number")
		})
	}
}

func TestArgumentsJSONCannotCarryFailTheTest(t *testing.T) {
	ran := false
	spy := hooks.Funcs{HookName: "spy", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		ran = true
		return nil, nil
	}}
	rt := &recordT{TB: t}
	h := hooktest.New(rt, spy)
	o := h.Tool("pay", map[string]any{"amount": 1, "callback": func() {}})
	require.Len(t, rt.msgs, 1)
	assert.Equal(t, `hooktest: tool call pay: argument "callback" cannot be sent as JSON, as a model sends arguments: json: unsupported type: func()`, rt.msgs[0])
	assert.Error(t, o.Err)
	assert.False(t, ran, "no hook sees a call a model could not send")
	assert.False(t, o.Ran)

	m := h.Model(hooks.ModelRequest{}, hooks.ModelResponse{ToolCalls: []hooks.ToolCall{{Name: "pay", Arguments: map[string]any{"amount": math.NaN()}}}})
	require.Len(t, rt.msgs, 2)
	assert.Equal(t, `hooktest: the model's reply: tool call pay: argument "amount" cannot be sent as JSON, as a model sends arguments: json: unsupported value: NaN`, rt.msgs[1])
	assert.Error(t, m.Err)

	// Outside a test, the outcome carries the error.
	started, err := hooktest.Start(hooktest.Options{}, spy)
	require.NoError(t, err)
	defer started.End(hooks.RunEnd{})
	o = started.Tool("pay", map[string]any{"ch": make(chan int)})
	assert.ErrorContains(t, o.Err, `argument "ch" cannot be sent as JSON`)
	assert.False(t, ran)
}
