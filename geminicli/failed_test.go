package geminicli_test

import (
	"encoding/json"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/geminicli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A hook that exits non-zero decides as Gemini CLI decides (exit 2
// denies, exit 1 warns and lets the call go on), and, as Gemini CLI shows
// "Hook(s) [name] failed for event X", says it failed: a diagnostic naming
// the handler, its exit and stderr, and a notice to the person.
func TestNonZeroExitIsReportedAsAFailure(t *testing.T) {
	for _, tc := range []struct {
		code    string
		refused bool
	}{{"2", true}, {"1", false}, {"3", true}} {
		t.Run("exit "+tc.code, func(t *testing.T) {
			var rec recorder
			guard := handler(emit(t, "", tc.code, "no .env writes"))
			guard["name"] = "env-guard"
			run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"BeforeTool": {group("write_file", guard)}}), toolNames)
			tl := &tool{text: "written"}
			res, err := run.CallTool(bg, write("x"), tl.run)
			require.NoError(t, err)
			assert.Equal(t, tc.refused, res.IsError, res.Text)
			assert.Equal(t, tc.refused, len(tl.ran()) == 0)
			require.Len(t, rec.errors(), 1, "%q", rec.errors())
			assert.Contains(t, rec.errors()[0], "Gemini CLI hook BeforeTool[0].hooks[0]")
			assert.Contains(t, rec.errors()[0], "failed for event BeforeTool: exit status "+tc.code+": no .env writes")
			assert.Contains(t, rec.shown(), "Hook(s) [env-guard] failed for event BeforeTool.")
		})
	}
	var rec recorder
	run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{"BeforeTool": {group("write_file", handler(emit(t, "", "0", "")))}}), toolNames)
	_, err := run.CallTool(bg, write("x"), (&tool{}).run)
	require.NoError(t, err)
	assert.Empty(t, rec.errors(), "exit 0 is no failure")
	assert.Empty(t, rec.shown())
}

// A top-level key that is a typo of one Gemini CLI reads ("hookConfig"
// for "hooksConfig") is not read, as Gemini CLI does not read it, and
// says so with a did-you-mean: a hooks switch the user believes is off
// is loud, not silently on. So is tools.enableHooks, the switch of older
// Gemini CLI releases, when it says false.
func TestSettingsKeysThatLookLikeGeminiCLIsAreDiagnosed(t *testing.T) {
	for _, tc := range []struct {
		top  map[string]any
		want string
	}{
		{map[string]any{"hookConfig": map[string]any{"enabled": false}}, `"hookConfig": not read; did you mean "hooksConfig"?`},
		{map[string]any{"HooksConfig": map[string]any{"enabled": false}}, `"HooksConfig": not read; did you mean "hooksConfig"?`},
		{map[string]any{"hook": map[string]any{}}, `"hook": not read; did you mean "hooks"?`},
		{map[string]any{"tools": map[string]any{"enableHooks": false}}, `tools.enableHooks: false is not read`},
	} {
		data := map[string]any{"hooks": map[string]any{"BeforeTool": []map[string]any{group("write_file", handler("true"))}}}
		for k, v := range tc.top {
			data[k] = v
		}
		raw, err := json.Marshal(data)
		require.NoError(t, err)
		var diags []string
		hs, err := geminicli.Hooks(raw, geminicli.Diagnostics(func(d hooks.Diagnostic) { diags = append(diags, d.Err.Error()) }))
		require.NoError(t, err)
		assert.NotEmpty(t, hs, "the hooks still load, as Gemini CLI loads them")
		if assert.Len(t, diags, 1, "%v", tc.top) {
			assert.Contains(t, diags[0], tc.want)
		}
	}
}
