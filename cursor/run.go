package cursor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/proc"
)

// ran is what one entry's run gave.
type ran struct {
	stdout   []byte
	stderr   string
	code     int   // the exit status when it exited by itself
	tooBig   bool  // stdout passed MaxOutput
	timedOut bool  // it ran out of time
	err      error // it did not run to an exit (a start failure, a timeout, an escape), or stdout was too large
}

// failure is an entry that failed: it names the entry and what happened.
type failure struct {
	where string
	err   error
}

// Error names the entry and what happened.
func (f *failure) Error() string { return "Cursor hook " + f.where + ": " + f.err.Error() }

// Unwrap returns what happened.
func (f *failure) Unwrap() error { return f.err }

// BlockMessage is what the model reads when the failure refuses a call.
func (f *failure) BlockMessage() string {
	if errors.Is(f.err, proc.ErrOutputTooLarge) {
		return "the output of Cursor hook " + f.where + " is too large to read"
	}
	return "Cursor hook " + f.where + " failed, and fails closed"
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
func (h *hook) run(c *hooks.Context, e *entry, payload map[string]any) (ran, error) {
	stdin, err := encodeJSON(payload)
	if err != nil {
		return ran{err: &failure{e.where, fmt.Errorf("the input cannot be sent as JSON: %w", err)}}, nil
	}
	dir := h.set.opts.dir
	if dir == "" {
		dir = workdir(c)
	}
	got, err := proc.Exec(c, proc.Command{Argv: []string{"bash", "-c", e.command}, Dir: dir,
		Env: environ(c), Stdin: stdin, Timeout: e.timeout, MaxOut: MaxOutput})
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
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
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
// process's), with Cursor's CURSOR_PROJECT_DIR and its Claude Code alias
// CLAUDE_PROJECT_DIR set to the workdir.
func environ(c *hooks.Context) []string {
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
	env["CURSOR_PROJECT_DIR"] = workdir(c)
	env["CLAUDE_PROJECT_DIR"] = workdir(c)
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// payload is the common part of every event's input.
func (h *hook) payload(c *hooks.Context) map[string]any {
	conv := c.Session.ID
	if conv == "" {
		conv = c.RunID()
	}
	return map[string]any{"conversation_id": conv, "generation_id": c.RunID(), "model": "",
		"hook_event_name": h.ev.name, "cursor_version": "", "workspace_roots": []string{workdir(c)},
		"user_email": nil, "transcript_path": nil}
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
