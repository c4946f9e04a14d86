package claudecode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"strings"
	"unicode/utf8"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
	"github.com/rienda/hooks/internal/proc"
)

// Output limits. The model chooses the size of a call, and a guard may
// quote it (a deny reason with the command in it, an input logged to
// stdout): what it prints is read up to maxOutput, twice what a call's
// arguments may take, and a decision past that is never read as an allow
// (see docs/claudecode.md, per event).
const (
	maxOutput = 16 << 20 // bytes of stdout read
	// maxDrained is how much stdout a handler may print in all: past
	// maxOutput it is read and dropped so that the handler ends by itself
	// and its exit status decides (exit 2 blocks whatever it printed);
	// past maxDrained it is killed, its decision unknown.
	maxDrained = 4 * maxOutput
	maxReason  = dialect.MaxReason // bytes of a reason the model or a person reads; past it, cut with a marker
	// stderrKept is how much of stderr internal/proc keeps (its last
	// bytes): an exit 2 reason that long was likely cut at its start.
	stderrKept = 2 << 10
)

// input is what a handler reads on stdin, in Claude Code's snake_case.
// Fields an event does not have are left out.
type input struct {
	SessionID            string          `json:"session_id"`
	TranscriptPath       string          `json:"transcript_path"`
	Cwd                  string          `json:"cwd"`
	HookEventName        string          `json:"hook_event_name"`
	PermissionMode       string          `json:"permission_mode"`
	ToolName             string          `json:"tool_name,omitempty"`
	ToolInput            json.RawMessage `json:"tool_input,omitempty"`
	ToolUseID            string          `json:"tool_use_id,omitempty"`
	ToolResponse         any             `json:"tool_response,omitempty"`
	Error                *string         `json:"error,omitempty"`
	Prompt               *string         `json:"prompt,omitempty"`
	StopHookActive       *bool           `json:"stop_hook_active,omitempty"`
	LastAssistantMessage *string         `json:"last_assistant_message,omitempty"`
	Source               string          `json:"source,omitempty"`
	Reason               string          `json:"reason,omitempty"`
	// AgentID and AgentType name the subagent a handler runs in (a child
	// run: its id, and the type AgentType gave), on every event of it.
	DurationMS          *int64 `json:"duration_ms,omitempty"`
	AgentID             string `json:"agent_id,omitempty"`
	AgentType           string `json:"agent_type,omitempty"`
	AgentTranscriptPath string `json:"agent_transcript_path,omitempty"`
	// Extra is the own fields of an event a host fires (Fire), sent
	// beside the common ones.
	Extra map[string]any `json:"-"`
}

// result is what one handler's run gave.
type result struct {
	blocked bool    // exit 2
	reason  string  // exit 2's reason: stderr, else stdout's "reason", else a fixed text
	out     *output // the JSON on stdout, when it parsed
	text    string  // stdout that is not JSON (exit 0)
	notes   []error // what in the output was ignored (a misspelt key, a value of the wrong type)
	err     error   // the handler failed: a diagnostic, or a refusal under failClosed
	tooMuch bool    // it printed more than maxOutput: its decision is unknown
	// evident is how the output evidently refuses when the exact reading
	// does not (a guard's JSON broken by a quote in the call): see
	// evident.go. Set only for the events that guard a tool.
	evident string
}

// failure is a handler that did not give a decision: it names the
// handler and its command, and keeps what happened.
type failure struct {
	where string
	argv  []string
	err   error
	then  string // what follows: "the call goes on", …
}

// Error names the handler, its command, what happened and what follows.
func (e *failure) Error() string {
	return fmt.Sprintf("Claude Code hook %s (%q): %v; %s", e.where, e.argv, e.err, e.then)
}

