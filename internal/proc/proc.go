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
	MaxOut  int           // bytes of stdout allowed; more is an error
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
// stderr), or ErrEscaped.
func Run(ctx context.Context, c Command) ([]byte, error) {
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return nil, errors.New("no command")
	}
	runCtx, cancel := context.WithTimeoutCause(ctx, c.Timeout, ErrTimeout)
	defer cancel()
	token := rand.Text()
	cmd := exec.Command(c.Argv[0], c.Argv[1:]...)
	cmd.Dir, cmd.Env = c.Dir, markEnv(c.Env, token)
	ownGroup(cmd)
	p, err := openPipes(cmd)
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		p.abort()
		return nil, err
	}
	started := time.Now()
	p.serve(c.Stdin, c.MaxOut)
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

// outcome turns the end of a command into Run's results.
func outcome(ctx, runCtx context.Context, c Command, r result, p *pipes) ([]byte, error) {
	var escaped error
	switch {
	case r.stuck:
		escaped = fmt.Errorf("%w: it did not die when killed", ErrEscaped)
	case r.held:
		escaped = fmt.Errorf("%w: it still holds the command's output", ErrEscaped)
	}
	switch {
	case p.over:
		return nil, fmt.Errorf("%w: more than %d bytes on stdout", ErrOutputTooLarge, c.MaxOut)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("killed: %w", ctx.Err())
	case r.killed && errors.Is(context.Cause(runCtx), ErrTimeout):
		return nil, fmt.Errorf("%w after %s: killed with what it started", ErrTimeout, c.Timeout)
	case r.wait != nil:
		var exit *exec.ExitError
		if !errors.As(r.wait, &exit) {
			return p.out, r.wait
		}
		if tail := strings.TrimSpace(string(p.errTail)); tail != "" {
			return p.out, fmt.Errorf("%w: %s", exit, tail) // errors.As finds the exit
		}
		return p.out, exit
	}
	return p.out, escaped
}
