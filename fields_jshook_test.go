package hooks_test

import (
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJSSeesAndSetsToolChoiceAndSettings(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "fields", `
		exports.beforeModelRequest = (ctx, req) => {
			const s = req.settings || {};
			return {
				system: JSON.stringify({tc: req.toolChoice, s: req.settings}),
				toolChoice: { mode: "required", name: req.tools[1].name },
				settings: { ...s, maxTokens: Math.min(s.maxTokens || 4096, 100), stop: ["END"], provider: { seed: 7 } },
			};
		};`))
	req := hooks.ModelRequest{Tools: offered, ToolChoice: &hooks.ToolChoice{Mode: "auto"},
		Settings: &hooks.ModelSettings{Temperature: ptr(0.5), MaxTokens: ptr(2000)}}
	step, err := run.BeforeModelRequest(bg, req)
	require.NoError(t, err)
	require.Empty(t, rec.diagnostics())
	assert.JSONEq(t, `{"tc":{"mode":"auto","name":""},"s":{"temperature":0.5,"maxTokens":2000}}`, step.Request.System)
	assert.Equal(t, &hooks.ToolChoice{Mode: "required", Name: "read_file"}, step.Request.ToolChoice)
	require.NotNil(t, step.Request.Settings)
	assert.Equal(t, 0.5, *step.Request.Settings.Temperature, "what the hook spread in is kept")
	assert.Equal(t, 100, *step.Request.Settings.MaxTokens)
	assert.Equal(t, []string{"END"}, step.Request.Settings.Stop)
	assert.Equal(t, map[string]any{"seed": float64(7)}, step.Request.Settings.Provider)
	assert.Equal(t, 2000, *req.Settings.MaxTokens, "the host's settings are not written")

	run = start(t, &rec, js(t, "none", `exports.beforeModelRequest = (ctx, req) => ({ system: String(req.toolChoice) + " " + String(req.settings) });`))
	step, err = run.BeforeModelRequest(bg, hooks.ModelRequest{})
	require.NoError(t, err)
	assert.Equal(t, "null null", step.Request.System, "absent fields are null")
}

// What a JS hook returns that cannot be understood is its error (a
// diagnostic under its Report policy), and nothing of it reaches the
// request: misspelt names, wrong types, values the core refuses.
func TestJSBadToolChoiceAndSettingsAreRefused(t *testing.T) {
	for name, tc := range map[string]struct{ ret, want string }{
		"Name misspelt":            {`{ toolChoice: { mode: "required", Name: "shell" } }`, `did you mean "name"`},
		"mode misspelt":            {`{ toolChoice: { Mode: "required" } }`, `did you mean "mode"`},
		"unknown key":              {`{ toolChoice: { type: "tool", name: "shell" } }`, `toolChoice.type`},
		"a string":                 {`{ toolChoice: "required" }`, "want an object"},
		"mode ANY":                 {`{ toolChoice: { mode: "ANY" } }`, `"ANY"`},
		"name not offered":         {`{ toolChoice: { name: "Shell" } }`, `"Shell"`},
		"cyrillic look-alike":      {`{ toolChoice: { name: "she\u04cfl" } }`, "does not offer"},
		"name with none":           {`{ toolChoice: { mode: "none", name: "shell" } }`, "none"},
		"max_tokens":               {`{ settings: { max_tokens: 5 } }`, `settings.max_tokens`},
		"MaxTokens":                {`{ settings: { MaxTokens: 5 } }`, `did you mean "maxTokens"`},
		"maxTokens string":         {`{ settings: { maxTokens: "100" } }`, "want a number"},
		"maxTokens fraction":       {`{ settings: { maxTokens: 1.5 } }`, "whole number"},
		"maxTokens negative":       {`{ settings: { maxTokens: -1 } }`, "at least 1"},
		"maxTokens huge":           {`{ settings: { maxTokens: 2 ** 60 } }`, "whole number"},
		"temperature negative":     {`{ settings: { temperature: -1 } }`, "negative"},
		"topP above one":           {`{ settings: { topP: 2 } }`, "at most 1"},
		"stop a string":            {`{ settings: { stop: "END" } }`, "array of strings"},
		"stop holding a number":    {`{ settings: { stop: ["a", 1] } }`, "stop[1]"},
		"provider an array":        {`{ settings: { provider: [1] } }`, "provider options"},
		"settings an array":        {`{ settings: [] }`, "want an object"},
		"reasoning set before req": {`{ toolChoice: { mode: "required" }, tools: [] }`, "offers no tools"},
	} {
		t.Run(name, func(t *testing.T) {
			var rec recorder
			run := start(t, &rec, js(t, "bad", `exports.beforeModelRequest = () => (`+tc.ret+`);`))
			step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{Tools: offered})
			require.NoError(t, err, "a JS hook's error is reported")
			assert.Nil(t, step.Request.ToolChoice)
			assert.Nil(t, step.Request.Settings)
			assert.Equal(t, offered, step.Request.Tools, "nothing of the answer applies")
			ds := rec.diagnostics()
			require.Len(t, ds, 1)
			assert.Equal(t, "bad", ds[0].Hook)
			assert.Equal(t, hooks.BeforeModelRequest, ds[0].Point)
			assert.Contains(t, ds[0].Err.Error(), tc.want)
		})
	}
	t.Run("a misspelt top-level field is a diagnostic with a hint", func(t *testing.T) {
		var rec recorder
		run := start(t, &rec, js(t, "typo", `exports.beforeModelRequest = () => ({ toolchoice: { mode: "none" } });`))
		step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{})
		require.NoError(t, err)
		assert.Nil(t, step.Request.ToolChoice)
		require.Len(t, rec.diagnostics(), 1)
		assert.Contains(t, rec.diagnostics()[0].Err.Error(), `did you mean "toolChoice"`)
	})
}

