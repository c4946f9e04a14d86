package exactjson

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type specific struct {
	PermissionDecision string `json:"permissionDecision"`
	Reason             string `json:"permissionDecisionReason,omitempty"`
}

type output struct {
	Continue *bool     `json:"continue"`
	Decision string    `json:"decision"`
	Specific *specific `json:"hookSpecificOutput"`
	Items    []specific
	Extra    map[string]any `json:"extra"`
}

func TestKeysMatchExactlyAsJSONParseReadsThem(t *testing.T) {
	var out output
	unknown, err := Unmarshal([]byte(`{"hookSpecificOutput":{"permissionDecision":"deny","PermissionDecision":"allow"},
		"decision":"block","Decision":"approve","continue":false,"Continue":true}`), &out)
	require.NoError(t, err)
	assert.Equal(t, "deny", out.Specific.PermissionDecision, "a key in another case is another key")
	assert.Equal(t, "block", out.Decision)
	require.NotNil(t, out.Continue)
	assert.False(t, *out.Continue)
	assert.Equal(t, []string{"Continue", "Decision", "hookSpecificOutput.PermissionDecision"}, unknown)
}

func TestARepeatedKeyTakesItsLastValue(t *testing.T) {
	var out output
	_, err := Unmarshal([]byte(`{"decision":"approve","decision":"block"}`), &out)
	require.NoError(t, err)
	assert.Equal(t, "block", out.Decision, "JSON.parse keeps the last")
}

func TestNestedListsMatchExactlyToo(t *testing.T) {
	var out output
	unknown, err := Unmarshal([]byte(`{"Items":[{"permissionDecision":"ask","permissiondecision":"allow"}],"extra":{"A":1}}`), &out)
	require.NoError(t, err)
	require.Len(t, out.Items, 1)
	assert.Equal(t, "ask", out.Items[0].PermissionDecision)
	assert.Equal(t, []string{"Items[0].permissiondecision"}, unknown)
	assert.Equal(t, map[string]any{"A": 1.0}, out.Extra)
}

func TestBadInputIsAnErrorNamingWhere(t *testing.T) {
	var out output
	_, err := Unmarshal([]byte(`{"decision":`), &out)
	require.Error(t, err)
	_, err = Unmarshal([]byte(`{"hookSpecificOutput":{"permissionDecision":3}}`), &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "hookSpecificOutput.permissionDecision")
	_, err = Unmarshal([]byte(`[]`), &out)
	require.Error(t, err)
	_, err = Unmarshal([]byte(`{}`), out)
	require.Error(t, err)
}
