package hooks

// This file is where a tool call's refusal is decided: the one function a
// maintainer changes to change what refuses a call, what the model reads,
// and what the trace reports.

// refusal decides whether a hook's answer at a tool call, its patch or its
// error, refuses the call, and with what reason. Every route comes here: a
// patch with Allow false (a Go hook's Refuse, a JavaScript hook's {allow:
// false} or {block}), a *ToolError, a failure under policy Block or marked
// FailClosed (a command entry's failClosed, a dialect's handler), a wrap
// under Block that failed. The verdict it returns is what the step records,
// what the model reads as the error result, and what the trace reports:
// DecisionRefused with the reason, and for a failure the error too.
//
//   - An empty reason reads "refused by hook <name>".
//   - A failure's reason reads "Tool call blocked: <message>", where the
//     message is the error's BlockMessage when it has one.
//   - A *ToolError refuses at any policy; a failure refuses only under
//     Block or FailClosed; any other error is not a refusal (ok is false),
//     and the hook's policy handles it.
func refusal(names []string, at Point, index int, policy Policy, p *ToolCallPatch, err error) (v verdict, ok bool) {
	if at != BeforeToolExecute && at != WrapToolCall {
		return verdict{}, false // only a tool call can be refused
	}
	var reason string
	switch {
	case err != nil:
		if msg, isToolError := toolRefusal(err); isToolError {
			reason, err = msg, nil // the hook's own words: not a failure
			break
		}
		if policy != Block && !failsClosed(err) {
			return verdict{}, false
		}
		reason = blockedReason(err)
	case p != nil && p.Allow != nil && !*p.Allow:
		if p.Reason != nil {
			reason = *p.Reason
		}
	default:
		return verdict{}, false
	}
	if reason == "" {
		reason = "refused by hook " + names[index]
	}
	return verdict{decision: DecisionRefused, reason: reason, err: err, stop: true}, true
}
