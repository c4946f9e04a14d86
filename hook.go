package hooks

import (
	"errors"
	"fmt"
	"runtime/debug"
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
//   - It must not keep c: a *Context is valid only during the call.
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

// Funcs is a Hook made of plain functions; a nil field is a point it does
// not handle. A Go type cannot have a field and a method of one name, so
// Funcs implements only Hook and PointHandler, and the chain adapts its
// fields itself. Funcs and *Funcs both work.
type Funcs struct {
	HookName           string
	BeforeRun          func(c *Context, start RunStart) (*RunPatch, error)
	AfterRun           func(c *Context, end RunEnd) error
	BeforeModelRequest func(c *Context, req ModelRequest) (*ModelRequestPatch, error)
	AfterModelResponse func(c *Context, resp ModelResponse) (*ModelResponsePatch, error)
	BeforeToolExecute  func(c *Context, call ToolCall) (*ToolCallPatch, error)
	AfterToolExecute   func(c *Context, call ToolCall, res ToolResult) (*ToolResultPatch, error)
}

// Name returns f.HookName.
func (f Funcs) Name() string { return f.HookName }

// Handles reports whether the field for p is set.
func (f Funcs) Handles(p Point) bool {
	switch p {
	case BeforeRun:
		return f.BeforeRun != nil
	case AfterRun:
		return f.AfterRun != nil
	case BeforeModelRequest:
		return f.BeforeModelRequest != nil
	case AfterModelResponse:
		return f.AfterModelResponse != nil
	case BeforeToolExecute:
		return f.BeforeToolExecute != nil
	case AfterToolExecute:
		return f.AfterToolExecute != nil
	}
	return false
}

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

// defaultPolicy is implemented by the package's own hook kinds (JS,
// command) whose default is not FailRun.
type defaultPolicy interface{ hookPolicy() Policy }

// withPolicy is the hook WithPolicy returns; the chain unwraps it.
type withPolicy struct {
	Hook
	policy Policy
}

func (w withPolicy) hookPolicy() Policy { return w.policy }

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
	if d, ok := h.(defaultPolicy); ok {
		return h, d.hookPolicy()
	}
	return h, FailRun
}

// Refuse returns a patch that refuses a tool call with reason.
func Refuse(reason string) *ToolCallPatch {
	allow := false
	return &ToolCallPatch{Allow: &allow, Reason: &reason}
}

// ToolError is the error a BeforeToolExecute hook returns to refuse the
// call: the model reads Message as the tool's error result. It refuses
// whatever the hook's policy.
type ToolError struct{ Message string }

// Error returns the message the model reads ("" for a nil *ToolError).
func (e *ToolError) Error() string {
	if e == nil {
		return ""
	}
	return e.Message
}

// toolRefusal reports whether err, a BeforeToolExecute hook's error,
// refuses the call (a *ToolError in its chain, even a nil one) and with
// what message ("" for the default reason). It never panics, whatever the
// error's own methods do: one that panics refuses nothing.
func toolRefusal(err error) (msg string, ok bool) {
	defer func() {
		if recover() != nil {
			msg, ok = "", false
		}
	}()
	var te *ToolError
	if !errors.As(err, &te) {
		return "", false
	}
	return te.Error(), true
}

// blockedText is what the model reads when a hook's error blocks a call
// (policy Block): the error's message, or the short form an error of the
// package's own hook kinds gives (a command's, without its stderr).
func blockedText(err error) (text string) {
	defer func() {
		if recover() != nil { // a hostile Unwrap or As
			text = err.Error() // sanitized: it does not panic
		}
	}()
	var short interface{ blocked() string }
	if errors.As(err, &short) {
		return short.blocked()
	}
	return err.Error()
}

// sanitize returns err, or, when its Error method panics, an error that
// says so: what a hook returns is read again by diagnostics, traces and
// the host, none of which may crash on it.
func sanitize(err error) (safe error) {
	defer func() {
		if x := recover(); x != nil {
			safe = &PanicError{Value: fmt.Sprintf("the error (%T) the hook returned panicked in its Error method: %v", err, x), Stack: debug.Stack()}
		}
	}()
	_ = err.Error()
	return err
}

var (
	// ErrHookFailed is matched (errors.Is) by every *HookError.
	ErrHookFailed = errors.New("hooks: hook failed")
	// ErrUnknownHook is returned when a declared hook does not exist.
	ErrUnknownHook = errors.New("hooks: unknown hook")
)

// HookError is the error of a hook whose policy is FailRun: it names the
// hook and the point, and wraps the cause.
type HookError struct {
	Hook  string
	Point Point
	Err   error
}

// Error names the hook, the point and the cause.
func (e *HookError) Error() string {
	return fmt.Sprintf("hooks: hook %q failed at %s: %v", e.Hook, e.Point, e.Err)
}

// Unwrap returns the cause.
func (e *HookError) Unwrap() error { return e.Err }

// Is reports whether target is ErrHookFailed.
func (e *HookError) Is(target error) bool { return target == ErrHookFailed }

// PanicError is the error a recovered panic in a hook becomes.
type PanicError struct {
	Value any    // what the hook panicked with
	Stack []byte // the hook's goroutine stack at the panic
}

// Error gives the panic value; the stack is in Stack.
func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// recoverPanic, deferred directly around a hook's call, turns a panic into
// a *PanicError in *err, and an error whose Error method panics into one
// that says so (sanitize): every hook call goes through it, so no error a
// hook returns reaches the chain unchecked.
func recoverPanic(err *error) {
	if v := recover(); v != nil {
		*err = &PanicError{Value: v, Stack: debug.Stack()}
	} else if *err != nil {
		*err = sanitize(*err)
	}
}

// Diagnostic reports a hook's problem that did not fail the run: an error
// under Report or Block, an AfterRun error, or a broken hook at load time.
type Diagnostic struct {
	Hook  string
	Point Point // "" at load time
	Err   error
}

// String names the hook, the point (unless at load time) and the cause.
func (d Diagnostic) String() string {
	switch {
	case d.Hook == "" && d.Point == "": // about no hook: an agent file, say
		return fmt.Sprint(d.Err)
	case d.Hook == "":
		return fmt.Sprintf("at %s: %v", d.Point, d.Err)
	}
	if d.Point == "" {
		return fmt.Sprintf("hook %q: %v", d.Hook, d.Err)
	}
	return fmt.Sprintf("hook %q at %s: %v", d.Hook, d.Point, d.Err)
}
