package proc

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// Command is one run of an external program.
type Command struct {
	Argv    []string // Argv[0] is the executable, looked up in PATH when it has no slash
	Dir     string   // "": the current folder
	Env     []string // "KEY=value"; nil: none (Run adds its marker either way)
	Stdin   []byte
	Timeout time.Duration // > 0
	MaxOut  int           // bytes of stdout kept; more is an overflow

	// DrainOut, when larger than MaxOut, lets a command whose stdout
	// passes MaxOut run on: what it prints past MaxOut is read and
	// counted but not kept, so that it ends by itself and its exit status
	// and stderr are known (a guard that quotes a huge input still exits
	// with its own status). Past DrainOut bytes in all it is killed, with
	// ErrOutputTooLarge. 0 (or at most MaxOut): an overflow kills the
	// command at once.
	DrainOut int64
}

// Output is what Exec read of a command, whatever its end.
type Output struct {
	Stdout   []byte // the first MaxOut bytes of stdout
	Written  int64  // bytes read from stdout in all: more than len(Stdout) after an overflow (as many as were read before a kill)
	Overflow bool   // stdout passed MaxOut: Stdout is its start
	Stderr   []byte // the end of stderr, at most 2 KiB
}

// ErrTimeout is the error of a command that ran out of time.
var ErrTimeout = errors.New("timed out")

// ErrOutputTooLarge is the error of a command whose stdout passed MaxOut.
var ErrOutputTooLarge = errors.New("output too large")

// ErrEscaped is the error of a run that left something behind: a process
// the command started still holds its output, or did not die when killed.
// Run reports it rather than wait for it.
var ErrEscaped = errors.New("a process the command started outlived it")

// maxStderr is how much of stderr is kept, to explain a failure.
const maxStderr = 2 << 10

// drainGrace bounds the wait for the output pipes to close once every
// process Run can kill is dead. Dead processes hold no pipe, so the grace
// is spent only when something Run cannot kill (an escaped process)
// holds them (or, where that cannot be known, when the readers are slow
// to be scheduled); it lets the output already written be read.
const drainGrace = 500 * time.Millisecond

// Run runs c and returns its stdout. At the timeout, when ctx is cancelled,
// or when stdout passes MaxOut, the command is killed with everything it
// started (see the package doc for what that means per platform); when it
// exits by itself, what it started is killed too. Run returns once that is
// done, without waiting for output pipes that only an escaped process
// holds. The error names what happened: ErrTimeout, ctx's error,
// ErrOutputTooLarge, a start failure, a non-zero exit (with the end of
// stderr), or ErrEscaped. After an overflow Run returns no output and
// ErrOutputTooLarge, whatever DrainOut (Exec keeps both).
func Run(ctx context.Context, c Command) ([]byte, error) {
	out, err := Exec(ctx, c)
	if out.Overflow && !errors.Is(err, ErrOutputTooLarge) {
		err = fmt.Errorf("%w: more than %d bytes on stdout", ErrOutputTooLarge, c.MaxOut)
	}
	if errors.Is(err, ErrOutputTooLarge) {
		return nil, err
	}
	return out.Stdout, err
}

// Exec runs c as Run does and returns everything it read, also when it
// fails: the start of stdout past an overflow, how much was printed, and
// the end of stderr. Its error is Run's, except that an overflow the
// command drained to its end (DrainOut) is not one: Output.Overflow says
// it, and the error is the command's own end (nil for exit status 0).
func Exec(ctx context.Context, c Command) (Output, error) {
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return Output{}, errors.New("no command")
	}
	runCtx, cancel := context.WithTimeoutCause(ctx, c.Timeout, ErrTimeout)
	defer cancel()
	token := rand.Text()
	cmd := exec.Command(c.Argv[0], c.Argv[1:]...)
	cmd.Dir, cmd.Env = c.Dir, markEnv(c.Env, token)
	ownGroup(cmd)
	p, err := openPipes(cmd)
	if err != nil {
		return Output{}, err
	}
	if err := cmd.Start(); err != nil {
		p.abort()
		return Output{}, err
	}
	started := time.Now()
	p.serve(c.Stdin, c.MaxOut, c.DrainOut)
	end := awaitExit(cmd)
	killed := false
	select {
	case <-end.done:
	case <-runCtx.Done():
		killed = true
	case <-p.overflow:
		killed = true
	}
	if killed {
		killNow(cmd)
		<-end.done
	}
	stuck := sweep(cmd, token, started)
	waitErr := end.reap()
	held := p.finish()
	return outcome(ctx, runCtx, c, result{killed: killed, wait: waitErr, stuck: stuck, held: held}, p)
}

// result is what Run saw of the end of a command.
type result struct {
	killed bool  // Run killed it (timeout, cancellation, overflow)
	wait   error // exec's Wait
	stuck  bool  // a process of the run did not die when killed
	held   bool  // the output pipes stayed open after the sweep
}

// outcome turns the end of a command into Exec's results.
func outcome(ctx, runCtx context.Context, c Command, r result, p *pipes) (Output, error) {
	out := Output{Stdout: p.out, Written: p.written, Overflow: p.over, Stderr: p.errTail}
	return out, failure(ctx, runCtx, c, r, p)
}

// failure is the error of a command's end, or nil.
func failure(ctx, runCtx context.Context, c Command, r result, p *pipes) error {
	var escaped error
	switch {
	case r.stuck:
		escaped = fmt.Errorf("%w: it did not die when killed", ErrEscaped)
	case r.held:
		escaped = fmt.Errorf("%w: it still holds the command's output", ErrEscaped)
	}
	switch {
	case p.cut:
		return fmt.Errorf("%w: more than %d bytes on stdout", ErrOutputTooLarge, max(int64(c.MaxOut), c.DrainOut))
	case ctx.Err() != nil:
		return fmt.Errorf("killed: %w", ctx.Err())
	case r.killed && errors.Is(context.Cause(runCtx), ErrTimeout):
		return fmt.Errorf("%w after %s: killed with what it started", ErrTimeout, c.Timeout)
	case r.wait != nil:
		var exit *exec.ExitError
		if !errors.As(r.wait, &exit) {
			return r.wait
		}
		if tail := strings.TrimSpace(string(p.errTail)); tail != "" {
			return fmt.Errorf("%w: %s", exit, tail) // errors.As finds the exit
		}
		return exit
	}
	return escaped
}
