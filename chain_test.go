package hooks_test

import (
	"context"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPoints(t *testing.T) {
	assert.Equal(t, []hooks.Point{hooks.BeforeRun, hooks.AfterRun, hooks.BeforeModelRequest,
		hooks.AfterModelResponse, hooks.BeforeToolExecute, hooks.AfterToolExecute}, hooks.Points())
	ps := hooks.Points()
	ps[0] = "changed"
	assert.Equal(t, hooks.BeforeRun, hooks.Points()[0], "Points returns a copy")

	for _, s := range []string{"beforeRun", "afterToolExecute", "beforeTrustDecision"} {
		p, err := hooks.ParsePoint(s)
		require.NoError(t, err)
		assert.Equal(t, s, string(p))
	}
	_, err := hooks.ParsePoint("beforeToolExecution")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"beforeToolExecution"`)
	assert.Contains(t, err.Error(), "beforeToolExecute, afterToolExecute, beforeTrustDecision")
}

// typo has a misspelled point method: it handles nothing.
type typo struct{}

func (typo) Name() string { return "typo" }
func (typo) BeforeToolExecution(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	return nil, nil
}

// halfTypo has one right point method and one near miss, which would
// never run.
type halfTypo struct{}

func (halfTypo) Name() string { return "half" }
func (halfTypo) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	return nil, nil
}
func (halfTypo) AfterToolExecution(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
	return nil, nil
}

// wrongSignature names a point method right but returns a patch by value.
type wrongSignature struct{}

func (wrongSignature) Name() string { return "wrong" }
func (wrongSignature) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (hooks.ToolCallPatch, error) {
	return hooks.ToolCallPatch{}, nil
}

// halfStream has StreamText but not HoldBack: it is no StreamHook.
type halfStream struct{}

func (halfStream) Name() string { return "half-stream" }
func (halfStream) StreamText(c *hooks.Context, text string, final bool) (*hooks.StreamPatch, error) {
	return nil, nil
}

// nameOnly has a name and nothing else.
type nameOnly struct{}

func (nameOnly) Name() string { return "only" }

// silent is a PointHandler that handles nothing, like a broken JS file.
type silent struct{}

func (silent) Name() string             { return "silent" }
func (silent) Handles(hooks.Point) bool { return false }

func TestNewChainRejectsBadHooks(t *testing.T) {
	rec := &recorder{}
	cases := []struct {
		name  string
		hooks []hooks.Hook
		want  []string
	}{
		{"nil", []hooks.Hook{layer(rec, "a"), nil}, []string{"#1", "nil"}},
		{"empty name", []hooks.Hook{hooks.Funcs{}}, []string{"#0", "empty name"}},
		{"duplicate", []hooks.Hook{layer(rec, "a"), layer(rec, "b"), layer(rec, "a")}, []string{"duplicate", `"a"`, "#0", "#2"}},
		{"typo", []hooks.Hook{typo{}}, []string{`"typo"`, "BeforeToolExecution handles no point: did you mean BeforeToolExecute?", "hooks_test.typo"}},
		{"typo under a policy", []hooks.Hook{hooks.WithPolicy(typo{}, hooks.Report)}, []string{`"typo"`, "did you mean BeforeToolExecute?"}},
		{"a right method and a near miss", []hooks.Hook{halfTypo{}}, []string{`"half"`, "AfterToolExecution handles no point: did you mean AfterToolExecute?"}},
		{"a right name with a wrong signature", []hooks.Hook{wrongSignature{}}, []string{`"wrong"`,
			"method BeforeToolExecute is (*hooks.Context, hooks.ToolCall) (hooks.ToolCallPatch, error)",
			"the chain calls BeforeToolExecute (*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error)"}},
		{"no point method at all", []hooks.Hook{nameOnly{}}, []string{`"only"`, "implements no point method"}},
		{"a stream hook without its hold-back", []hooks.Hook{halfStream{}}, []string{`"half-stream"`,
			"method StreamText would never run: StreamHook also needs HoldBack () int"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := hooks.NewChain(tc.hooks)
			require.Error(t, err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestNewChainAcceptsHooksThatDeclareTheirPoints(t *testing.T) {
	chain, err := hooks.NewChain([]hooks.Hook{silent{}, hooks.Funcs{HookName: "empty"}, &hooks.Funcs{HookName: "ptr"}})
	require.NoError(t, err)
	assert.Len(t, chain.Hooks(), 3)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	step, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{Name: "x"})
	require.NoError(t, err)
	assert.False(t, step.Refused)
}

func TestNilAndZeroChainHaveNoHooks(t *testing.T) {
	var nilChain *hooks.Chain
	assert.Empty(t, nilChain.Hooks())
	run, err := nilChain.Start(context.Background(), hooks.Host{}, hooks.RunStart{RunID: "r1"})
	require.NoError(t, err)
	res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "echo", Arguments: map[string]any{"text": "hi"}}, echoTool(&recorder{}))
	require.NoError(t, err)
	assert.Equal(t, "hi", res.Text)
	assert.Equal(t, "r1", run.ID())

	run, err = (&hooks.Chain{}).Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	assert.Len(t, run.ID(), 16, "a run without an id gets a random one")
}

func TestOrderBeforeInListAfterReversed(t *testing.T) {
	rec := &recorder{}
	run := start(t, rec, layer(rec, "a"), layer(rec, "b"), layer(rec, "c"))
	_, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "echo"}, echoTool(rec))
	require.NoError(t, err)
	_, err = run.CallModel(context.Background(), hooks.ModelRequest{}, func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
		rec.add("model")
		return hooks.ModelResponse{Text: "ok"}, nil
	})
	require.NoError(t, err)
	run.End(context.Background(), hooks.RunEnd{})
	assert.Equal(t, []string{
		"a:beforeRun", "b:beforeRun", "c:beforeRun",
		"a:beforeTool", "b:beforeTool", "c:beforeTool", "tool:echo", "c:afterTool", "b:afterTool", "a:afterTool",
		"a:beforeModel", "b:beforeModel", "c:beforeModel", "model", "c:afterModel", "b:afterModel", "a:afterModel",
		"c:afterRun:completed", "b:afterRun:completed", "a:afterRun:completed",
	}, rec.got())
}

func TestInListOrder(t *testing.T) {
	rec := &recorder{}
	chain, err := hooks.NewChain([]hooks.Hook{layer(rec, "a"), layer(rec, "b")}, hooks.InListOrder())
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	_, err = run.CallTool(context.Background(), hooks.ToolCall{Name: "echo"}, echoTool(rec))
	require.NoError(t, err)
	run.End(context.Background(), hooks.RunEnd{})
	assert.Equal(t, []string{"a:beforeRun", "b:beforeRun", "a:beforeTool", "b:beforeTool", "tool:echo",
		"a:afterTool", "b:afterTool", "a:afterRun:completed", "b:afterRun:completed"}, rec.got())
}

func TestToolArgumentsMergeFieldWise(t *testing.T) {
	rec := &recorder{}
	rewrite := func(name string, args map[string]any) hooks.Funcs {
		return hooks.Funcs{HookName: name, BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			rec.add(name + " saw " + call.Arguments["text"].(string))
			if args == nil {
				return nil, nil
			}
			return &hooks.ToolCallPatch{Arguments: args}, nil
		}}
	}
	run := start(t, rec,
		rewrite("first", map[string]any{"text": "one"}),
		rewrite("keeps", nil),
		hooks.Funcs{HookName: "empty patch", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return &hooks.ToolCallPatch{}, nil
		}},
		rewrite("last", map[string]any{"text": "two"}),
		rewrite("sees", nil),
	)
	res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "echo", Arguments: map[string]any{"text": "zero"}}, echoTool(rec))
	require.NoError(t, err)
	assert.Equal(t, "two", res.Text, "the last writer wins")
	assert.Equal(t, []string{"first saw zero", "keeps saw one", "last saw one", "sees saw two", "tool:echo"}, rec.got())
}

func TestToolResultMergeFieldWise(t *testing.T) {
	rec := &recorder{}
	run := start(t, rec,
		hooks.Funcs{HookName: "outer", AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			rec.add("outer saw " + res.Text)
			return &hooks.ToolResultPatch{Value: 42}, nil
		}},
		hooks.Funcs{HookName: "inner", AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			return &hooks.ToolResultPatch{Text: ptr("[redacted]"), IsError: ptr(true)}, nil
		}},
	)
	res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "echo", Arguments: map[string]any{"text": "secret"}}, echoTool(rec))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "[redacted]", IsError: true, Value: 42}, res)
	assert.Equal(t, []string{"tool:echo", "outer saw [redacted]"}, rec.got())
}

func TestRefusalStopsEverything(t *testing.T) {
	for _, tc := range []struct {
		name   string
		refuse func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error)
		reason string
	}{
		{"allow false with reason", func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return hooks.Refuse("rm is not allowed"), nil
		}, "rm is not allowed"},
		{"allow false without reason", func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return &hooks.ToolCallPatch{Allow: ptr(false)}, nil
		}, "refused by hook guard"},
		{"ToolError", func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return nil, &hooks.ToolError{Message: "no network"}
		}, "no network"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			guard := hooks.Funcs{HookName: "guard", BeforeToolExecute: tc.refuse,
				AfterToolExecute: func(*hooks.Context, hooks.ToolCall, hooks.ToolResult) (*hooks.ToolResultPatch, error) {
					rec.add("guard:afterTool")
					return nil, nil
				}}
			run := start(t, rec, layer(rec, "outer"), guard, layer(rec, "later"))
			step, err := run.BeforeToolExecute(context.Background(), hooks.ToolCall{Name: "shell"})
			require.NoError(t, err)
			assert.True(t, step.Refused)
			assert.Equal(t, tc.reason, step.Reason)
			require.NotNil(t, step.Result)
			assert.Equal(t, hooks.ToolResult{Text: tc.reason, IsError: true}, *step.Result)

			res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "shell"}, echoTool(rec))
			require.NoError(t, err)
			assert.Equal(t, hooks.ToolResult{Text: tc.reason, IsError: true}, res)
			assert.Equal(t, []string{"outer:beforeRun", "later:beforeRun", "outer:beforeTool", "outer:beforeTool"}, rec.got(),
				"no later hook, no tool, no after-hook")
			assert.Empty(t, rec.diagnostics())
		})
	}
}

func TestToolErrorRefusesWhateverThePolicy(t *testing.T) {
	for _, p := range []hooks.Policy{hooks.FailRun, hooks.Report, hooks.Block} {
		rec := &recorder{}
		run := start(t, rec, hooks.WithPolicy(hooks.Funcs{HookName: "guard", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return nil, &hooks.ToolError{Message: "denied"}
		}}, p))
		res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "x"}, echoTool(rec))
		require.NoError(t, err, p.String())
		assert.Equal(t, hooks.ToolResult{Text: "denied", IsError: true}, res, p.String())
		assert.Empty(t, rec.got(), p.String())
	}
}

func TestResultAnswersAndEnteredLayersUnwind(t *testing.T) {
	rec := &recorder{}
	redact := hooks.Funcs{HookName: "redact", AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		rec.add("redact saw " + res.Text)
		return &hooks.ToolResultPatch{Text: ptr("[redacted]")}, nil
	}}
	cache := hooks.Funcs{HookName: "cache", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return &hooks.ToolCallPatch{Result: &hooks.ToolResult{Text: "cached secret"}}, nil
	}}
	run := start(t, rec, redact, layer(rec, "middle"), cache, layer(rec, "inner"))
	res, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "echo"}, echoTool(rec))
	require.NoError(t, err)
	assert.Equal(t, "[redacted]", res.Text)
	assert.Equal(t, []string{"middle:beforeRun", "inner:beforeRun", "middle:beforeTool", "middle:afterTool", "redact saw cached secret"}, rec.got(),
		"the inner layer is not entered, the tool does not run, entered layers unwind in reverse")
}

func TestZeroToolStepUnwindsEveryHook(t *testing.T) {
	rec := &recorder{}
	run := start(t, rec, layer(rec, "a"), layer(rec, "b"))
	res, err := run.AfterToolExecute(context.Background(), hooks.ToolStep{}, hooks.ToolResult{Text: "r"})
	require.NoError(t, err)
	assert.Equal(t, "r", res.Text)
	assert.Equal(t, []string{"a:beforeRun", "b:beforeRun", "b:afterTool", "a:afterTool"}, rec.got())
}

func TestOriginalCallSurvivesRewrites(t *testing.T) {
	rec := &recorder{}
	run := start(t, rec,
		hooks.Funcs{HookName: "audit", AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			orig, ok := c.OriginalCall()
			require.True(t, ok)
			rec.add("asked " + orig.Arguments["text"].(string) + ", ran " + call.Arguments["text"].(string))
			return nil, nil
		}},
		hooks.Funcs{HookName: "rewrite", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			return &hooks.ToolCallPatch{Arguments: map[string]any{"text": "safe"}}, nil
		}},
	)
	_, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "echo", Arguments: map[string]any{"text": "risky"}}, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		orig, ok := c.OriginalCall()
		assert.True(t, ok)
		assert.Equal(t, "risky", orig.Arguments["text"])
		return hooks.ToolResult{}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"asked risky, ran safe"}, rec.got())
}

func TestModelRequestEndAndRespondShortCircuit(t *testing.T) {
	rec := &recorder{}
	system := hooks.Funcs{HookName: "system", BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		return &hooks.ModelRequestPatch{System: ptr(req.System + " Be brief.")}, nil
	}}
	respond := hooks.Funcs{HookName: "respond", BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		if req.Messages[len(req.Messages)-1].Text == "stop" {
			return &hooks.ModelRequestPatch{End: &hooks.End{Output: "stopped"}, Respond: &hooks.ModelResponse{Text: "ignored"}}, nil
		}
		return &hooks.ModelRequestPatch{Respond: &hooks.ModelResponse{Text: "canned"}}, nil
	}}
	run := start(t, rec, layer(rec, "outer"), system, respond, layer(rec, "inner"))
	model := func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
		rec.add("model")
		return hooks.ModelResponse{}, nil
	}
	ctx := context.Background()

	step, err := run.BeforeModelRequest(ctx, hooks.ModelRequest{System: "You help.", Messages: []hooks.Message{{Role: "user", Text: "hi"}}})
	require.NoError(t, err)
	assert.Equal(t, "You help. Be brief.", step.Request.System)
	require.NotNil(t, step.Response)
	assert.Equal(t, "canned", step.Response.Text)
	assert.Nil(t, step.End)

	reply, err := run.CallModel(ctx, hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "hi"}}}, model)
	require.NoError(t, err)
	assert.Equal(t, "canned", reply.Response.Text)

	reply, err = run.CallModel(ctx, hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "stop"}}}, model)
	require.NoError(t, err)
	require.NotNil(t, reply.End, "End wins over Respond")
	assert.Equal(t, "stopped", reply.End.Output)

	assert.Equal(t, []string{"outer:beforeRun", "inner:beforeRun",
		"outer:beforeModel", // BeforeModelRequest alone
		"outer:beforeModel", "outer:afterModel",
		"outer:beforeModel"}, rec.got(), "no model call, the inner layer is never entered, End unwinds nothing")
	assert.Equal(t, 0, modelCalls(t, run))
}

// modelCalls reads the run's model-call count through a hookless context.
func modelCalls(t *testing.T, run *hooks.Run) int {
	t.Helper()
	var n int
	_, err := run.CallTool(context.Background(), hooks.ToolCall{Name: "count"}, func(c *hooks.Context, _ hooks.ToolCall) (hooks.ToolResult, error) {
		n = c.ModelCalls()
		return hooks.ToolResult{}, nil
	})
	require.NoError(t, err)
	return n
}

func TestAfterModelResponse(t *testing.T) {
	rec := &recorder{}
	var cont, end bool
	run := start(t, rec,
		hooks.Funcs{HookName: "ender", AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			rec.add("ender saw " + resp.Text)
			if end {
				return &hooks.ModelResponsePatch{End: &hooks.End{Output: "done"}}, nil
			}
			return nil, nil
		}},
		hooks.Funcs{HookName: "continuer", AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			if cont {
				return &hooks.ModelResponsePatch{Continue: ptr("keep going")}, nil
			}
			return nil, nil
		}},
		hooks.Funcs{HookName: "rewriter", AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			return &hooks.ModelResponsePatch{Text: ptr("rewritten " + resp.Text)}, nil
		}},
	)
	ctx := context.Background()

	reply, err := run.AfterModelResponse(ctx, hooks.ModelStep{}, hooks.ModelResponse{Text: "reply"})
	require.NoError(t, err)
	assert.Equal(t, "rewritten reply", reply.Response.Text)
	assert.Nil(t, reply.End)
	assert.Empty(t, reply.Continue)
	assert.Equal(t, []string{"ender saw rewritten reply"}, rec.got(), "the next hook sees the rewrite")

	cont = true
	reply, err = run.AfterModelResponse(ctx, hooks.ModelStep{}, hooks.ModelResponse{Text: "final"})
	require.NoError(t, err)
	assert.Equal(t, "keep going", reply.Continue)

	reply, err = run.AfterModelResponse(ctx, hooks.ModelStep{}, hooks.ModelResponse{Text: "calls", ToolCalls: []hooks.ToolCall{{Name: "ls"}}})
	require.NoError(t, err)
	assert.Empty(t, reply.Continue, "continue is dropped when the reply has tool calls")
	require.Len(t, rec.diagnostics(), 1)
	assert.Equal(t, "continuer", rec.diagnostics()[0].Hook)
	assert.Equal(t, hooks.AfterModelResponse, rec.diagnostics()[0].Point)

	end = true
	reply, err = run.AfterModelResponse(ctx, hooks.ModelStep{}, hooks.ModelResponse{Text: "final"})
	require.NoError(t, err)
	require.NotNil(t, reply.End)
	assert.Equal(t, "done", reply.End.Output)
	assert.Empty(t, reply.Continue, "End wins over Continue")
}

func TestModelCallsCountsRequestsLetThrough(t *testing.T) {
	rec := &recorder{}
	var seen []int
	run := start(t, rec, hooks.Funcs{HookName: "counter",
		BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			seen = append(seen, c.ModelCalls())
			if req.System == "cached" {
				return &hooks.ModelRequestPatch{Respond: &hooks.ModelResponse{Text: "cached"}}, nil
			}
			return nil, nil
		},
		AfterModelResponse: func(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			seen = append(seen, -c.ModelCalls())
			return nil, nil
		}})
	model := func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{}, nil
	}
	for _, sys := range []string{"", "cached", ""} {
		_, err := run.CallModel(context.Background(), hooks.ModelRequest{System: sys}, model)
		require.NoError(t, err)
	}
	assert.Equal(t, []int{0, -1, 1, -1, 1, -2}, seen)
}
