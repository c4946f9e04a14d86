package hooks

// RunStart describes a run that starts, or resumes.
type RunStart struct {
	RunID   string `json:"runId"`
	Input   string `json:"input"`
	Resumed bool   `json:"resumed"`
	// ParentRunID is the id of the run a child run (Run.Child) is a
	// subagent of; "" for a root run. Run.Child sets it; Chain.Start
	// refuses it. Context.ParentRunID gives it at every point.
	ParentRunID string `json:"parentRunId,omitempty"`
}

// Outcome is how a run ended.
type Outcome string

// The outcomes a run can end with.
const (
	Completed   Outcome = "completed"
	Suspended   Outcome = "suspended"
	Failed      Outcome = "failed"
	Interrupted Outcome = "interrupted"
)

// RunEnd describes a run that ended. Run.End fills RunID, and Outcome and
// Reason when they are empty.
type RunEnd struct {
	RunID   string  `json:"runId"`
	Outcome Outcome `json:"outcome"`
	Reason  string  `json:"reason"` // JS: event.reason
	Output  string  `json:"output"`
	Err     error   `json:"-"`
}

// End ends a run early with an output.
type End struct{ Output string }
