package claudecode

import (
	"encoding/json"
	"testing"
)

// caseBlindOutput is how the root package read a handler's output before
// this package: encoding/json into a struct, names matched without case.
// Kept here only to measure what exact reading costs beside it.
type caseBlindOutput struct {
	Continue           *bool  `json:"continue"`
	StopReason         string `json:"stopReason"`
	SystemMessage      string `json:"systemMessage"`
	Decision           string `json:"decision"`
	Reason             string `json:"reason"`
	HookSpecificOutput struct {
		PermissionDecision       string         `json:"permissionDecision"`
		PermissionDecisionReason string         `json:"permissionDecisionReason"`
		UpdatedInput             map[string]any `json:"updatedInput"`
		AdditionalContext        string         `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// BenchmarkDecodeOutput reads a typical PreToolUse deny both ways, side
// by side: exact (parseStdout, what runs) and case-blind encoding/json
// (what ran before).
func BenchmarkDecodeOutput(b *testing.B) {
	out := []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is not allowed"}}` + "\n")
	b.Run("exact", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if r := parseStdout(out); r.out == nil || r.out.HookSpecificOutput.PermissionDecision != "deny" {
				b.Fatal("not a deny")
			}
		}
	})
	b.Run("case-blind", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var o caseBlindOutput
			if err := json.Unmarshal(out, &o); err != nil || o.HookSpecificOutput.PermissionDecision != "deny" {
				b.Fatal("not a deny")
			}
		}
	})
}
