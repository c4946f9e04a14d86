package hooktest_test

import (
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fieldsPolicy forces the read_file tool, caps maxTokens at 256 and hides
// the reply's reasoning: in Go and in JavaScript, held by one set of
// fixtures.
var fieldsPolicy = hooks.Funcs{
	HookName: "fields",
	BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		s := hooks.ModelSettings{}
		if req.Settings != nil {
			s = *req.Settings
		}
		capped := 256
		if s.MaxTokens != nil && *s.MaxTokens < capped {
			capped = *s.MaxTokens
		}
		s.MaxTokens = &capped
		return &hooks.ModelRequestPatch{ToolChoice: &hooks.ToolChoice{Name: "read_file"}, Settings: &s}, nil
	},
	AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
		hidden := "[hidden]"
		return &hooks.ModelResponsePatch{Reasoning: &hidden}, nil
	},
}

const fieldsJS = `
exports.beforeModelRequest = (ctx, req) => ({
	toolChoice: { name: "read_file" },
	settings: { ...req.settings, maxTokens: Math.min((req.settings || {}).maxTokens || 256, 256) },
});
exports.afterModelResponse = () => ({ reasoning: "[hidden]" });`

func TestFixturesGiveAndCheckTheRequestFields(t *testing.T) {
	js, err := hooks.CompileJS("fields", fieldsJS, nil)
	require.NoError(t, err)
	for name, h := range map[string]hooks.Hook{"go": fieldsPolicy, "js": js} {
		t.Run(name, func(t *testing.T) {
			hooktest.RunFixtures(t, h, "testdata/fields")
		})
	}
}

func TestFixtureMismatchOfTheRequestFieldsIsListed(t *testing.T) {
	f := hooktest.Fixture{Name: "wrong", Point: hooks.BeforeModelRequest,
		Input: hooktest.FixtureInput{Request: &hooks.ModelRequest{Tools: []hooks.ToolSpec{{Name: "read_file"}}}},
		Expect: hooktest.FixtureExpect{ToolChoice: &hooks.ToolChoice{Mode: "none"},
			Settings: &hooks.ModelSettings{MaxTokens: ptr(10)}}}
	err := hooktest.Check(f, fieldsPolicy)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `want the tool choice {"mode":"none"}; the model got {"mode":"required","name":"read_file"}`)
	assert.Contains(t, err.Error(), `want the settings {"maxTokens":10}; the model got {"maxTokens":256}`)

	f = hooktest.Fixture{Name: "wrong", Point: hooks.AfterModelResponse,
		Input:  hooktest.FixtureInput{Response: &hooks.ModelResponse{Reasoning: "x"}},
		Expect: hooktest.FixtureExpect{Reasoning: ptr("x")}}
	assert.ErrorContains(t, hooktest.Check(f, fieldsPolicy), `want the reply's reasoning "x"; it is "[hidden]"`)
}

func TestHarnessRequiresTheRequestFields(t *testing.T) {
	h := hooktest.New(t, fieldsPolicy)
	o := h.Model(hooks.ModelRequest{Tools: []hooks.ToolSpec{{Name: "read_file"}}, Settings: &hooks.ModelSettings{MaxTokens: ptr(100)}},
		hooks.ModelResponse{Text: "ok", Reasoning: "thinking"})
	o.RequireToolChoice(t, hooks.ToolChoice{Mode: "required", Name: "read_file"})
	o.RequireSettings(t, hooks.ModelSettings{MaxTokens: ptr(100)})
	o.RequireReasoning(t, "[hidden]")
}
