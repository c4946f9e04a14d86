package hooks

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rienda/hooks/internal/proc"
)

// Command hook limits.
const (
	DefaultCommandTimeout = 5 * time.Second  // timeoutMs 0
	MaxCommandTimeout     = 60 * time.Second // a larger timeoutMs is capped
	MaxCommandOutput      = 256 << 10        // bytes of stdout read; more is an overflow (a guard's decision cannot be read: refused)
	maxResultText         = 64 << 10         // bytes of post_tool_call's result text sent on stdin; more is cut
)

// drainCommandOutput is how much stdout a command may print in all before
// it is killed: past MaxCommandOutput the rest is read and counted, not
// kept, so that a guard that quotes a large call (8 MiB of arguments can
// take six times as much as escaped JSON) still ends with its own exit
// status, and a flood still ends in a few tens of milliseconds.
const drainCommandOutput = 64 << 20

// What a command hook's failure wraps, for errors.Is on a Diagnostic's Err
// or a *HookError: a host can tell a slow script from a broken one. A
// command that exited with a status other than 0 matches *exec.ExitError
// with errors.As (its ExitCode, and the end of its stderr in the message).
var (
	ErrCommandTimeout        = proc.ErrTimeout        // it ran past its timeout and was killed with what it started
	ErrCommandOutputTooLarge = proc.ErrOutputTooLarge // it printed more than MaxCommandOutput on stdout
	ErrCommandEscaped        = proc.ErrEscaped        // something it started outlived it
)

// maxToolArguments bounds the JSON text of a call's arguments sent to a
// tool event's command. The arguments are never cut: a guard that read a
// cut copy would judge another call than the one that runs (the end of a
// command line, say), so larger arguments are the hook's error instead (a
// diagnostic, or a refusal under failClosed). 8 MiB is far above what a
// model writes in one call (a reply of 100k tokens is under 1 MiB) and
// small enough to pipe to a process in a few milliseconds.
const maxToolArguments = 8 << 20

// commandEvents maps each event to the point it runs at.
var commandEvents = map[string]Point{
	"session_start":      BeforeRun,
	"session_end":        AfterRun,
	"turn_start":         BeforeModelRequest,
	"turn_end":           AfterModelResponse,
	"pre_tool_call":      BeforeToolExecute,
	"post_tool_call":     AfterToolExecute,
	"pre_trust_decision": BeforeTrustDecision,
}

