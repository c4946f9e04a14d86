package geminicli_test

import (
	"encoding/json"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/geminicli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A BeforeTool guard whose matcher names the tool in another case
// ("Write_File", "WRITE_FILE") still guards: it runs for write_file, as
// meant, with a diagnostic once; its load says so too. A matcher that is
// a typo of the tool ("write-file") does not run (a typo may name another
// tool) but says, at load and at the call, which tool it missed.
func TestGeminiMatcherNamesThatMissTheTool(t *testing.T) {
	for _, tc := range []struct {
		matcher   string
		refused   bool
		load, run string
	}{
		{"Write_File", true, `"Write_File" does not match the tool "write_file" as written`, `"Write_File" does not match the tool "write_file" as written`},
		{"WRITE", true, `"WRITE" does not match the tool "write_file" as written`, `"WRITE" does not match the tool "write_file" as written`},
		{"write-file", false, `"write-file" matches no Gemini CLI tool and no tool of ToolNames (did you mean "write_file"?)`,
			`"write-file" does not match the tool "write_file" (did you mean "write_file"?): its hooks did not run for it`},
	} {
		t.Run(tc.matcher, func(t *testing.T) {
			var load []string
			hs, err := geminicli.Hooks(settings(t, map[string][]map[string]any{"BeforeTool": {group(tc.matcher, handler(emit(t, `{"decision":"deny","reason":"no .env"}`, "0", "")))}}),
				toolNames, geminicli.Diagnostics(func(d hooks.Diagnostic) { load = append(load, d.Err.Error()) }))
			require.NoError(t, err)
			if assert.Len(t, load, 1) {
				assert.Contains(t, load[0], tc.load)
			}
			var rec recorder
			chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose))
			require.NoError(t, err)
			run, err := chain.Start(bg, host(t, &rec), hooks.RunStart{})
			require.NoError(t, err)
			defer run.End(bg, hooks.RunEnd{})
			tl := &tool{text: "written"}
			for range 2 {
				res, err := run.CallTool(bg, write("KEY=1"), tl.run)
				require.NoError(t, err)
				assert.Equal(t, tc.refused, res.IsError, res.Text)
			}
			if assert.Len(t, rec.errors(), 1, "once: %q", rec.errors()) {
				assert.Contains(t, rec.errors()[0], tc.run)
			}
		})
	}
}

// At the first model request that lists the run's tools, a tool matcher
// that takes none of them, a name of a '|' list that takes none of them
// ("replace" of "write_file|replace"), and a ToolNames key that is none
// of them, is a diagnostic with a did-you-mean, once per settings set.
func TestGeminiNamesThatMatchNoToolOfTheRunAreDiagnosed(t *testing.T) {
	var rec recorder
	run := start(t, &rec, host(t, &rec), settings(t, map[string][]map[string]any{
		"BeforeTool": {group("write-file", handler("true")), group("^deploy$", handler("true")), group("write_file|replace", handler("true"))},
		"AfterTool":  {group("run_shell_command", handler("true"))},
	}), geminicli.ToolNames(map[string]string{"write": "write_file", "shel": "run_shell_command"}), geminicli.Diagnostics(func(hooks.Diagnostic) {}))
	req := hooks.ModelRequest{Tools: []hooks.ToolSpec{{Name: "write"}, {Name: "shell"}}, Messages: []hooks.Message{{Role: "user", Text: "go"}}}
	for range 2 {
		_, err := run.BeforeModelRequest(bg, req)
		require.NoError(t, err)
	}
	got := rec.errors()
	require.Len(t, got, 5, "%q", got)
	assert.Contains(t, got[0], `hooks.BeforeTool[0].matcher: "write-file" matches no tool of this run (did you mean "write_file"?), so its hooks never run; the tools are write, write_file, shell`)
	assert.Contains(t, got[1], `hooks.BeforeTool[1].matcher: "^deploy$" matches no tool of this run`)
	assert.Contains(t, got[2], `hooks.BeforeTool[2].matcher: "replace" of "write_file|replace" matches no tool of this run`)
	assert.Contains(t, got[3], `hooks.AfterTool[0].matcher: "run_shell_command" matches no tool of this run`)
	assert.Contains(t, got[4], `ToolNames: "shel" is no tool of this run (did you mean "shell"?)`)
}

// CheckToolNames makes the run's check on a settings file, for a linter.
func TestGeminiCheckToolNames(t *testing.T) {
	data, err := json.Marshal(map[string]any{"hooks": map[string]any{
		"BeforeTool":   []map[string]any{group("write-file", handler("true")), group("Write_File", handler("true")), group("write_file", handler("true"))},
		"SessionStart": []map[string]any{group("startup", handler("true"))},
	}})
	require.NoError(t, err)
	problems, err := geminicli.CheckToolNames(data, []string{"write_file", "shell"})
	require.NoError(t, err)
	require.Len(t, problems, 2, "%v", problems)
	assert.Contains(t, problems[0].Error(), `hooks.BeforeTool[0].matcher: "write-file" matches no tool of this run (did you mean "write_file"?)`)
	assert.Contains(t, problems[1].Error(), `hooks.BeforeTool[1].matcher: "Write_File" takes the tool "write_file" only when case is set aside`)

	_, err = geminicli.CheckToolNames([]byte(`[]`), nil)
	assert.Error(t, err)
}