// BlockMessage is what the model reads after "Tool call blocked: " when
// the failure refuses a tool call (hooks.FailClosed).
func (e *failure) BlockMessage() string {
	if errors.Is(e.err, proc.ErrOutputTooLarge) {
		return "Claude Code hook " + e.where + " printed more than can be read, so its decision is unknown"
	}
	return "Claude Code hook " + e.where + " failed"
}

// Unwrap returns what happened.
func (e *failure) Unwrap() error { return e.err }

// fail is the failure of h with err.
func (h *handler) fail(err error) *failure {
	then := "the run goes on"
	switch {
	case eventPoints[h.event] != hooks.BeforeToolExecute && eventPoints[h.event] != hooks.AfterToolExecute:
	case h.failClosed:
		then = "failClosed: a tool call is refused"
	default:
		then = "the call goes on"
	}
	return &failure{where: h.where, argv: h.argv, err: err, then: then}
}

// run runs h with in on stdin. A cancellation of c is returned as the
// error; every other failure is in the result.
func (h *handler) run(c *hooks.Context, in input) (result, error) {
	job, err := h.job(c, in)
	if err != nil {
		return result{err: h.fail(err)}, nil
	}
	base := c.Context // the host's context: the handler must see its cancellation
	if base == nil {
		base = c
	}
	r := job(base)
	if cerr := base.Err(); cerr != nil {
		return result{}, cerr
	}
	return r, nil
}

// job is what runs h with in, under a context given later: the process
// of a "command", the request of an "http" handler. What needs c (the
// transcript written, the input made) is done now.
func (h *handler) job(c *hooks.Context, in input) (func(context.Context) result, error) {
	if h.http != nil {
		return h.postJob(c, in)
	}
	if h.prompt != nil {
		return h.askJob(c, in)
	}
	cmd, err := h.command(c, in)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) result {
		out, err := proc.Exec(ctx, cmd)
		return h.decide(out, err)
	}, nil
}

// stdin is the JSON input of h: in, with what every event has.
func (h *handler) stdin(c *hooks.Context, in input) ([]byte, error) {
	cwd := dialect.Workdir(c)
	in.SessionID, in.Cwd, in.PermissionMode = c.Session.ID, cwd, "default"
	in.TranscriptPath = h.set.path(c)
	if c.ParentRunID() != "" {
		in.AgentID, in.AgentType = c.RunID(), h.set.agentType(c)
		if in.HookEventName == "SubagentStop" {
			in.AgentTranscriptPath = in.TranscriptPath
		}
	}
	var v any = in
	if in.Extra != nil {
		merged := maps.Clone(in.Extra)
		for k, val := range map[string]any{"session_id": in.SessionID, "transcript_path": in.TranscriptPath,
			"cwd": in.Cwd, "hook_event_name": in.HookEventName, "permission_mode": in.PermissionMode} {
			merged[k] = val
		}
		if in.AgentID != "" {
			merged["agent_id"], merged["agent_type"] = in.AgentID, in.AgentType
		}
		v = merged
	}
	stdin, err := encodeJSON(v)
	if err != nil {
		return nil, fmt.Errorf("the input cannot be sent as JSON: %w", err)
	}
	return stdin, nil
}

// command is the process that runs h with in on stdin, in the run's
// workdir and environment; its transcript is written first.
func (h *handler) command(c *hooks.Context, in input) (proc.Command, error) {
	stdin, err := h.stdin(c, in)
	if err != nil {
		return proc.Command{}, err
	}
	env := dialect.Environ(c, map[string]string{"CLAUDE_PROJECT_DIR": dialect.Workdir(c)})
	return proc.Command{Argv: h.argv, Dir: c.Workdir, Env: env,
		Stdin: stdin, Timeout: h.timeout, MaxOut: maxOutput, DrainOut: maxDrained}, nil
}

// decide turns a handler's end into its result. Exit 2 blocks whatever
// stdout held, also past maxOutput (the command drained it to its end):
// the reason is stderr, else stdout's "reason", else the start of stdout
// when it was too large to parse, cut with a marker. Any other end past
// maxOutput is a decision that cannot be read.
func (h *handler) decide(out proc.Output, err error) result {
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit) && exit.ExitCode() == 2:
		r := result{}
		if !out.Overflow {
			r = h.parse(out.Stdout)
		}
		r.text, r.blocked = "", true
		r.reason = stderrReason(out.Stderr)
		if r.reason == "" && r.out != nil {
			r.reason = r.out.Reason
		}
		if r.reason == "" && out.Overflow {
			r.reason = cutPrinted(out)
		}
		if r.reason == "" {
			r.reason = "blocked by Claude Code hook " + h.where
		}
		r.reason = cut(r.reason)
		return r
	case errors.Is(err, proc.ErrOutputTooLarge), err == nil && out.Overflow:
		if err == nil {
			err = fmt.Errorf("%w: %d bytes on stdout, more than the %d read", proc.ErrOutputTooLarge, out.Written, maxOutput)
		}
		return result{err: h.fail(fmt.Errorf("its output cannot be read: %w", err)), tooMuch: true}
	case err == nil:
		return h.parse(out.Stdout)
	}
	// A failure after output: a guard may have printed its refusal, then
	// crashed or hung on something in the call (evident.go).
	r := result{}
	if h.guards() && len(bytes.TrimSpace(out.Stdout)) > 0 {
		r = h.parse(out.Stdout)
	}
	r.err = h.fail(err)
	return r
}

// cutPrinted is the start of a stdout too large to read, at most
// maxReason bytes of it, with how much was printed.
func cutPrinted(out proc.Output) string {
	s := strings.TrimSpace(string(out.Stdout[:min(len(out.Stdout), maxReason-64)])) // room for the marker
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1] // the cut may fall inside a character
	}
	if s == "" {
		return ""
	}
	return s + fmt.Sprintf(" […cut: %d bytes in all]", out.Written)
}

// parse reads stdout (parseStdout), its notes naming the handler.
func (h *handler) parse(out []byte) result {
	r := parseStdout(out)
	h.readEvident(out, &r)
	for i, n := range r.notes {
		r.notes[i] = fmt.Errorf("the Claude Code hook %s: %w", h.where, n)
	}
	return r
}

// stderrReason is the stderr internal/proc kept of an exit (its last
// stderrKept bytes), marked when it was likely cut.
func stderrReason(stderr []byte) string {
	reason := strings.TrimSpace(string(stderr))
	if len(stderr) >= stderrKept {
		for len(reason) > 0 && !utf8.RuneStart(reason[0]) {
			reason = reason[1:] // the cut may fall inside a character
		}
		reason = "[…stderr cut: only its last 2 KiB are kept] " + reason
	}
	return reason
}

// cut keeps at most maxReason bytes of s, at a character boundary, and
// says how long it was: a reason is cut, never dropped (dialect.Cut).
func cut(s string) string { return dialect.Cut(s) }

// encodeJSON is v's JSON without HTML escaping (a command's "<" and "&"
// go as themselves, as Claude Code sends them).
func encodeJSON(v any) ([]byte, error) { return dialect.EncodeJSON(v) }

// settle reports a handler's failure and what its output had that was
// ignored (diagnostics), and sends its systemMessage on; it reports
// whether the result holds a decision.
func (h *hook) settle(c *hooks.Context, r *result) bool {
	if r.err != nil {
		c.Diagnose(r.err)
		return false
	}
	for _, n := range r.notes {
		c.Diagnose(n)
	}
	r.notify(c, h.event)
	return true
}

// notify sends the output's systemMessage to the host's Notify.
func (r *result) notify(c *hooks.Context, event string) {
	if r.out != nil && r.out.SystemMessage != "" {
		c.Notify(hooks.Notice{Title: "Claude Code hook (" + event + ")", Body: cut(r.out.SystemMessage)})
	}
}
