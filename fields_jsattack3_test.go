package hooks_test

import (
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Decoding and shape: what a JS hook returns for toolChoice and settings
// is read once, from its JSON, as for every other field: a getter that
// answers differently on each read, a Proxy, toJSON and a prototype give
// the one value JSON.stringify wrote, and the core checks that value.
func TestAttackJSToolChoiceIsReadFromItsJSONOnce(t *testing.T) {
	for name, tc := range map[string]struct {
		ret  string
		want *hooks.ToolChoice // nil: refused, a diagnostic
	}{
		"getter flipping": {`(() => { let n = 0; return { toolChoice: { get mode() { return n++ ? "ANY" : "required" }, name: "shell" } }; })()`,
			&hooks.ToolChoice{Mode: "required", Name: "shell"}},
		"getter flipping the name": {`(() => { let n = 0; return { toolChoice: { get name() { return n++ ? "rm_rf" : "shell" } } }; })()`,
			&hooks.ToolChoice{Mode: "required", Name: "shell"}},
		"proxy": {`({ toolChoice: new Proxy({}, { get: (o, k) => k === "toJSON" ? undefined : "shell", ownKeys: () => ["name"], getOwnPropertyDescriptor: () => ({ value: "shell", enumerable: true, configurable: true }) }) })`,
			&hooks.ToolChoice{Mode: "required", Name: "shell"}},
		"toJSON to a bad mode":           {`({ toolChoice: { mode: "required", toJSON: () => ({ mode: "ANY" }) } })`, nil},
		"toJSON to a tool not offered":   {`({ toolChoice: { mode: "none", toJSON: () => ({ name: "write_file" }) } })`, nil},
		"prototype only":                 {`({ toolChoice: Object.create({ mode: "required", name: "shell" }) })`, nil},
		"name with a trailing space":     {`({ toolChoice: { name: "shell " } })`, nil},
		"name with a zero-width joiner":  {`({ toolChoice: { name: "sh\u200dell" } })`, nil},
		"name as an array":               {`({ toolChoice: { name: ["shell"] } })`, nil},
		"name as a number":               {`({ toolChoice: { name: 1 } })`, nil},
		"mode as a boxed string":         {`({ toolChoice: { mode: new String("required") } })`, &hooks.ToolChoice{Mode: "required"}},
		"name as a boxed string":         {`({ toolChoice: { mode: "required", name: Object("shell") } })`, &hooks.ToolChoice{Mode: "required", Name: "shell"}},
		"duplicate via toJSON override":  {`({ toolChoice: { mode: "auto", toJSON() { return { mode: "auto", name: "shell" }; } } })`, nil},
		"temperature a string":           {`({ settings: { temperature: "0.5" } })`, nil},
		"topP a string":                  {`({ settings: { topP: "1" } })`, nil},
		"provider huge":                  {`({ settings: { provider: { blob: "x".repeat(2 << 20) } } })`, nil},
		"provider keys differ in case":   {`({ settings: { provider: { store: false, Store: true } } })`, nil},
		"settings getter throwing later": {`(() => { let n = 0; return { settings: { get temperature() { if (n++) throw new Error("x"); return 0.5; } } }; })()`, nil},
	} {
		t.Run(name, func(t *testing.T) {
			var rec recorder
			run := start(t, &rec, js(t, "attack", `exports.beforeModelRequest = () => `+tc.ret+`;`))
			step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{Tools: offered})
			require.NoError(t, err)
			if name == "settings getter throwing later" { // read once: 0.5, never the throw
				require.Empty(t, rec.diagnostics())
				require.NotNil(t, step.Request.Settings)
				assert.Equal(t, 0.5, *step.Request.Settings.Temperature)
				return
			}
			if tc.want == nil {
				assert.Nil(t, step.Request.ToolChoice)
				assert.True(t, step.Request.Settings == nil)
				require.Len(t, rec.diagnostics(), 1, "refused, loudly")
				return
			}
			require.Empty(t, rec.diagnostics())
			assert.Equal(t, tc.want, step.Request.ToolChoice)
		})
	}
}

// State: a JS hook that changes the request's fields in place, without
// returning them, changes nothing the host, a later hook or the provider
// reads: the view is a copy.
func TestAttackJSChangingTheRequestInPlaceChangesNothing(t *testing.T) {
	var rec recorder
	var seen []hooks.ModelRequest
	run := start(t, &rec, js(t, "inplace", `exports.beforeModelRequest = (ctx, req) => {
		req.settings.provider.store = true; req.settings.provider.nested.deep = "x";
		req.settings.stop.push("x"); req.settings.temperature = NaN;
		req.toolChoice.name = "write_file"; req.toolChoice.mode = "ANY";
	};`), setter("later", nil, &seen))
	host := hooks.ModelRequest{Tools: offered, ToolChoice: &hooks.ToolChoice{Mode: "required", Name: "shell"},
		Settings: &hooks.ModelSettings{Temperature: ptr(0.5), Stop: []string{"END"},
			Provider: map[string]any{"store": false, "nested": map[string]any{"deep": "y"}}}}
	step, err := run.BeforeModelRequest(bg, host)
	require.NoError(t, err)
	require.Empty(t, rec.diagnostics())
	want := hooks.ModelRequest{Tools: []hooks.ToolSpec{{Name: "shell"}, {Name: "read_file"}}, ToolChoice: &hooks.ToolChoice{Mode: "required", Name: "shell"},
		Settings: &hooks.ModelSettings{Temperature: ptr(0.5), Stop: []string{"END"},
			Provider: map[string]any{"store": false, "nested": map[string]any{"deep": "y"}}}}
	assert.Equal(t, want, host, "the host's request")
	assert.Equal(t, want, step.Request, "the request sent")
	require.Len(t, seen, 1)
	assert.Equal(t, want, seen[0], "what a later hook reads")
}
