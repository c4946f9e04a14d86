package jsrt

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/dop251/goja"
)

// MaxCallStack bounds the JavaScript call depth of a runtime, so that an
// infinite recursion is an error, not an exhausted memory.
const MaxCallStack = 4096

// New returns a runtime with the limits every hook runtime has, its
// allocations bounded by l.
func New(l Limits) *goja.Runtime {
	rt, _ := NewRuntime(l)
	return rt
}

// NewRuntime is New, and what notes the memory its calls retain.
func NewRuntime(l Limits) (*goja.Runtime, *Retained) {
	rt := goja.New()
	rt.SetMaxCallStackSize(MaxCallStack)
	g := boundRecursion(rt)
	a := newAllocGuard(g, l)
	a.boundLoops()
	a.boundAllocations()
	r := &Retained{}
	a.noteRetention(r)
	return rt, r
}

// ErrPending is the error of a call whose Promise is still pending once
// nothing is left to run.
var ErrPending = errors.New("the returned Promise is still pending and nothing is left to run " +
	"(there are no timers or I/O in a hook runtime: await only work that settles by itself)")

// Call calls fn in rt with this and args. It must run inside Guard, which
// bounds it by the call's context. A returned Promise is awaited: goja runs
// the jobs it queued before Call returns, so a Promise still pending then
// never settles (ErrPending).
func Call(rt *goja.Runtime, fn goja.Callable, this goja.Value, args ...goja.Value) (goja.Value, error) {
	v, err := fn(this, args...)
	if err != nil {
		return nil, Error(err)
	}
	p, ok := AsPromise(v)
	if !ok {
		if v, err = adopt(rt, v); err != nil {
			return nil, err
		}
		if p, ok = AsPromise(v); !ok {
			return v, nil
		}
	}
	switch p.State() {
	case goja.PromiseStateFulfilled:
		return p.Result(), nil
	case goja.PromiseStateRejected:
		return nil, rejection(p.Result())
	}
	return nil, ErrPending
}

// adopt returns, for a thenable v (an object with a then method that is
// not a Promise), the Promise that await would make of it, its then run:
// a hook that returns { then(resolve) { resolve({ allow: false }) } }
// refuses, as awaiting it would. Anything else is returned as it is.
func adopt(rt *goja.Runtime, v goja.Value) (goja.Value, error) {
	o, ok := v.(*goja.Object)
	if !ok {
		return v, nil
	}
	var then goja.Value
	if ex := rt.Try(func() { then = o.Get("then") }); ex != nil {
		return nil, Error(ex)
	}
	if _, ok := goja.AssertFunction(then); !ok {
		return v, nil
	}
	// The built-in Promise.resolve: the global object's own, frozen
	// property, which no hook can replace.
	resolve, _ := goja.AssertFunction(rt.Get("Promise").ToObject(rt).Get("resolve"))
	p, err := resolve(rt.Get("Promise"), v)
	if err != nil {
		return nil, Error(err)
	}
	return p, nil
}

// AsPromise returns v as a Promise, when it is one. It looks at the type
// before exporting: Export copies an array or an object whole, which for a
// hostile value (an array whose length is 4e9) exhausts memory.
func AsPromise(v goja.Value) (*goja.Promise, bool) {
	o, ok := v.(*goja.Object)
	if !ok || o.ExportType() != promiseType {
		return nil, false
	}
	p, ok := o.Export().(*goja.Promise)
	return p, ok
}

var promiseType = reflect.TypeFor[*goja.Promise]()

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
		// The Go error a native function threw, if any, found now: goja's
		// Exception.Unwrap runs JavaScript (a Proxy's getPrototypeOf), which
		// must not run later, outside the call, where errors.Is looks.
		cause := goCause(ex)
		var broken *BrokenFileError
		if errors.As(cause, &broken) { // the file's own message, not "GoError: …"
			return &ScriptError{Message: broken.Error(), Stack: stack(ex.Stack()), cause: cause}
		}
		return &ScriptError{Message: readable(Describe(ex.Value())), Stack: stack(ex.Stack()), cause: cause}
	}
	return err
}

// goCause is the Go error ex carries (a native function's), or nil; a
// read that throws or is interrupted gives nil.
func goCause(ex *goja.Exception) (err error) {
	defer func() {
		if recover() != nil {
			err = nil
		}
	}()
	return ex.Unwrap()
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

// Unwrap returns the Go error a native function threw, if any.
func (e *ScriptError) Unwrap() error { return e.cause }

// rejection is the error of a rejected Promise.
func rejection(reason goja.Value) error {
	text := Describe(reason)
	if o, ok := reason.(*goja.Object); ok {
		if s := safeGet(o, "stack"); s != nil && !goja.IsUndefined(s) {
			return &ScriptError{Message: "rejected: " + text, Stack: indent(Describe(s), text)}
		}
	}
	return &ScriptError{Message: "rejected: " + text}
}

// Describe is a thrown value as a message: what String() gives it, or, when
// that itself throws or is interrupted (a hostile toString), what kind of
// value it is. It never panics: it runs while an error is being reported.
func Describe(v goja.Value) (text string) {
	if v == nil {
		return "undefined"
	}
	defer func() {
		if recover() != nil { // a throw, or the interrupt: Guard reports that
			text = "a thrown " + Kind(v) + " (its toString failed)"
		}
	}()
	return v.String()
}

// goDump is goja's message for an object that has no primitive value,
// which prints the Go struct behind it ("Could not convert &{Object 0xc…}
// to primitive"): a hook's author reads V8's words instead.
var goDump = regexp.MustCompile(`Could not convert &\{.*\}( \(\*goja\.[A-Za-z]+\))? to primitive`)

// readable is a thrown value's text with goja's Go dumps replaced.
func readable(text string) string {
	if !strings.Contains(text, "Could not convert &{") {
		return text
	}
	return goDump.ReplaceAllString(text, "Cannot convert object to primitive value")
}

// safeGet reads o[key], or nil when the read throws or is interrupted.
func safeGet(o *goja.Object, key string) (v goja.Value) {
	defer func() {
		if recover() != nil {
			v = nil
		}
	}()
	return o.Get(key)
}

func at(frames []goja.StackFrame) string {
	for i := range frames {
		if !goFrame(&frames[i]) {
			return " at " + frame(&frames[i])
		}
	}
	return ""
}

func stack(frames []goja.StackFrame) string {
	lines := make([]string, 0, len(frames))
	for i := range frames {
		if !goFrame(&frames[i]) {
			lines = append(lines, "    at "+frame(&frames[i]))
		}
	}
	return strings.Join(lines, "\n")
}

// goFrame reports whether f is a function of the library's own Go code
// (require, ctx's methods), which goja names by its Go symbol: a hook's
// author has no use for it in a JavaScript stack. Built-ins keep their
// JavaScript names ("parse (native)").
func goFrame(f *goja.StackFrame) bool {
	return f.Position().Filename == "" && strings.ContainsAny(f.FuncName(), "/.")
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
