package cursor

import (
	"errors"
	"fmt"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// ran is what one entry's run gave.
type ran struct {
	stdout   []byte
	stderr   string
	code     int   // the exit status; -1 when it did not exit by itself
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
	if errors.Is(f.err, dialect.ErrOutputTooLarge) {
		return "the output of Cursor hook " + f.where + " is too large to read"
	}
	return "Cursor hook " + f.where + " failed, and fails closed"
}

// workdir is the run's working folder: Host.Workdir, or the process's.
func workdir(c *hooks.Context) string { return dialect.Workdir(c) }

// run runs the entry with payload on stdin, with the kit's process rules
// (dialect.Exec: its own process group, killed with what it started at
// the timeout, on cancellation and at its exit; stdout capped). Only a
// cancellation of c is returned as an error; every other end is in ran.
func (h *hook) run(c *hooks.Context, e *entry, payload map[string]any) (ran, error) {
	stdin, err := dialect.EncodeJSON(payload)
	if err != nil {
		return ran{err: &failure{e.where, fmt.Errorf("the input cannot be sent as JSON: %w", err)}}, nil
	}
	wd := dialect.Workdir(c)
	out, err := dialect.Exec(c, dialect.Command{Argv: []string{"bash", "-c", e.command}, Dir: h.set.opts.dir,
		Env:   dialect.Environ(c, map[string]string{"CURSOR_PROJECT_DIR": wd, "CLAUDE_PROJECT_DIR": wd}),
		Stdin: stdin, Timeout: e.timeout, MaxOutput: MaxOutput})
	if err != nil {
		return ran{}, err
	}
	r := ran{stdout: out.Stdout, stderr: out.Stderr, code: out.ExitCode}
	switch {
	case out.TooLarge():
		r.tooBig = true
		r.err = &failure{e.where, out.Err}
	case out.Err != nil:
		r.timedOut = errors.Is(out.Err, dialect.ErrTimeout)
		r.err = &failure{e.where, out.Err}
	}
	return r, nil
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
