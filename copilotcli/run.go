package copilotcli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/proc"
)

// ran is what one entry's run gave.
type ran struct {
	stdout   []byte
	stderr   string
	code     int   // the exit status; 0 also when it did not exit by itself
	exited   bool  // it exited by itself (with code)
	tooBig   bool  // stdout passed MaxOutput
	timedOut bool  // it ran out of time
	err      error // it did not run to an exit: a start failure, a timeout, an escape
}

// failure is an entry that failed: it names the entry and what happened.
type failure struct {
	where string
	err   error
}

// Error names the entry and what happened.
func (f *failure) Error() string { return "Copilot CLI hook " + f.where + ": " + f.err.Error() }

// Unwrap returns what happened.
func (f *failure) Unwrap() error { return f.err }

// BlockMessage is what the model reads when the failure refuses a call.
func (f *failure) BlockMessage() string {
	if errors.Is(f.err, proc.ErrOutputTooLarge) {
		return "the output of Copilot CLI hook " + f.where + " is too large to read"
	}
	return "Denied by preToolUse hook (hook errored)"
}

// workdir is the run's working folder: Host.Workdir, or the process's.
func workdir(c *hooks.Context) string {
	if c.Workdir != "" {
		return c.Workdir
	}
	wd, _ := os.Getwd()
	return wd
}

// run runs the entry with payload on stdin. Only a cancellation of c is
// returned as an error; every other end is in ran.
func (e *entry) run(c *hooks.Context, payload map[string]any) (ran, error) {
	stdin, err := encodeJSON(payload)
	if err != nil {
		return ran{err: &failure{e.where, fmt.Errorf("the input cannot be sent as JSON: %w", err)}}, nil
	}
	dir := workdir(c)
	if e.cwd != "" {
		if filepath.IsAbs(e.cwd) {
			dir = e.cwd
		} else {
			dir = filepath.Join(dir, e.cwd)
		}
	}
	got, err := proc.Exec(c, proc.Command{Argv: e.argv, Dir: dir, Env: e.environ(c),
		Stdin: stdin, Timeout: e.timeout, MaxOut: MaxOutput})
	if cerr := c.Err(); cerr != nil {
		return ran{}, cerr
	}
	r := ran{stdout: got.Stdout, stderr: strings.TrimSpace(string(got.Stderr))}
	var exit *exec.ExitError
	switch {
	case got.Overflow || errors.Is(err, proc.ErrOutputTooLarge):
		r.tooBig = true
		r.err = &failure{e.where, fmt.Errorf("%w: more than %d bytes on stdout", proc.ErrOutputTooLarge, MaxOutput)}
	case err == nil:
		r.exited = true
	case errors.As(err, &exit):
		r.exited, r.code = true, exit.ExitCode()
		if r.code < 0 {
			r.code = 1 // killed by a signal of its own: a failure
		}
	default:
		r.timedOut = errors.Is(err, proc.ErrTimeout)
		r.err = &failure{e.where, err}
	}
	return r, nil
}

// environ is the command's environment: the run's (Host.Env, or the
// process's), then the entry's env, whose values may name the run's
// variables ($HOME, ${HOME}), as Copilot CLI expands them.
func (e *entry) environ(c *hooks.Context) []string {
	env := map[string]string{}
	if c.Env != nil {
		for k, v := range c.Env {
			env[k] = v
		}
	} else {
		for _, kv := range os.Environ() {
			if k, v, ok := strings.Cut(kv, "="); ok {
				env[k] = v
			}
		}
	}
	base := make(map[string]string, len(env))
	for k, v := range env {
		base[k] = v
	}
	for k, v := range e.env {
		env[k] = os.Expand(v, func(name string) string { return base[name] })
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// payload is the common part of an event's input: camelCase, or the VS
// Code compatible snake_case for a PascalCase event.
func (h *hook) payload(c *hooks.Context) map[string]any {
	now := time.Now()
	if h.ev.pascal {
		return map[string]any{"hook_event_name": h.ev.name, "session_id": c.Session.ID,
			"timestamp": now.UTC().Format("2006-01-02T15:04:05.000Z"), "cwd": workdir(c)}
	}
	return map[string]any{"sessionId": c.Session.ID, "timestamp": now.UnixMilli(), "cwd": workdir(c)}
}

// key is a field's name in the event's payload format.
func (h *hook) key(camel, snake string) string {
	if h.ev.pascal {
		return snake
	}
	return camel
}

// encodeJSON is v as JSON, without HTML escapes (as JSON.stringify
// writes it): a guard that looks for "a && b" finds it.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}
