package jsrt

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dop251/goja"
)

// MaxCallStack bounds the JavaScript call depth of a runtime, so that an
// infinite recursion is an error, not an exhausted memory.
const MaxCallStack = 4096

// New returns a runtime with the limits every hook runtime has.
func New() *goja.Runtime {
	rt := goja.New()
	rt.SetMaxCallStackSize(MaxCallStack)
	boundRecursion(rt)
	return rt
}

// ErrPending is the error of a call whose Promise is still pending once
// nothing is left to run.
var ErrPending = errors.New("the returned Promise is still pending and nothing is left to run " +
	"(there are no timers or I/O in a hook runtime: await only work that settles by itself)")

// Call calls fn in rt with this and args, under ctx: cancelling ctx
// interrupts the JavaScript that runs (a native function that blocks must
// watch ctx itself), and the error then matches ctx's error with errors.Is.
// A returned Promise is awaited: goja runs the jobs it queued before Call
// returns, so a Promise still pending then never settles (ErrPending).
func Call(ctx context.Context, rt *goja.Runtime, fn goja.Callable, this goja.Value, args ...goja.Value) (goja.Value, error) {
	stop := context.AfterFunc(ctx, func() { rt.Interrupt(ctx.Err()) })
	v, err := fn(this, args...)
	stop()
	if err != nil {
		return nil, Error(err)
	}
	if o, ok := v.(*goja.Object); ok {
		if p, ok := o.Export().(*goja.Promise); ok {
			switch p.State() {
			case goja.PromiseStateFulfilled:
				return p.Result(), nil
			case goja.PromiseStateRejected:
				return nil, rejection(p.Result())
			default:
				return nil, ErrPending
			}
		}
	}
	return v, nil
}

// Error turns an error of goja into the error a person reads: the
// JavaScript message with its stack (file:line:column of each frame).
// An interruption keeps its cause (errors.Is), and a stack overflow says so.
func Error(err error) error {
	var interrupted *goja.InterruptedError
	var overflow *goja.StackOverflowError
	var ex *goja.Exception
	switch {
	case errors.As(err, &interrupted):
		if cause := interrupted.Unwrap(); cause != nil {
			return fmt.Errorf("interrupted%s: %w", at(interrupted.Stack()), cause)
		}
		return fmt.Errorf("interrupted%s: %v", at(interrupted.Stack()), interrupted.Value())
	case errors.As(err, &overflow):
		return fmt.Errorf("stack overflow: more than %d nested calls%s", MaxCallStack, at(overflow.Stack()))
	case errors.As(err, &ex):
		return &ScriptError{Message: ex.Value().String(), Stack: stack(ex.Stack()), cause: ex}
	}
	return err
}

// ScriptError is an error thrown by JavaScript.
type ScriptError struct {
	Message string // the thrown value, as String() gives it: "TypeError: x is not a function"
	Stack   string // one "at" line per frame, innermost first
	cause   error
}

// Error is the message, then the stack.
func (e *ScriptError) Error() string {
	if e.Stack == "" {
		return e.Message
	}
	return e.Message + "\n" + e.Stack
}

// Unwrap returns goja's exception.
func (e *ScriptError) Unwrap() error { return e.cause }

// rejection is the error of a rejected Promise.
func rejection(reason goja.Value) error {
	if o, ok := reason.(*goja.Object); ok {
		if s := o.Get("stack"); s != nil && !goja.IsUndefined(s) {
			return &ScriptError{Message: "rejected: " + reason.String(), Stack: indent(s.String(), reason.String())}
		}
	}
	return &ScriptError{Message: "rejected: " + reason.String()}
}

func at(frames []goja.StackFrame) string {
	if len(frames) == 0 {
		return ""
	}
	return " at " + frame(&frames[0])
}

func stack(frames []goja.StackFrame) string {
	lines := make([]string, len(frames))
	for i := range frames {
		lines[i] = "    at " + frame(&frames[i])
	}
	return strings.Join(lines, "\n")
}

// frame writes one stack frame: "name (file:line:column)".
func frame(f *goja.StackFrame) string {
	pos := f.Position()
	if pos.Filename == "" {
		return f.FuncName() + " (native)"
	}
	return f.FuncName() + " (" + position(pos) + ")"
}

// indent formats an Error's stack property (its first line is the message,
// which the ScriptError already has).
func indent(stack, message string) string {
	stack = strings.TrimPrefix(stack, message)
	var lines []string
	for l := range strings.SplitSeq(strings.TrimSpace(stack), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, "    "+l)
		}
	}
	return strings.Join(lines, "\n")
}
