package hooks

import (
	"fmt"
	"slices"
	"strings"
)

// Point names a fixed point of the agent loop where hooks run. Its value is
// also the name a JavaScript hook exports for it.
type Point string

// The six run points, and the trust point that lives outside the run loop.
const (
	BeforeRun          Point = "beforeRun"
	AfterRun           Point = "afterRun"
	BeforeModelRequest Point = "beforeModelRequest"
	AfterModelResponse Point = "afterModelResponse"
	BeforeToolExecute  Point = "beforeToolExecute"
	AfterToolExecute   Point = "afterToolExecute"

	// BeforeTrustDecision runs when a project's trust is decided
	// (see Chain.DecideTrust). It is not in Points().
	BeforeTrustDecision Point = "beforeTrustDecision"
)

// allPoints are the seven points: the six of a run, in declaration order,
// then the trust decision.
var allPoints = [...]Point{BeforeRun, AfterRun, BeforeModelRequest, AfterModelResponse,
	BeforeToolExecute, AfterToolExecute, BeforeTrustDecision}

// runPoints are the six points of a run.
var runPoints = allPoints[:len(allPoints)-1]

// Points returns the six run points in declaration order. The slice is the
// caller's to keep.
func Points() []Point {
	return slices.Clone(runPoints)
}

// ParsePoint returns the point named s (any of the seven points, spelled
// exactly). An unknown name is an error that lists the valid ones.
func ParsePoint(s string) (Point, error) {
	if i := slices.Index(allPoints[:], Point(s)); i >= 0 {
		return allPoints[i], nil
	}
	return "", fmt.Errorf("hooks: unknown point %q (valid points: %s)", s, validPoints)
}

// validPoints names the seven points, for messages.
var validPoints = func() string {
	names := make([]string, len(allPoints))
	for i, p := range allPoints {
		names[i] = string(p)
	}
	return strings.Join(names, ", ")
}()

// ToolCall is a call the model asked for.
type ToolCall struct {
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// ToolResult is what the model reads back from a tool call.
type ToolResult struct {
	Text    string `json:"text"`
	IsError bool   `json:"isError"`
	Value   any    `json:"value,omitempty"`
}

// ModelRequest is what is sent to the model for one call.
type ModelRequest struct {
	System   string    `json:"system"`
	Messages []Message `json:"messages"`
}

// ModelResponse is the model's reply to one call.
type ModelResponse struct {
	Text      string     `json:"text"`
	ToolCalls []ToolCall `json:"toolCalls"`
}

// RunStart describes a run that starts, or resumes.
type RunStart struct {
	RunID   string `json:"runId"`
	Input   string `json:"input"`
	Resumed bool   `json:"resumed"`
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

// RunPatch is what a BeforeRun hook may return. A nil State keeps the
// hook's current state (on resume, the restored one).
type RunPatch struct{ State any }

// ModelRequestPatch is what a BeforeModelRequest hook may return; a nil
// field keeps the current value.
//
// System replaces the system prompt for this call only. Messages replaces
// the transcript sent to the model. Respond answers without calling the
// model; End ends the run. Either stops the remaining before-hooks; when a
// patch sets both, End wins.
type ModelRequestPatch struct {
	System   *string
	Messages []Message
	Respond  *ModelResponse
	End      *End
}

// ModelResponsePatch is what an AfterModelResponse hook may return; a nil
// field keeps the current value.
//
// Text rewrites the reply. End ends the run with an output. Continue says
// the reply is final and sends the run on with this user message; it only
// applies to a reply without tool calls (see Run.AfterModelResponse).
type ModelResponsePatch struct {
	Text     *string
	End      *End
	Continue *string
}

// ToolCallPatch is what a BeforeToolExecute hook may return; a nil field
// keeps the current value.
//
// Allow false refuses the call with Reason. Arguments replaces the
// arguments the next hook and the tool see. Result answers the call
// without running the tool.
type ToolCallPatch struct {
	Allow     *bool
	Reason    *string
	Arguments map[string]any
	Result    *ToolResult
}

// ToolResultPatch is what an AfterToolExecute hook may return; a nil field
// keeps the current value.
type ToolResultPatch struct {
	Text    *string
	IsError *bool
	Value   any
}
