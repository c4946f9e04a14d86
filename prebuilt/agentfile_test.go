package prebuilt_test

import (
	"os"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// TestAgentFileEntriesBuildWithFromSpec reads the hooks: list of an agent
// file in the proposed syntax (a string names a JS hook; a mapping with
// prebuilt and with names a ready-made hook) the way the agent parser is
// to, and builds each prebuilt entry with FromSpec.
func TestAgentFileEntriesBuildWithFromSpec(t *testing.T) {
	data, err := os.ReadFile("testdata/researcher.md")
	require.NoError(t, err)
	front := strings.Split(string(data), "---\n")[1]
	var doc struct {
		Hooks []yaml.Node `yaml:"hooks"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(front), &doc))
	var built []hooks.Hook
	var js []string
	for _, n := range doc.Hooks {
		if n.Kind == yaml.ScalarNode {
			js = append(js, n.Value)
			continue
		}
		var entry struct {
			Prebuilt string         `yaml:"prebuilt"`
			With     map[string]any `yaml:"with"`
		}
		require.NoError(t, n.Decode(&entry))
		h, err := prebuilt.FromSpec(entry.Prebuilt, entry.With)
		require.NoError(t, err, "line %d", n.Line)
		built = append(built, h)
	}
	assert.Equal(t, []string{"audit-js"}, js)
	require.Len(t, built, 3)
	assert.Equal(t, []string{"redact", "toolCallLimit", "loopGuard"}, []string{built[0].Name(), built[1].Name(), built[2].Name()})

	h := hooktest.New(t, built...)
	h.Tool("search", map[string]any{"q": "a"}).RequireAllowed(t)
	h.Tool("search", map[string]any{"q": "b"}).RequireAllowed(t)
	assert.False(t, h.Tool("search", map[string]any{"q": "c"}).Ran, "perTool search: 2")
	o := h.ToolCall(hooks.ToolCall{Name: "read", Arguments: map[string]any{}}, hooks.ToolResult{Text: "see TCK-123456"})
	assert.Equal(t, "see [REDACTED:ticket]", o.Result.Text)
}
