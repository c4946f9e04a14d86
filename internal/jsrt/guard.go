package jsrt

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/dop251/goja"
)

// Guard runs f, which may use rt in any way (call into JavaScript, read
// properties, convert values), under ctx: cancelling ctx interrupts the
// JavaScript f runs, and the error then matches ctx's cause (or error) with
// errors.Is. A JavaScript throw or a panic in f is returned as an error.
//
// Guard returns only once nothing it started can touch rt or f's state any
// more: when ctx is done as f returns, the goroutine that interrupts rt has
// finished before Guard returns. Callers may release whatever f used.
//
// Everything the library does in a hook's runtime goes through Guard, not
// only the hook's function: reading what it returned runs getters, toJSON
// and Proxy traps; describing what it threw runs toString.
func Guard(ctx context.Context, rt *goja.Runtime, f func() error) error {
	if err := ctx.Err(); err != nil {
		return interruption(ctx)
	}
	var interrupting sync.WaitGroup
	interrupting.Add(1)
	stop := context.AfterFunc(ctx, func() {
		defer interrupting.Done()
		rt.Interrupt(interruption(ctx))
	})
	err := protect(rt, f)
	if !stop() {
		// The interrupt started: wait for it, so that it cannot land on a
		// runtime (or a context) its call no longer owns.
		interrupting.Wait()
	}
	if err != nil && ctx.Err() != nil {
		// Whatever f was doing when the interrupt landed (a getter, a
		// conversion), the call's error is the context's.
		return fmt.Errorf("interrupted: %w", interruption(ctx))
	}
	return err
}

// interruption is the error a cancelled ctx interrupts with: its error,
// after its cause when it has one of its own (a hook's timeout names the
// hook); errors.Is matches either.
func interruption(ctx context.Context) error {
	err := ctx.Err()
	if cause := context.Cause(ctx); cause != nil && cause != err {
		return fmt.Errorf("%w: %w", cause, err)
	}
	return err
}

// protect runs f and turns a JavaScript throw, an interrupt, a stack
// overflow or a Go panic into an error. Catchable throws are caught by
// goja's own try, which unwinds the VM's stacks; the rest (an interrupt is
// uncatchable by design) by recover.
func protect(rt *goja.Runtime, f func() error) (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = panicked(x)
		}
	}()
	if ex := rt.Try(func() { err = f() }); ex != nil {
		return Error(ex)
	}
	return err
}

// panicked turns what a runtime or f panicked with into an error.
func panicked(x any) error {
	if err, ok := x.(error); ok {
		var interrupted *goja.InterruptedError
		var overflow *goja.StackOverflowError
		var ex *goja.Exception
		if errors.As(err, &interrupted) || errors.As(err, &overflow) || errors.As(err, &ex) {
			return Error(err)
		}
	}
	return &PanicError{Value: x, Stack: debug.Stack()}
}

// PanicError is a Go panic recovered in a runtime (a bug in a native
// function, never the hook's own throw).
type PanicError struct {
	Value any
	Stack []byte
}

// Error gives the panic value.
func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }
