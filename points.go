package hooks

import (
	"encoding/json"
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
//
// Model and Tools are filled by the host or adapter when it knows them (""
// and nil when it does not): a hook that sets them through its patch
// changes the model called and the tools offered.
type ModelRequest struct {
	System   string     `json:"system"`
	Messages []Message  `json:"messages"`
	Model    string     `json:"model,omitempty"` // the model's name, as the provider spells it
	Tools    []ToolSpec `json:"tools,omitempty"` // the tools offered to the model, in order
}

// ToolSpec is a tool offered to the model.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"schema,omitempty"` // the JSON Schema of its arguments, as the host sends it
}

// ModelResponse is the model's reply to one call.
//
// Usage and StopReason are filled by the host or adapter when the provider
// reports them (zero when it does not).
type ModelResponse struct {
	Text       string     `json:"text"`
	ToolCalls  []ToolCall `json:"toolCalls"`
	Usage      Usage      `json:"usage,omitzero"`
	StopReason StopReason `json:"stopReason,omitempty"`
}

// Usage is what one model call cost, in tokens, as the provider reported
// it. InputTokens counts every input token, CachedInputTokens included.
type Usage struct {
	InputTokens       int64 `json:"inputTokens"`
	OutputTokens      int64 `json:"outputTokens"`
	CachedInputTokens int64 `json:"cachedInputTokens,omitempty"`
}

// Add returns the sum of u and v, for hooks that total a run's usage.
func (u Usage) Add(v Usage) Usage {
	return Usage{InputTokens: u.InputTokens + v.InputTokens, OutputTokens: u.OutputTokens + v.OutputTokens,
		CachedInputTokens: u.CachedInputTokens + v.CachedInputTokens}
}

// StopReason is why the model stopped. Adapters map their provider's word
// onto these; a reason none of them fits keeps the provider's own word.
type StopReason string

// The stop reasons adapters report.
const (
	StopEndTurn       StopReason = "end_turn"       // the reply is complete (OpenAI "stop")
	StopToolUse       StopReason = "tool_use"       // the reply asks for tool calls (OpenAI "tool_calls")
	StopMaxTokens     StopReason = "max_tokens"     // cut at the output limit (OpenAI "length")
	StopContentFilter StopReason = "content_filter" // cut by the provider's filter (Anthropic "refusal")
	StopPauseTurn     StopReason = "pause_turn"     // the provider paused a long turn; send it back to go on
)

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
// the transcript sent to the model. Model and Tools replace the model
// called and the tools offered (a hook that narrows the tools, or falls
// back to another model). Respond answers without calling the
// model; End ends the run. Either stops the remaining before-hooks; when a
// patch sets both, End wins.
type ModelRequestPatch struct {
	System   *string
	Messages []Message
	Respond  *ModelResponse
	End      *End
	Model    *string    // replaces the model called
	Tools    []ToolSpec // replaces the tools offered (non-nil and empty: none)
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
