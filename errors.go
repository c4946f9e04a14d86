package hooks

import (
	"errors"
	"fmt"
	"runtime/debug"
)

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

// BlockMessager is an error that says, in the few words a model may read,
// why a hook failed: when a hook's error blocks a tool call (policy Block),
// the model reads "Tool call blocked: " and BlockMessage() instead of the
// whole error, so that what a failing command printed on stderr (or a
// path, or a secret) stays in the diagnostic. Command hooks' errors
// implement it; so may a dialect's.
type BlockMessager interface {
	error
	BlockMessage() string
}

// FailClosed marks err, returned by a hook, as a failure that refuses the
// tool call it happened in, as policy Block does, whatever the hook's own
// policy: for a hook kind whose entries each choose (a command entry with
// failClosed, a dialect's handler). From BeforeToolExecute the call is
// refused with "Tool call blocked: " and the error's BlockMessage (or its
// message), traced as refused with the error, and the error is a
// Diagnostic; at other points it is handled by the hook's policy. A nil err
// gives nil.
func FailClosed(err error) error {
	if err == nil {
		return nil
	}
	return &failClosedError{err}
}

type failClosedError struct{ err error }

func (e *failClosedError) Error() string { return e.err.Error() }
func (e *failClosedError) Unwrap() error { return e.err }

// failsClosed reports whether err was marked by FailClosed. It never
// panics, whatever the error's own methods do.
func failsClosed(err error) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	var fc *failClosedError
	return errors.As(err, &fc)
}

// blockedReason is the reason of a tool call refused because a hook
// failed (policy Block, FailClosed): the one place this text is built.
func blockedReason(err error) string {
	return "Tool call blocked: " + blockedText(err)
}

// blockedText is what the model reads when a hook's error blocks a call
// (policy Block): the error's message, or its BlockMessage.
func blockedText(err error) (text string) {
	defer func() {
		if recover() != nil { // a hostile Unwrap or As
			text = err.Error() // sanitized: it does not panic
		}
	}()
	var short BlockMessager
	if errors.As(err, &short) {
		return short.BlockMessage()
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
