package hooks_test

import (
	"context"
	"math"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// setter is a Go hook that answers BeforeModelRequest with p, and records
// the request it was given.
func setter(name string, p *hooks.ModelRequestPatch, seen *[]hooks.ModelRequest) hooks.Funcs {
	return hooks.Funcs{HookName: name, BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		if seen != nil {
			*seen = append(*seen, req)
		}
		return p, nil
	}}
}

var offered = []hooks.ToolSpec{{Name: "shell"}, {Name: "read_file"}}

func TestToolChoiceAndSettingsReplaceTheRequests(t *testing.T) {
	var seen []hooks.ModelRequest
	temp, maxTok := 0.2, 256
	first := setter("first", &hooks.ModelRequestPatch{
		ToolChoice: &hooks.ToolChoice{Name: "shell"},
		Settings:   &hooks.ModelSettings{Temperature: &temp, MaxTokens: &maxTok, Stop: []string{"END"}},
	}, nil)
	second := setter("second", nil, &seen)
	var events []hooks.TraceEvent
	chain, err := hooks.NewChain([]hooks.Hook{first, second}, hooks.WithTrace(func(e hooks.TraceEvent) { events = append(events, e) }))
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)

	host := &hooks.ModelSettings{Temperature: ptr(1.0)}
	step, err := run.BeforeModelRequest(context.Background(), hooks.ModelRequest{Tools: offered, Settings: host})
	require.NoError(t, err)
	want := &hooks.ToolChoice{Mode: hooks.ToolChoiceRequired, Name: "shell"}
	assert.Equal(t, want, step.Request.ToolChoice, "a Name alone is canonical: mode required")
	require.NotNil(t, step.Request.Settings)
	assert.Equal(t, 0.2, *step.Request.Settings.Temperature, "the patch's settings replace the host's, whole")
	assert.Equal(t, 256, *step.Request.Settings.MaxTokens)
	assert.Equal(t, 1.0, *host.Temperature, "the host's settings are not written")
	require.Len(t, seen, 1)
	assert.Equal(t, want, seen[0].ToolChoice, "a later hook sees an earlier one's tool choice")
	assert.Equal(t, step.Request.Settings, seen[0].Settings, "and its settings")

	temp, maxTok = 9, 9 // the hook changes its values after answering: nothing checked changes
	assert.Equal(t, 0.2, *step.Request.Settings.Temperature)
	assert.Equal(t, 256, *step.Request.Settings.MaxTokens)

	require.NotEmpty(t, events)
	assert.Equal(t, []string{"toolChoice", "settings"}, events[0].Changed)
}