// CommandHooks decodes settings (ParseCommandSettings) and returns one
// Hook per enabled entry, in order, named "<event>#<index>" (the index in
// the settings list). A command hook's policy is Report: a failure is a
// diagnostic and the call goes on (fail open); with failClosed it is Block:
// the tool call is refused with "Tool call blocked: …", or trust denied.
//
// The command runs without a shell (command[0] is the executable, looked
// up in PATH when it has no slash), in Host.Workdir, with the run's
// environment (Host.Env, or the process environment), in a process group
// of its own that is killed at the timeout (timeoutMs, default 5000, at
// most 60000), when the call is cancelled, and when the command exits: on
// Linux, whatever it started is found and killed before the call returns,
// even if it left the group (see the README's guarantees). It reads one JSON envelope on
// stdin: {event, cwd, sessionId, timestamp (ms), subject}, plus toolName
// and arguments (the arguments as JSON text) for tool events, result
// ({text, isError}) for post_tool_call, and path, decision and isNew for
// pre_trust_decision. The arguments are sent whole, as encoding/json
// writes them (without HTML escapes, so "&&" reads as written): arguments
// that JSON cannot carry exactly (NaN, ±Inf, a channel, a func, a cycle, a
// string that is not UTF-8) or that take more than 8 MiB fail the hook
// rather than reach it changed, and so does a tool name, project path,
// cwd or session id that is not UTF-8. Only post_tool_call's result text is cut,
// past 64 KiB at a character boundary, with "truncated": true.
// The subject is the tool name, "user" (turn_start), "assistant"
// (turn_end), the project path (trust) or the session id (session events);
// a matcher fires the hook when it equals the subject or is a part of it
// (for a tool, also once case is set aside, with a diagnostic: "Shell"
// guards "shell"; see CheckCommandToolNames for a linter's check).
//
// For pre_tool_call and pre_trust_decision, stdout is read as JSON.parse
// and a property read do (names exactly, case included):
// {"decision":"block","reason":"…"} refuses the call with the reason (cut
// past 16 KiB with a marker) or denies trust, whatever the exit status;
// {"decision":"allow"}, {} or nothing allows. A refusal word of other
// tools ("deny", "Block") refuses, with a diagnostic. Output that cannot
// be read as a decision (malformed JSON, not an object, an unknown
// decision value, no decision beside an unknown key) is a failure of the
// hook, as seed 004 says: it fails open unless failClosed. Two exceptions
// keep the model, which shapes a guard's output with its call, from using
// that: output past 256 KiB refuses (denies) whatever the policy, and so
// does output that evidently refuses: a decision key, or a key within a
// typo of it, in any case, holding a refusal word (or a typo of one),
// anywhere in the output, malformed or beside unknown keys; "decision"
// repeated with a refusal among the values; {"allow": false}. A call
// whose arguments cannot be sent refuses too. An unknown key beside a
// readable decision is a diagnostic with a did-you-mean (and, under
// failClosed, a refusal). Other events are
// advisory: their output goes to Host.Log, line by line, and changes
// nothing. A failure of the command itself — it cannot start, exits
// non-zero without printing a refusal, times out — names the hook and
// what happened, and fails open unless failClosed.
func CommandHooks(data []byte) ([]Hook, error) {
	cfgs, err := ParseCommandSettings(data)
	if err != nil {
		return nil, err
	}
	var hooks []Hook
	for i, cfg := range cfgs {
		if cfg.Enabled != nil && !*cfg.Enabled {
			continue
		}
		name := cfg.Name
		if name == "" {
			name = fmt.Sprintf("%s#%d", cfg.Event, i)
		}
		h := &commandHook{name: name, cfg: cfg,
			point: commandEvents[cfg.Event], timeout: commandTimeout(cfg.TimeoutMs)}
		hooks = append(hooks, h)
	}
	return hooks, nil
}

// commandTimeout is the timeout of timeoutMs: the default for 0, at most
// MaxCommandTimeout. It compares before it multiplies, so no value can
// overflow into a negative timeout, which would expire before the guard
// starts and let the call through.
func commandTimeout(ms int) time.Duration {
	switch {
	case ms <= 0:
		return DefaultCommandTimeout
	case int64(ms) >= MaxCommandTimeout.Milliseconds():
		return MaxCommandTimeout
	}
	return time.Duration(ms) * time.Millisecond
}

// commandHook is one enabled settings entry.
type commandHook struct {
	name    string
	cfg     CommandHookConfig
	point   Point
	timeout time.Duration

	foldNoted atomic.Bool // the matcher took a tool only with case set aside, and said so
	typoNoted atomic.Bool // the matcher missed a tool it is a typo of, and said so
	missed    sync.Map    // tool name -> struct{}: compared for a typo already
}

// Name is "<event>#<index>".
func (h *commandHook) Name() string { return h.name }

// Handles reports whether p is the point of the hook's event.
func (h *commandHook) Handles(p Point) bool { return p == h.point }

// DefaultPolicy is Report (fail open), or Block with failClosed.
// ObservesFinal: the advisory events after a call (post_tool_call,
// turn_end, session_end) run after every other hook of their point, so
// that they observe what the model or the run finally got.
func (h *commandHook) ObservesFinal() bool {
	switch h.point {
	case AfterToolExecute, AfterModelResponse, AfterRun:
		return true
	}
	return false
}

func (h *commandHook) DefaultPolicy() Policy {
	if h.cfg.FailClosed {
		return Block
	}
	return Report
}

