package hooks_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A turn_start command reads the request's tool choice and settings on
// stdin, and a turn_end command the reply's reasoning (cut past 64 KiB,
// with truncated).
func TestCommandEnvelopeCarriesTheRequestFieldsAndReasoning(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "envelope.json")
	var rec recorder
	run := startWith(t, &rec, hooks.Host{Workdir: dir}, commandHooks(t,
		entry("turn_start", script(t, "save.sh"), out+".start"),
		entry("turn_end", script(t, "save.sh"), out+".end"))...)
	req := hooks.ModelRequest{Tools: offered, ToolChoice: &hooks.ToolChoice{Mode: "required", Name: "shell"},
		Settings: &hooks.ModelSettings{Temperature: ptr(0.3), MaxTokens: ptr(64), Stop: []string{"END"}, Provider: map[string]any{"seed": 1}}}
	long := strings.Repeat("é", 40000) // 80,000 bytes
	_, err := run.CallModel(bg, req, func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Text: "ok", Reasoning: long}, nil
	})
	require.NoError(t, err)
	require.Empty(t, rec.diagnostics())

	read := func(path string) map[string]any {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.Unmarshal(data, &m))
		return m
	}
	start := read(out + ".start")
	assert.Equal(t, map[string]any{"mode": "required", "name": "shell"}, start["toolChoice"])
	assert.Equal(t, map[string]any{"temperature": 0.3, "maxTokens": 64.0, "stop": []any{"END"}, "provider": map[string]any{"seed": 1.0}}, start["settings"])
	assert.NotContains(t, start, "reasoning")

	end := read(out + ".end")
	reasoning, _ := end["reasoning"].(string)
	assert.Equal(t, true, end["truncated"])
	assert.LessOrEqual(t, len(reasoning), 64<<10)
	assert.True(t, strings.HasPrefix(long, reasoning), "cut at a character boundary")
	assert.NotContains(t, end, "toolChoice")

	// None set: the fields are absent.
	_, err = run.CallModel(bg, hooks.ModelRequest{}, func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Text: "ok"}, nil
	})
	require.NoError(t, err)
	start = read(out + ".start")
	assert.NotContains(t, start, "toolChoice")
	assert.NotContains(t, start, "settings")
	assert.NotContains(t, read(out+".end"), "reasoning")
}
