package prebuilt_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// stateOf returns the run state of hook in a snapshot, as JSON text.
func stateOf(t *testing.T, snap []byte, hook string) string {
	t.Helper()
	var doc struct {
		States map[string]json.RawMessage `json:"states"`
	}
	require.NoError(t, json.Unmarshal(snap, &doc))
	raw, ok := doc.States[hook]
	require.True(t, ok, "no state of %q in %s", hook, snap)
	return string(raw)
}