// matches reports whether the matcher takes subject: as written, or, for
// a tool name, once case is set aside (with a diagnostic: see
// matchFolded).
func (h *commandHook) matches(c *Context, subject string) bool {
	if h.cfg.Matcher == "" || strings.Contains(subject, h.cfg.Matcher) {
		return true
	}
	if !h.toolEvent() {
		return false
	}
	if h.matchFolded(c, subject) {
		return true
	}
	h.missedTypo(c, subject)
	return false
}

// run runs the command with the envelope of subject (fill adds the event's
// fields) and returns what it read. sendErr is why the event cannot be
// sent exactly (the command does not start); runErr is how the command
// ended, when that was not well (proc's error); both are the hook's
// (*commandError), and runErr may come with output.
func (h *commandHook) run(c *Context, subject string, fill func(*envelope) error) (out proc.Output, sendErr, runErr error) {
	stdin, err := h.stdin(c, subject, fill)
	if err != nil {
		return out, h.fail(err), nil
	}
	out, err = proc.Exec(c.base(), proc.Command{Argv: h.cfg.Command, Dir: c.Workdir, Env: environ(c.Env),
		Stdin: stdin, Timeout: h.timeout, MaxOut: MaxCommandOutput, DrainOut: drainCommandOutput})
	return out, nil, err
}

// fail is err as the hook's failure.
func (h *commandHook) fail(err error) error {
	if err == nil {
		return nil
	}
	return &commandError{hook: h.name, argv: h.cfg.Command, err: err}
}

// commandError is a command hook's failure: the diagnostic names the whole
// argv and keeps everything (the end of stderr too); under failClosed the
// model reads only BlockMessage(): short, naming the hook, and free of what a
// script happened to print on stderr.
type commandError struct {
	hook string
	argv []string
	err  error
}

// Error names the command, as argv, and what happened.
func (e *commandError) Error() string { return fmt.Sprintf("command %q: %v", e.argv, e.err) }

// Unwrap returns what happened.
func (e *commandError) Unwrap() error { return e.err }

// BlockMessage is the reason a refusal for this failure gives the model.
func (e *commandError) BlockMessage() string {
	return fmt.Sprintf("hook %s failed: %s", e.hook, shortText(e.err))
}

// stdin is the envelope the command reads, or why it cannot carry the
// event exactly.
func (h *commandHook) stdin(c *Context, subject string, fill func(*envelope) error) ([]byte, error) {
	cwd := c.Workdir
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	env := envelope{Event: h.cfg.Event, Cwd: cwd, SessionID: c.Session.ID,
		Timestamp: c.System.Now().UnixMilli(), Subject: subject}
	if fill != nil {
		if err := fill(&env); err != nil {
			return nil, err
		}
	}
	if err := exactStrings(&env); err != nil {
		return nil, err
	}
	return encodeJSON(env)
}

// advise runs an advisory event and logs its output, line by line; past
// MaxCommandOutput the last line kept ends with a marker, and the overflow
// is the hook's error.
func (h *commandHook) advise(c *Context, subject string, fill func(*envelope) error) error {
	if !h.matches(c, subject) {
		return nil
	}
	out, sendErr, runErr := h.run(c, subject, fill)
	if sendErr != nil {
		return sendErr
	}
	text := strings.TrimRight(string(out.Stdout), "\n")
	if out.Overflow {
		printed := printedText(out, runErr)
		text += "… [cut: " + printed + "]"
		over := fmt.Errorf("%w: printed %s on stdout; the log has its first %d KiB",
			ErrCommandOutputTooLarge, printed, MaxCommandOutput>>10)
		if errors.Is(runErr, ErrCommandOutputTooLarge) {
			runErr = nil
		}
		runErr = joinFailures(over, runErr)
	}
	for line := range strings.SplitSeq(text, "\n") {
		if line = strings.TrimRight(line, "\r"); line != "" {
			c.Log(line)
		}
	}
	return h.fail(runErr)
}