func TestJSSeesAndRewritesReasoning(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "think", `
		exports.afterModelResponse = (ctx, resp) => {
			if (resp.reasoning.includes("drop")) return { reasoning: "" };
			return { reasoning: resp.reasoning.replace(/\d+/g, "#"), text: resp.text + " (" + resp.reasoning.length + ")" };
		};`))
	model := func(reasoning string) hooks.ModelFunc {
		return func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
			return hooks.ModelResponse{Text: "hi", Reasoning: reasoning}, nil
		}
	}
	reply, err := run.CallModel(bg, hooks.ModelRequest{}, model("pin 1234"))
	require.NoError(t, err)
	assert.Equal(t, "pin #", reply.Response.Reasoning)
	assert.Equal(t, "hi (8)", reply.Response.Text)

	reply, err = run.CallModel(bg, hooks.ModelRequest{}, model("please drop this"))
	require.NoError(t, err)
	assert.Empty(t, reply.Response.Reasoning)

	long := make([]byte, 10000) // past the length from which it is made on first read
	for i := range long {
		long[i] = 'a'
	}
	reply, err = run.CallModel(bg, hooks.ModelRequest{}, model(string(long)+"7"))
	require.NoError(t, err)
	assert.Equal(t, string(long)+"#", reply.Response.Reasoning)
	assert.Equal(t, "hi (10001)", reply.Response.Text)
	assert.Empty(t, rec.diagnostics())

	run = start(t, &rec, js(t, "respond", `exports.beforeModelRequest = () => ({ respond: { text: "cached", reasoning: "from cache" } });`))
	reply, err = run.CallModel(bg, hooks.ModelRequest{}, model("unused"))
	require.NoError(t, err)
	assert.Equal(t, "from cache", reply.Response.Reasoning, "a Respond carries reasoning")

	run = start(t, &rec, js(t, "typo", `exports.afterModelResponse = () => ({ Reasoning: "" });`))
	reply, err = run.CallModel(bg, hooks.ModelRequest{}, model("kept"))
	require.NoError(t, err)
	assert.Equal(t, "kept", reply.Response.Reasoning)
	ds := rec.diagnostics()
	require.NotEmpty(t, ds)
	assert.Contains(t, ds[len(ds)-1].Err.Error(), `did you mean "reasoning"`)
}
