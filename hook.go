package hooks

import (
	"fmt"
)

// Hook is anything with a name. A hook handles a point by also implementing
// that point's interface (BeforeToolExecuteHook, …); the chain discovers
// them by type assertion once, when it is built.
//
// What a point method may and may not do:
//   - It may be called concurrently: by many runs of one chain, and by the
//     parallel tool calls of one run.
//   - It must not modify the payload it is given (a call's Arguments, a
//     request's Messages): return a patch. A nil patch is no opinion.
//   - It should not keep c past the call: c is its own and never reused,
//     so keeping it is safe (it then reports the call's end, and its hook
//     and run), but work that outlives the call wants c.Context.
//   - A panic is recovered and treated as the hook's error, with its stack
//     (PanicError), under the hook's policy.
//   - It runs on the caller's goroutine, like an http.Handler: the library
//     does not stop Go code. A method that waits must return when c.Done()
//     is closed; one that ignores it keeps the Run method waiting, and when
//     it does return, the method returns the context's error (an answer
//     that came too late is not used, except a refusal). JavaScript and
//     command hooks are stopped by the library itself (an interrupt, a
//     process-group kill).
type Hook interface{ Name() string }

// BeforeRunHook runs once when a run starts, and again when it resumes.
type BeforeRunHook interface {
	Hook
	BeforeRun(c *Context, start RunStart) (*RunPatch, error)
}

// AfterRunHook runs exactly once per run, whatever the outcome. Its error
// is a diagnostic: it cannot fail or change the run.
type AfterRunHook interface {
	Hook
	AfterRun(c *Context, end RunEnd) error
}

// BeforeModelRequestHook runs before each model call.
type BeforeModelRequestHook interface {
	Hook
	BeforeModelRequest(c *Context, req ModelRequest) (*ModelRequestPatch, error)
}

// AfterModelResponseHook runs after each model reply.
type AfterModelResponseHook interface {
	Hook
	AfterModelResponse(c *Context, resp ModelResponse) (*ModelResponsePatch, error)
}

// BeforeToolExecuteHook runs before each tool call. Returning a *ToolError
// refuses the call with its message, whatever the hook's policy.
type BeforeToolExecuteHook interface {
	Hook
	BeforeToolExecute(c *Context, call ToolCall) (*ToolCallPatch, error)
}

// AfterToolExecuteHook runs after each tool call that produced a result.
type AfterToolExecuteHook interface {
	Hook
	AfterToolExecute(c *Context, call ToolCall, res ToolResult) (*ToolResultPatch, error)
}

// PointHandler lets a hook that implements every point method (JS hooks,
// wrappers) say which points it really handles. The chain skips a point
// whose Handles returns false at no cost. A PointHandler that handles
// nothing (a JS file that failed to load) is accepted.
type PointHandler interface{ Handles(p Point) bool }

// Policy says what an error (or a panic) in a hook does.
type Policy int

const (
	// FailRun fails the run: the Run method returns a *HookError. In tool
	// points the error stands for the tool's own error. Default for Go hooks.
	FailRun Policy = iota
	// Report turns the error into a Diagnostic; the hook counts as having
	// no opinion. Default for JS and command hooks.
	Report
	// Block reports like Report and, in BeforeToolExecute, also refuses the
	// call with "Tool call blocked: <message>" (and denies a trust decision).
	Block
)

// String returns the policy's name.
func (p Policy) String() string {
	switch p {
	case FailRun:
		return "FailRun"
	case Report:
		return "Report"
	case Block:
		return "Block"
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// DefaultPolicyHook is a hook kind whose errors should not fail a run by
// default: JavaScript hooks and command hooks say Report, and a dialect
// written outside this module (Cursor's, Codex's hooks) may say the same.
// NewChain asks it once; WithPolicy still overrides it.
type DefaultPolicyHook interface {
	Hook
	DefaultPolicy() Policy
}

// withPolicy is the hook WithPolicy returns; the chain unwraps it.
type withPolicy struct {
	Hook
	policy Policy
}

// Name returns the wrapped hook's name ("" when it is nil).
func (w withPolicy) Name() string {
	if w.Hook == nil {
		return ""
	}
	return w.Hook.Name()
}

// Handles reports what the wrapped hook handles, so that a wrapped hook is
// still accepted by NewChain.
func (w withPolicy) Handles(p Point) bool { return handles(w.Hook, p) }

// WithPolicy returns h with error policy p. The result handles exactly the
// points h handles. WithPolicy of a nil hook is a nil hook to NewChain,
// which says so.
func WithPolicy(h Hook, p Policy) Hook {
	if w, ok := h.(withPolicy); ok {
		h = w.Hook
	}
	return withPolicy{Hook: h, policy: p}
}

// policyOf returns the hook under any WithPolicy wrapper and its policy.
// A WithPolicy of nil gives a nil hook.
func policyOf(h Hook) (Hook, Policy) {
	if w, ok := h.(withPolicy); ok {
		return w.Hook, w.policy
	}
	if d, ok := h.(DefaultPolicyHook); ok {
		return h, d.DefaultPolicy()
	}
	return h, FailRun
}