// guard runs a blocking event and reads its verdict. A run killed for a
// cancellation decided nothing: its error is returned as the problem.
func (h *commandHook) guard(c *Context, subject string, fill func(*envelope) error) (v commandVerdict, sendErr error) {
	out, sendErr, runErr := h.run(c, subject, fill)
	if sendErr != nil {
		return commandVerdict{}, sendErr
	}
	if runErr != nil && c.base().Err() != nil {
		return commandVerdict{problem: h.fail(runErr)}, nil // killed for the cancellation: nothing was decided
	}
	return h.verdictOf(out, runErr), nil
}

// BeforeRun runs a session_start command (advisory).
func (h *commandHook) BeforeRun(c *Context, start RunStart) (*RunPatch, error) {
	return nil, h.advise(c, c.Session.ID, nil)
}

// AfterRun runs a session_end command (advisory).
func (h *commandHook) AfterRun(c *Context, end RunEnd) error {
	return h.advise(c, c.Session.ID, nil)
}

// BeforeModelRequest runs a turn_start command (advisory; subject "user").
func (h *commandHook) BeforeModelRequest(c *Context, req ModelRequest) (*ModelRequestPatch, error) {
	return nil, h.advise(c, "user", func(e *envelope) error { return requestEnvelope(e, req) })
}

// AfterModelResponse runs a turn_end command (advisory; subject "assistant").
func (h *commandHook) AfterModelResponse(c *Context, resp ModelResponse) (*ModelResponsePatch, error) {
	return nil, h.advise(c, "assistant", func(e *envelope) error { return responseEnvelope(e, resp) })
}

// BeforeToolExecute runs a pre_tool_call command, which may block the
// call. What the model can cause with its call refuses it, whatever the
// policy: arguments that cannot be sent whole, output past the cap. A
// refusal the output holds, or evidently says even malformed, refuses
// whatever else went wrong (diagnosed); other output that cannot be read
// is the hook's error, for its policy (fail open unless failClosed).
func (h *commandHook) BeforeToolExecute(c *Context, call ToolCall) (*ToolCallPatch, error) {
	if !h.matches(c, call.Name) {
		return nil, nil
	}
	v, sendErr := h.guard(c, call.Name, func(e *envelope) error { return toolEnvelope(e, call) })
	switch {
	case sendErr != nil:
		return nil, FailClosed(sendErr)
	case v.block:
		c.Diagnose(v.problem)
		return Refuse(v.reason), nil
	case v.unreadable != nil:
		return nil, FailClosed(v.unreadable)
	}
	return nil, v.problem
}

// AfterToolExecute runs a post_tool_call command (advisory).
func (h *commandHook) AfterToolExecute(c *Context, call ToolCall, res ToolResult) (*ToolResultPatch, error) {
	return nil, h.advise(c, call.Name, func(e *envelope) error {
		if len(res.Text) > maxResultText {
			res.Text, e.Truncated = cutText(res.Text, maxResultText), true
		}
		res.Value = nil
		e.Result = &res
		return toolEnvelope(e, call)
	})
}

// DecideTrust runs a pre_trust_decision command: a block denies, and so
// does output past the cap, whatever the policy; other output that cannot
// be read is the hook's error, for its policy.
func (h *commandHook) DecideTrust(c *Context, req TrustRequest) (bool, error) {
	path := canonical(req.Path)
	if !h.matches(c, path) {
		return false, nil
	}
	isNew := req.IsNew
	v, sendErr := h.guard(c, path, func(e *envelope) error {
		e.Path, e.Decision, e.IsNew = path, string(req.Decision), &isNew
		return nil
	})
	switch {
	case sendErr != nil:
		return false, sendErr
	case v.block:
		c.Diagnose(v.problem)
		return true, nil
	case v.unreadable != nil:
		c.Diagnose(v.unreadable)
		return true, nil
	}
	return false, v.problem
}
