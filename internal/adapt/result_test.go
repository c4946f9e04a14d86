package adapt_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiffSendsWhatTheHooksLeftAndNoSecretTheyRemoved(t *testing.T) {
	secret := map[string]any{"user": "ann", "token": "s3cr3t"}
	asJSON := `{"token":"s3cr3t","user":"ann"}`
	for _, tc := range []struct {
		name   string
		text   string // the handler's text
		res    func(hooks.ToolResult) hooks.ToolResult
		want   adapt.Change
		wantIn string // the structured content sent, "" when none is set
	}{
		{name: "unchanged", text: "token s3cr3t", res: func(r hooks.ToolResult) hooks.ToolResult { return r },
			want: adapt.Change{Keep: true}},
		{name: "text only, prose: value dropped", text: "token s3cr3t",
			res:  func(r hooks.ToolResult) hooks.ToolResult { r.Text = "token [x]"; return r },
			want: adapt.Change{SetText: true, Text: "token [x]", SetValue: true}},
		{name: "text only, JSON: value mirrored", text: asJSON,
			res: func(r hooks.ToolResult) hooks.ToolResult {
				r.Text = `{"token":"[x]","user":"ann"}`
				return r
			},
			want:   adapt.Change{SetText: true, Text: `{"token":"[x]","user":"ann"}`, SetValue: true},
			wantIn: `{"token":"[x]","user":"ann"}`},
		{name: "value only, JSON text follows", text: asJSON,
			res: func(r hooks.ToolResult) hooks.ToolResult {
				r.Value = map[string]any{"user": "ann", "token": "[x]"}
				return r
			},
			want:   adapt.Change{SetText: true, Text: `{"token":"[x]","user":"ann"}`, SetValue: true},
			wantIn: `{"token":"[x]","user":"ann"}`},
		{name: "both", text: "token s3cr3t",
			res: func(r hooks.ToolResult) hooks.ToolResult {
				return *applyPatch(r, hooks.RewriteStrings(r, func(s string) string {
					return strings.ReplaceAll(s, "s3cr3t", "[x]")
				}))
			},
			want:   adapt.Change{SetText: true, Text: "token [x]", SetValue: true},
			wantIn: `{"token":"[x]","user":"ann"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := adapt.NewOutput(tc.text, false, secret)
			require.NoError(t, err)
			c, err := o.Diff(tc.res(o.Result()), true, false)
			require.NoError(t, err)
			if tc.want.SetValue && tc.wantIn == "" {
				assert.Error(t, c.Dropped, "a drop is reported")
			} else {
				assert.NoError(t, c.Dropped)
			}
			if tc.wantIn != "" {
				assert.JSONEq(t, tc.wantIn, string(c.Value))
			} else {
				assert.Nil(t, c.Value)
			}
			c.Value, c.Dropped = nil, nil
			assert.Equal(t, tc.want, c)
			assert.NotContains(t, c.Text, "s3cr3t")
		})
	}
}

// applyPatch is r with p applied, as the chain applies a ToolResultPatch.
func applyPatch(r hooks.ToolResult, p *hooks.ToolResultPatch) *hooks.ToolResult {
	if p == nil {
		return &r
	}
	if p.Text != nil {
		r.Text = *p.Text
	}
	if p.Value != nil {
		r.Value = p.Value
	}
	return &r
}

func TestDiffOfACallTheHandlerDidNotRun(t *testing.T) {
	var o adapt.Output
	c, err := o.Diff(hooks.ToolResult{Value: map[string]any{"hits": 1}}, false, false)
	require.NoError(t, err)
	assert.True(t, c.SetText)
	assert.JSONEq(t, `{"hits":1}`, c.Text, "the text says what the structured content says, as MCP asks")
	assert.JSONEq(t, `{"hits":1}`, string(c.Value))

	_, err = o.Diff(hooks.ToolResult{Value: make(chan int)}, false, false)
	assert.Error(t, err)
}

func TestToolsRebuildsOnlyWhatTheHooksChanged(t *testing.T) {
	type tool struct {
		name, desc string
		strict     bool
	}
	spec := func(t tool) hooks.ToolSpec { return hooks.ToolSpec{Name: t.name, Description: t.desc} }
	build := func(orig *tool, s hooks.ToolSpec) (tool, error) {
		t := tool{}
		if orig != nil {
			t = *orig
		}
		t.name, t.desc = s.Name, s.Description
		return t, nil
	}
	base := []tool{{"read", "Read", true}, {"delete", "Delete", false}}

	same, err := adapt.Tools(base, adapt.Specs(base, spec), spec, build)
	require.NoError(t, err)
	assert.Same(t, &base[0], &same[0], "unchanged: base itself")

	kept, err := adapt.Tools(base, nil, spec, build)
	require.NoError(t, err)
	assert.Equal(t, base, kept, "no specs: base")

	out, err := adapt.Tools(base, []hooks.ToolSpec{{Name: "read", Description: "Read a file"}, {Name: "grep"}}, spec, build)
	require.NoError(t, err)
	assert.Equal(t, []tool{{"read", "Read a file", true}, {"grep", "", false}}, out)

	none, err := adapt.Tools(base, []hooks.ToolSpec{}, spec, build)
	require.NoError(t, err)
	assert.Empty(t, none)
}

func TestSameSpecComparesSchemasAsJSON(t *testing.T) {
	a := hooks.ToolSpec{Name: "x", Schema: json.RawMessage(`{"type":"object","required":["a"]}`)}
	b := hooks.ToolSpec{Name: "x", Schema: json.RawMessage(`{"required": ["a"], "type": "object"}`)}
	assert.True(t, adapt.SameSpec(a, b))
	b.Schema = json.RawMessage(`{"type":"object"}`)
	assert.False(t, adapt.SameSpec(a, b))
}
