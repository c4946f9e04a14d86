package adapt

import (
	"crypto/rand"
	"encoding/hex"
	"slices"

	"github.com/rienda/hooks"
)

// FillCallIDs returns calls with a fresh unique ID for each call that has
// none (a hook's canned answer, Respond, made it): the model APIs reject
// an empty tool call ID, and two empty ones would collide when the
// results are matched to the calls. calls itself is not modified; with
// every ID set, it is returned as it is.
func FillCallIDs(calls []hooks.ToolCall, prefix string) []hooks.ToolCall {
	if !slices.ContainsFunc(calls, func(c hooks.ToolCall) bool { return c.ID == "" }) {
		return calls
	}
	out := slices.Clone(calls)
	for i := range out {
		if out[i].ID == "" {
			out[i].ID = NewCallID(prefix)
		}
	}
	return out
}

// NewCallID is a random tool call ID starting with prefix: letters, digits
// and underscores only, as every API accepts.
func NewCallID(prefix string) string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return prefix + hex.EncodeToString(b[:])
}
