package hooks

// ModelStep is what BeforeModelRequest decided about one model call. Pass
// it to AfterModelResponse so that only the hooks it entered unwind.
type ModelStep struct {
	Request  ModelRequest   // what to send
	Response *ModelResponse // non-nil: a hook answered; do not call the model
	End      *End           // non-nil: end the run with End.Output

	stop stopMark // the hook that answered or ended, if one did: only the hooks before it unwind
}

// ModelReply is the model's reply after the AfterModelResponse hooks.
type ModelReply struct {
	Response ModelResponse
	End      *End
	Continue string // non-empty: the reply was final; send the run on with this message
}

// ToolStep is what BeforeToolExecute decided about one tool call. Pass it
// to AfterToolExecute so that only the hooks it entered unwind.
//
// A step BeforeToolExecute returns is one of three: let through (Result
// nil: run the tool), answered (Result set: do not run the tool), or
// refused (Refused, with Reason, and Result the error result the model
// reads: {Text: Reason, IsError: true}). A step a host builds by hand that
// says Refused is treated as refused whatever its Result: no tool runs.
type ToolStep struct {
	Call    ToolCall    // the call as the tool must see it
	Result  *ToolResult // non-nil: do not run the tool; a refusal is IsError with the reason as Text
	Refused bool
	Reason  string

	stop      stopMark       // the hook that answered or refused, if one did: only the hooks before it unwind
	rewritten bool           // a hook replaced the arguments: origArgs are the model's
	origArgs  map[string]any // the arguments as the model asked for them
}

// Rewritten reports whether hooks changed the call's arguments: Call's
// are the hooks', not the model's (arguments a hook returned equal to the
// model's are no change). A host holding the model's raw JSON arguments
// re-encodes them only then, so that numbers past float64's precision
// reach the tool as the model wrote them unless a hook changed them.
func (s *ToolStep) Rewritten() bool {
	return s.rewritten && !sameArguments(s.origArgs, s.Call.Arguments)
}

// answer returns the result the model reads instead of the tool's, when
// the tool must not run: the refusal, or a hook's answer.
func (s *ToolStep) answer() (ToolResult, bool) {
	switch {
	case s.Refused && s.Result != nil:
		return *s.Result, true
	case s.Refused:
		return ToolResult{Text: s.Reason, IsError: true}, true
	case s.Result != nil:
		return *s.Result, true
	}
	return ToolResult{}, false
}

// original returns the call as the model asked for it.
func (s *ToolStep) original() ToolCall {
	call := s.Call
	if s.rewritten {
		call.Arguments = s.origArgs
	}
	return call
}