func TestRequestFieldsThatCannotBeUnderstoodAreTheHooksError(t *testing.T) {
	nan, inf, neg := math.NaN(), math.Inf(1), -0.5
	zero, minus := 0, -1
	for name, tc := range map[string]struct {
		p     hooks.ModelRequestPatch
		tools []hooks.ToolSpec
	}{
		"mode in another case":          {p: hooks.ModelRequestPatch{ToolChoice: &hooks.ToolChoice{Mode: "Required"}}},
		"Gemini's ANY":                  {p: hooks.ModelRequestPatch{ToolChoice: &hooks.ToolChoice{Mode: "ANY"}}},
		"mode with a space":             {p: hooks.ModelRequestPatch{ToolChoice: &hooks.ToolChoice{Mode: "auto "}}},
		"empty tool choice":             {p: hooks.ModelRequestPatch{ToolChoice: &hooks.ToolChoice{}}},
		"name with none":                {p: hooks.ModelRequestPatch{ToolChoice: &hooks.ToolChoice{Mode: "none", Name: "shell"}}},
		"name with auto":                {p: hooks.ModelRequestPatch{ToolChoice: &hooks.ToolChoice{Mode: "auto", Name: "shell"}}},
		"name not offered":              {p: hooks.ModelRequestPatch{ToolChoice: &hooks.ToolChoice{Name: "write_file"}}},
		"name in another case":          {p: hooks.ModelRequestPatch{ToolChoice: &hooks.ToolChoice{Name: "Shell"}}},
		"name with a Cyrillic a":        {p: hooks.ModelRequestPatch{ToolChoice: &hooks.ToolChoice{Name: "re\u0430d_file"}}},
		"name with a trailing space":    {p: hooks.ModelRequestPatch{ToolChoice: &hooks.ToolChoice{Name: "shell "}}},
		"name not in the patch tools":   {p: hooks.ModelRequestPatch{Tools: []hooks.ToolSpec{{Name: "read_file"}}, ToolChoice: &hooks.ToolChoice{Name: "shell"}}},
		"required with no tools":        {p: hooks.ModelRequestPatch{Tools: []hooks.ToolSpec{}, ToolChoice: &hooks.ToolChoice{Mode: "required"}}},
		"NaN temperature":               {p: hooks.ModelRequestPatch{Settings: &hooks.ModelSettings{Temperature: &nan}}},
		"infinite temperature":          {p: hooks.ModelRequestPatch{Settings: &hooks.ModelSettings{Temperature: &inf}}},
		"negative temperature":          {p: hooks.ModelRequestPatch{Settings: &hooks.ModelSettings{Temperature: &neg}}},
		"NaN topP":                      {p: hooks.ModelRequestPatch{Settings: &hooks.ModelSettings{TopP: &nan}}},
		"topP above 1":                  {p: hooks.ModelRequestPatch{Settings: &hooks.ModelSettings{TopP: ptr(1.5)}}},
		"negative maxTokens":            {p: hooks.ModelRequestPatch{Settings: &hooks.ModelSettings{MaxTokens: &minus}}},
		"zero maxTokens":                {p: hooks.ModelRequestPatch{Settings: &hooks.ModelSettings{MaxTokens: &zero}}},
		"empty stop sequence":           {p: hooks.ModelRequestPatch{Settings: &hooks.ModelSettings{Stop: []string{"x", ""}}}},
		"provider NaN":                  {p: hooks.ModelRequestPatch{Settings: &hooks.ModelSettings{Provider: map[string]any{"seed": nan}}}},
		"name not UTF-8, tools unknown": {p: hooks.ModelRequestPatch{Tools: nil, ToolChoice: &hooks.ToolChoice{Name: "sh\xffell"}}},
		"stop not UTF-8":                {p: hooks.ModelRequestPatch{Settings: &hooks.ModelSettings{Stop: []string{"\xfe"}}}},
		"provider holding a channel":    {p: hooks.ModelRequestPatch{Settings: &hooks.ModelSettings{Provider: map[string]any{"c": make(chan int)}}}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Run("FailRun", func(t *testing.T) {
				run := start(t, &recorder{}, setter("bad", &tc.p, nil))
				step, err := run.BeforeModelRequest(context.Background(), hooks.ModelRequest{Tools: offered})
				require.Error(t, err)
				var he *hooks.HookError
				require.ErrorAs(t, err, &he)
				assert.Equal(t, "bad", he.Hook)
				assert.Equal(t, hooks.BeforeModelRequest, he.Point)
				assert.Nil(t, step.Request.ToolChoice, "nothing of the patch applies")
				assert.Nil(t, step.Request.Settings)
				assert.Equal(t, offered, step.Request.Tools)
			})
			t.Run("Report", func(t *testing.T) {
				rec := &recorder{}
				var seen []hooks.ModelRequest
				run := start(t, rec, hooks.WithPolicy(setter("bad", &tc.p, nil), hooks.Report), setter("next", nil, &seen))
				step, err := run.BeforeModelRequest(context.Background(), hooks.ModelRequest{Tools: offered})
				require.NoError(t, err)
				assert.Nil(t, step.Request.ToolChoice, "never passed on")
				assert.Nil(t, step.Request.Settings)
				require.Len(t, seen, 1)
				assert.Nil(t, seen[0].ToolChoice)
				ds := rec.diagnostics()
				require.Len(t, ds, 1)
				assert.Equal(t, "bad", ds[0].Hook)
			})
		})
	}
}

func TestValidRequestFieldsPass(t *testing.T) {
	for name, p := range map[string]hooks.ModelRequestPatch{
		"auto":                        {ToolChoice: &hooks.ToolChoice{Mode: "auto"}},
		"none":                        {ToolChoice: &hooks.ToolChoice{Mode: "none"}},
		"required":                    {ToolChoice: &hooks.ToolChoice{Mode: "required"}},
		"required and named":          {ToolChoice: &hooks.ToolChoice{Mode: "required", Name: "read_file"}},
		"named in the patch's tools":  {Tools: []hooks.ToolSpec{{Name: "grep"}}, ToolChoice: &hooks.ToolChoice{Name: "grep"}},
		"none with no tools":          {Tools: []hooks.ToolSpec{}, ToolChoice: &hooks.ToolChoice{Mode: "none"}},
		"zero temperature and topP 1": {Settings: &hooks.ModelSettings{Temperature: ptr(0.0), TopP: ptr(1.0), MaxTokens: ptr(1)}},
		"provider options":            {Settings: &hooks.ModelSettings{Provider: map[string]any{"seed": 7.0, "reasoning": map[string]any{"effort": "low"}}}},
	} {
		t.Run(name, func(t *testing.T) {
			run := start(t, &recorder{}, setter("ok", &p, nil))
			step, err := run.BeforeModelRequest(context.Background(), hooks.ModelRequest{Tools: offered})
			require.NoError(t, err)
			if p.ToolChoice != nil {
				require.NotNil(t, step.Request.ToolChoice)
				assert.Equal(t, p.ToolChoice.Name, step.Request.ToolChoice.Name)
			}
			if p.Settings != nil {
				assert.Equal(t, p.Settings, step.Request.Settings)
			}
		})
	}
	t.Run("a name when the tools are unknown", func(t *testing.T) {
		run := start(t, &recorder{}, setter("ok", &hooks.ModelRequestPatch{ToolChoice: &hooks.ToolChoice{Name: "anything"}}, nil))
		step, err := run.BeforeModelRequest(context.Background(), hooks.ModelRequest{})
		require.NoError(t, err)
		assert.Equal(t, "anything", step.Request.ToolChoice.Name)
	})
}

