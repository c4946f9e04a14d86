package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/examples/dialect/tiny"
)

// registerTiny registers the example dialect for one test, as a
// dialect_<name>.go file would for good.
func registerTiny(t *testing.T, detect func(path string, top, events map[string]json.RawMessage) bool) {
	t.Helper()
	register(&settingsDialect{kind: "tiny", name: "Tiny settings", dirs: []string{".tiny"}, events: []string{"beforeTool", "afterTool", "stop"},
		detect: detect,
		hooks: func(data []byte, names map[string]string, diag func(hooks.Diagnostic)) ([]hooks.Hook, error) {
			return tiny.Hooks(data, tiny.ToolNames(names), tiny.Diagnostics(diag))
		},
		checkNames: func(data []byte, tools []string, names map[string]string) ([]error, error) {
			return tiny.CheckToolNames(data, tools, tiny.ToolNames(names))
		}})
	t.Cleanup(func() { delete(settingsDialects, "tiny") })
}

// A dialect registered from its own file is a -kind, is detected by its
// events, then by its folder, and lint checks its names.
func TestARegisteredDialectIsAKindDetectedAndLinted(t *testing.T) {
	registerTiny(t, nil)
	k, err := parseKind("tiny")
	require.NoError(t, err)
	assert.Equal(t, kind("tiny"), k)
	assert.Contains(t, usageText(), "Tiny settings")
	assert.Contains(t, kindList(), "tiny")

	k, err = detectSettings([]byte(`{"hooks": {"beforeTool": []}}`))
	require.NoError(t, err)
	assert.Equal(t, kind("tiny"), k, "an event only it has")

	dir := filepath.Join(t.TempDir(), ".tiny")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	file := filepath.Join(dir, "hooks.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"hooks": {"SessionStart": []}}`), 0o644))
	k, err = detectSettingsAt(file, []byte(`{"hooks": {"SessionStart": []}}`))
	require.NoError(t, err)
	assert.Equal(t, kind("tiny"), k, "its folder, when no event tells")
	assert.Equal(t, filepath.Dir(dir), defaultWorkdir(file))

	k, err = detectSettingsAt(file, []byte(`{"hooks": {"BeforeTool": []}}`))
	require.NoError(t, err)
	assert.Equal(t, kindGemini, k, "an event only Gemini CLI has wins over the folder")

	require.NoError(t, os.WriteFile(file, []byte(`{"hooks": {"beforeTool": [{"matcher": "shel", "command": "true"}]}}`), 0o644))
	var out, errOut bytes.Buffer
	code := run([]string{"lint", "-tools", "shell", file}, strings.NewReader(""), &out, &errOut)
	assert.Equal(t, 1, code, out.String()+errOut.String())
	assert.Contains(t, out.String()+errOut.String(), `"shel" names no tool of this run (did you mean "shell"?)`)
}

// A dialect's own detect comes first.
func TestADialectsDetectComesFirst(t *testing.T) {
	registerTiny(t, func(_ string, top, _ map[string]json.RawMessage) bool { _, ok := top["tinyVersion"]; return ok })
	k, err := detectSettings([]byte(`{"tinyVersion": 1, "hooks": {"PreToolUse": []}}`))
	require.NoError(t, err)
	assert.Equal(t, kind("tiny"), k)
	k, err = detectSettings([]byte(`{"hooks": {"PreToolUse": []}}`))
	require.NoError(t, err)
	assert.Equal(t, kindClaude, k)
}
