package hooks

// A hook answers a point with a patch: every field is optional, and a nil
// patch or a nil field keeps the current value.

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

	ToolChoice *ToolChoice    // replaces the tool choice
	Settings   *ModelSettings // replaces the sampling settings
}

// ModelResponsePatch is what an AfterModelResponse hook may return; a nil
// field keeps the current value.
//
// Text rewrites the reply. ToolCalls replaces the reply's tool calls (a
// redaction of their arguments, a call dropped): non-nil and empty, the
// reply has none; nil keeps them. End ends the run with an output.
// Continue says the reply is final and sends the run on with this user
// message; it only applies to a reply without tool calls, as the hooks
// left it (see Run.AfterModelResponse).
type ModelResponsePatch struct {
	Text      *string
	End       *End
	Continue  *string
	ToolCalls []ToolCall
	Reasoning *string // rewrites the reply's reasoning ("" drops it)
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

// Refuse returns a patch that refuses a tool call with reason.
func Refuse(reason string) *ToolCallPatch {
	allow := false
	return &ToolCallPatch{Allow: &allow, Reason: &reason}
}
