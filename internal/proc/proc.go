// Package proc runs a command hook's process: argv without a shell, in its
// own process group, with a bounded output and a deadline, and nothing left
// running afterwards.
package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Command is one run of an external program.
type Command struct {
	Argv    []string // Argv[0] is the executable, looked up in PATH when it has no slash
	Dir     string   // "": the current folder
	Env     []string // "KEY=value"; nil: none
	Stdin   []byte
	Timeout time.Duration // > 0
	MaxOut  int           // bytes of stdout allowed; more is an error
}

// ErrTimeout is the error of a command that ran out of time.
var ErrTimeout = errors.New("timed out")

// ErrOutputTooLarge is the error of a command whose stdout passed MaxOut.
var ErrOutputTooLarge = errors.New("output too large")

// maxStderr is how much of stderr is kept, to explain a failure.
const maxStderr = 2 << 10

// waitDelay bounds the wait for the output pipes once the process group is
// killed (a process that left the group may hold them).
const waitDelay = time.Second

// Run runs c and returns its stdout. At the timeout, when ctx is cancelled,
// or when stdout passes MaxOut, the whole process group is killed (so a
// child the command started dies with it) and Run returns once the group's
// output has closed. The error names what happened: ErrTimeout, ctx's
// error, ErrOutputTooLarge, a start failure, or a non-zero exit (with the
// end of stderr).
func Run(ctx context.Context, c Command) ([]byte, error) {
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return nil, errors.New("no command")
	}
	runCtx, cancel := context.WithTimeoutCause(ctx, c.Timeout, ErrTimeout)
	defer cancel()
	cmd := exec.CommandContext(runCtx, c.Argv[0], c.Argv[1:]...)
	cmd.Dir, cmd.Env = c.Dir, c.Env
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	cmd.Stdin = bytes.NewReader(c.Stdin)
	stdout := &capped{max: c.MaxOut, over: cancel}
	stderr := &capped{max: maxStderr, keepTail: true}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	ownGroup(cmd)
	cmd.WaitDelay = waitDelay
	err := cmd.Run()
	out := stdout.bytes()
	switch {
	case stdout.overflowed():
		return nil, fmt.Errorf("%w: more than %d bytes on stdout", ErrOutputTooLarge, c.MaxOut)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("killed: %w", ctx.Err())
	case errors.Is(context.Cause(runCtx), ErrTimeout):
		return nil, fmt.Errorf("%w after %s: killed with its process group", ErrTimeout, c.Timeout)
	case err != nil:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			if tail := strings.TrimSpace(string(stderr.bytes())); tail != "" {
				return out, fmt.Errorf("%s: %s", exit, tail)
			}
			return out, errors.New(exit.String())
		}
		return out, err
	}
	return out, nil
}

// capped is a writer that keeps at most max bytes: the head (stdout) or the
// tail (stderr). Past max, it calls over once.
type capped struct {
	mu       sync.Mutex
	buf      []byte
	max      int
	keepTail bool
	over     func()
	dropped  bool
}

func (w *capped) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) > w.max {
		if w.keepTail {
			w.buf = append(w.buf[:0], w.buf[len(w.buf)-w.max:]...)
		} else {
			w.buf = w.buf[:w.max]
			if !w.dropped && w.over != nil {
				w.over()
			}
		}
		w.dropped = true
	}
	return len(p), nil
}

func (w *capped) bytes() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf
}

func (w *capped) overflowed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.dropped && !w.keepTail
}
