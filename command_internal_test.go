package hooks

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCommandTimeoutDefaultsAndCap(t *testing.T) {
	hs, err := CommandHooks([]byte(`{"hooks":[
		{"event":"turn_end","command":["x"]},
		{"event":"turn_end","command":["x"],"timeoutMs":1200},
		{"event":"turn_end","command":["x"],"timeoutMs":100000}]}`))
	require.NoError(t, err)
	require.Len(t, hs, 3)
	assert.Equal(t, 5*time.Second, hs[0].(*commandHook).timeout, "default")
	assert.Equal(t, 1200*time.Millisecond, hs[1].(*commandHook).timeout)
	assert.Equal(t, 60*time.Second, hs[2].(*commandHook).timeout, "capped")
}

// decisionOutput is what a refusing guard prints.
var decisionOutput = []byte(`{"decision":"block","reason":"rm -rf is not allowed"}`)

// BenchmarkDecisionReadLoose is how a decision was read before exact
// names: encoding/json into a struct (case-insensitive, last key wins).
func BenchmarkDecisionReadLoose(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var d struct {
			Decision string `json:"decision"`
			Reason   string `json:"reason"`
		}
		if !json.Valid(decisionOutput) || json.Unmarshal(decisionOutput, &d) != nil || d.Decision != "block" {
			b.Fatal(d)
		}
	}
}

// BenchmarkDecisionReadExact is readDecision: exact names, unknown keys,
// repeated decisions. Against a command's spawn (~1 ms) both are noise.
func BenchmarkDecisionReadExact(b *testing.B) {
	h := &commandHook{name: "guard"}
	b.ReportAllocs()
	for b.Loop() {
		if v := h.readDecision(decisionOutput); !v.block {
			b.Fatal(v)
		}
	}
}

// Looking for a refusal in malformed output reads it once: 256 KiB of
// the shapes that would make a naive scan quadratic (keys without values,
// colons, escapes, one long word, deep nesting) each take one pass.
func TestEvidentRefusalScanIsLinear(t *testing.T) {
	const n = MaxCommandOutput
	for name, out := range map[string]string{
		"keys":       strings.Repeat(`"decisio":`, n/10),
		"colons":     strings.Repeat(`a:`, n/2),
		"escapes":    strings.Repeat(`\u0064`, n/6),
		"a long key": strings.Repeat("d", n) + `:"block"`,
		"quotes":     strings.Repeat(`"`, n),
		"nesting":    strings.Repeat(`{"a":`, n/5),
	} {
		_, ok := evidentInText([]byte(out))
		assert.False(t, ok, name)
		reasonInText([]byte(strings.ReplaceAll(out, "decisio", "reason")))
	}
	deep := strings.Repeat(`[`, 5_000) + strings.Repeat(`]`, 5_000)
	_, ok := evidentInJSON([]byte(`{"a":` + deep + `,"decision":"deny"}`))
	assert.True(t, ok, "a refusal after a deep value")
}