// A hook that narrows the tools after another chose one of them leaves a
// request no provider can honour: the call fails, naming the narrowing
// hook, whatever its policy (dropping its narrowing would disarm a guard).
func TestNarrowingTheToolsAwayFromTheChosenOneFailsTheCall(t *testing.T) {
	for _, order := range []string{"hook chose", "host chose"} {
		t.Run(order, func(t *testing.T) {
			req := hooks.ModelRequest{Tools: offered}
			var hs []hooks.Hook
			if order == "hook chose" {
				hs = append(hs, setter("force", &hooks.ModelRequestPatch{ToolChoice: &hooks.ToolChoice{Name: "shell"}}, nil))
			} else {
				req.ToolChoice = &hooks.ToolChoice{Mode: "required", Name: "shell"}
			}
			narrow := setter("narrow", &hooks.ModelRequestPatch{Tools: []hooks.ToolSpec{{Name: "read_file"}}}, nil)
			hs = append(hs, hooks.WithPolicy(narrow, hooks.Report))
			run := start(t, &recorder{}, hs...)
			_, err := run.BeforeModelRequest(context.Background(), req)
			var he *hooks.HookError
			require.ErrorAs(t, err, &he)
			assert.Equal(t, "narrow", he.Hook)
			assert.ErrorContains(t, err, `"shell"`)
		})
	}
	t.Run("narrowing that keeps the chosen tool", func(t *testing.T) {
		force := setter("force", &hooks.ModelRequestPatch{ToolChoice: &hooks.ToolChoice{Name: "shell"}}, nil)
		narrow := setter("narrow", &hooks.ModelRequestPatch{Tools: []hooks.ToolSpec{{Name: "shell"}}}, nil)
		run := start(t, &recorder{}, force, narrow)
		step, err := run.BeforeModelRequest(context.Background(), hooks.ModelRequest{Tools: offered})
		require.NoError(t, err)
		assert.Equal(t, "shell", step.Request.ToolChoice.Name)
	})
	t.Run("a hook that ends the run with a bad value still ends it", func(t *testing.T) {
		rec := &recorder{}
		end := setter("end", &hooks.ModelRequestPatch{End: &hooks.End{Output: "stop"}, ToolChoice: &hooks.ToolChoice{Mode: "ANY"}}, nil)
		run := start(t, rec, hooks.WithPolicy(end, hooks.Report))
		step, err := run.BeforeModelRequest(context.Background(), hooks.ModelRequest{Tools: offered})
		require.NoError(t, err)
		require.NotNil(t, step.End, "a refusal never becomes a call by a bad field beside it")
		assert.Nil(t, step.Request.ToolChoice)
		assert.Len(t, rec.diagnostics(), 1)
	})
}

func TestReasoningPatchRewritesTheReply(t *testing.T) {
	var seen []string
	drop := hooks.Funcs{HookName: "drop", AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		seen = append(seen, resp.Reasoning)
		return nil, nil
	}}
	rewrite := hooks.Funcs{HookName: "rewrite", AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		out := "[thinking hidden]"
		return &hooks.ModelResponsePatch{Reasoning: &out}, nil
	}}
	var events []hooks.TraceEvent
	chain, err := hooks.NewChain([]hooks.Hook{drop, rewrite}, hooks.WithTrace(func(e hooks.TraceEvent) { events = append(events, e) }))
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	step, err := run.BeforeModelRequest(context.Background(), hooks.ModelRequest{})
	require.NoError(t, err)
	reply, err := run.AfterModelResponse(context.Background(), step, hooks.ModelResponse{Text: "hi", Reasoning: "secret plan"})
	require.NoError(t, err)
	assert.Equal(t, "[thinking hidden]", reply.Response.Reasoning)
	assert.Equal(t, []string{"[thinking hidden]"}, seen, "after-hooks run in reverse order: drop sees rewrite's")
	var changed []string
	for _, e := range events {
		if e.Hook == "rewrite" {
			changed = e.Changed
		}
	}
	assert.Equal(t, []string{"reasoning"}, changed)

	empty := ""
	dropAll := hooks.Funcs{HookName: "dropAll", AfterModelResponse: func(*hooks.Context, hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		return &hooks.ModelResponsePatch{Reasoning: &empty}, nil
	}}
	run = start(t, &recorder{}, dropAll)
	reply, err = run.AfterModelResponse(context.Background(), hooks.ModelStep{}, hooks.ModelResponse{Text: "hi", Reasoning: "plan"})
	require.NoError(t, err)
	assert.Empty(t, reply.Response.Reasoning, `"" drops it`)
	assert.Equal(t, "hi", reply.Response.Text)
}
