package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rienda/hooks/internal/proc"
)

// CommandHookConfig is one entry of the "hooks" list of a settings file:
// an external command run at an event (seed 004).
type CommandHookConfig struct {
	Event      string   `json:"event"`
	Matcher    string   `json:"matcher,omitempty"`
	Command    []string `json:"command"`
	TimeoutMs  int      `json:"timeoutMs,omitempty"`
	Enabled    *bool    `json:"enabled,omitempty"`
	FailClosed bool     `json:"failClosed,omitempty"`
}

// Command hook limits.
const (
	DefaultCommandTimeout = 5 * time.Second  // timeoutMs 0
	MaxCommandTimeout     = 60 * time.Second // a larger timeoutMs is capped
	MaxCommandOutput      = 256 << 10        // bytes of stdout; more is a failure
	maxEnvelopeText       = 64 << 10         // bytes of arguments or result text sent on stdin
)

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

var commandFields = []string{"event", "matcher", "command", "timeoutMs", "enabled", "failClosed"}

// ParseCommandSettings decodes the "hooks" list of a settings file, strictly:
// an unknown event, an unknown field (names match exactly, case included),
// a missing event, an empty command and a negative timeout are errors
// naming the entry's index and the field. Other keys of the settings file
// are not this package's and are ignored.
func ParseCommandSettings(data []byte) ([]CommandHookConfig, error) {
	var settings struct {
		Hooks []json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &settings); err != nil {
		return nil, fmt.Errorf("hooks: settings: %w", err)
	}
	out := make([]CommandHookConfig, len(settings.Hooks))
	for i, raw := range settings.Hooks {
		if err := parseCommandEntry(raw, &out[i]); err != nil {
			return nil, fmt.Errorf("hooks: settings: hooks[%d]%w", i, err)
		}
	}
	return out, nil
}

// entryError is an error in one field of an entry: ".field: message".
func entryError(field, format string, args ...any) error {
	return fmt.Errorf(".%s: %s", field, fmt.Sprintf(format, args...))
}

func parseCommandEntry(raw json.RawMessage, cfg *CommandHookConfig) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return fmt.Errorf(": an entry must be an object with %s", strings.Join(commandFields, ", "))
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(commandFields, k) {
			return entryError(k, "unknown field; the fields are %s", strings.Join(commandFields, ", "))
		}
	}
	targets := map[string]any{"event": &cfg.Event, "matcher": &cfg.Matcher, "command": &cfg.Command,
		"timeoutMs": &cfg.TimeoutMs, "enabled": &cfg.Enabled, "failClosed": &cfg.FailClosed}
	for _, k := range keys {
		if err := json.Unmarshal(fields[k], targets[k]); err != nil {
			return entryError(k, "%v", err)
		}
	}
	switch {
	case cfg.Event == "":
		return entryError("event", "missing; the events are %s", eventNames())
	case commandEvents[cfg.Event] == "":
		return entryError("event", "unknown event %q; the events are %s", cfg.Event, eventNames())
	case len(cfg.Command) == 0:
		return entryError("command", "empty: it must name the executable and its arguments")
	case cfg.Command[0] == "":
		return entryError("command", "the executable (command[0]) is empty")
	case cfg.TimeoutMs < 0:
		return entryError("timeoutMs", "negative (%d)", cfg.TimeoutMs)
	}
	return nil
}

func eventNames() string {
	names := make([]string, 0, len(commandEvents))
	for e := range commandEvents {
		names = append(names, e)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
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
// most 60000) or when the call is cancelled. It reads one JSON envelope on
// stdin: {event, cwd, sessionId, timestamp (ms), subject}, plus toolName
// and arguments (the arguments as JSON text) for tool events, result
// ({text, isError}) for post_tool_call, and path, decision and isNew for
// pre_trust_decision; texts over 64 KiB are cut, with "truncated": true.
// The subject is the tool name, "user" (turn_start), "assistant"
// (turn_end), the project path (trust) or the session id (session events);
// a matcher fires the hook when it equals the subject or is a part of it.
//
// For pre_tool_call and pre_trust_decision, stdout is parsed as JSON:
// {"decision":"block","reason":"…"} refuses the call with the reason
// (denies trust); anything else, or nothing, allows. Other events are
// advisory: their output goes to Host.Log, line by line, and changes
// nothing. A failure — the command cannot start, exits non-zero, times
// out, prints malformed JSON or more than 256 KiB — names the hook and
// what happened.
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
		timeout := time.Duration(cfg.TimeoutMs) * time.Millisecond
		if cfg.TimeoutMs == 0 {
			timeout = DefaultCommandTimeout
		}
		h := &commandHook{name: fmt.Sprintf("%s#%d", cfg.Event, i), cfg: cfg,
			point: commandEvents[cfg.Event], timeout: min(timeout, MaxCommandTimeout)}
		hooks = append(hooks, h)
	}
	return hooks, nil
}

// commandHook is one enabled settings entry.
type commandHook struct {
	name    string
	cfg     CommandHookConfig
	point   Point
	timeout time.Duration
}

func (h *commandHook) Name() string { return h.name }

// Handles reports whether p is the point of the hook's event.
func (h *commandHook) Handles(p Point) bool { return p == h.point }

func (h *commandHook) hookPolicy() Policy {
	if h.cfg.FailClosed {
		return Block
	}
	return Report
}

// envelope is what a command reads on stdin.
type envelope struct {
	Event     string      `json:"event"`
	Cwd       string      `json:"cwd"`
	SessionID string      `json:"sessionId"`
	Timestamp int64       `json:"timestamp"`
	Subject   string      `json:"subject"`
	ToolName  string      `json:"toolName,omitempty"`
	Arguments *string     `json:"arguments,omitempty"`
	Result    *ToolResult `json:"result,omitempty"`
	Path      string      `json:"path,omitempty"`
	Decision  string      `json:"decision,omitempty"`
	IsNew     *bool       `json:"isNew,omitempty"`
	Truncated bool        `json:"truncated,omitempty"`
}

// run runs the command if the matcher takes subject, and returns its
// stdout; ran is false when the matcher skipped it.
func (h *commandHook) run(c *Context, subject string, fill func(*envelope)) (out []byte, ran bool, err error) {
	if h.cfg.Matcher != "" && !strings.Contains(subject, h.cfg.Matcher) {
		return nil, false, nil
	}
	cwd := c.Workdir
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	env := envelope{Event: h.cfg.Event, Cwd: cwd, SessionID: c.Session.ID,
		Timestamp: c.System.Now().UnixMilli(), Subject: subject}
	if fill != nil {
		fill(&env)
	}
	stdin, err := json.Marshal(env)
	if err != nil {
		return nil, true, fmt.Errorf("command %q: the envelope: %w", h.cfg.Command[0], err)
	}
	out, err = proc.Run(c, proc.Command{Argv: h.cfg.Command, Dir: c.Workdir, Env: environ(c.Env),
		Stdin: stdin, Timeout: h.timeout, MaxOut: MaxCommandOutput})
	if err != nil {
		return out, true, fmt.Errorf("command %q: %w", h.cfg.Command[0], err)
	}
	return out, true, nil
}

func environ(env map[string]string) []string {
	if env == nil {
		return os.Environ()
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// decision reads a blocking event's stdout: block, with its reason.
func (h *commandHook) decision(out []byte) (block bool, reason string, err error) {
	out = bytes.TrimSpace(out)
	if len(out) == 0 {
		return false, "", nil
	}
	var d struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
	}
	if !json.Valid(out) {
		return false, "", fmt.Errorf("command %q printed malformed JSON: %s", h.cfg.Command[0], clip(out))
	}
	if json.Unmarshal(out, &d) != nil || d.Decision != "block" {
		return false, "", nil // anything else allows
	}
	return true, d.Reason, nil
}

// advise runs an advisory event and logs its output.
func (h *commandHook) advise(c *Context, subject string, fill func(*envelope)) error {
	out, _, err := h.run(c, subject, fill)
	for line := range strings.SplitSeq(strings.TrimRight(string(out), "\n"), "\n") {
		if line = strings.TrimRight(line, "\r"); line != "" {
			c.Log(line)
		}
	}
	return err
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
	return nil, h.advise(c, "user", nil)
}

// AfterModelResponse runs a turn_end command (advisory; subject "assistant").
func (h *commandHook) AfterModelResponse(c *Context, resp ModelResponse) (*ModelResponsePatch, error) {
	return nil, h.advise(c, "assistant", nil)
}

// BeforeToolExecute runs a pre_tool_call command, which may block the call.
func (h *commandHook) BeforeToolExecute(c *Context, call ToolCall) (*ToolCallPatch, error) {
	out, ran, err := h.run(c, call.Name, func(e *envelope) { toolEnvelope(e, call) })
	if !ran || err != nil {
		return nil, err
	}
	block, reason, err := h.decision(out)
	if !block || err != nil {
		return nil, err
	}
	return Refuse(reason), nil
}

// AfterToolExecute runs a post_tool_call command (advisory).
func (h *commandHook) AfterToolExecute(c *Context, call ToolCall, res ToolResult) (*ToolResultPatch, error) {
	return nil, h.advise(c, call.Name, func(e *envelope) {
		toolEnvelope(e, call)
		if len(res.Text) > maxEnvelopeText {
			res.Text, e.Truncated = res.Text[:maxEnvelopeText], true
		}
		res.Value = nil
		e.Result = &res
	})
}

func toolEnvelope(e *envelope, call ToolCall) {
	e.ToolName = call.Name
	args := "{}"
	if call.Arguments != nil {
		if data, err := json.Marshal(call.Arguments); err == nil {
			args = string(data)
		}
	}
	if len(args) > maxEnvelopeText {
		args, e.Truncated = args[:maxEnvelopeText], true
	}
	e.Arguments = &args
}

// BeforeTrustDecision makes the hook join trust decisions; the chain calls
// denyTrust instead, since a command hook may deny.
func (h *commandHook) BeforeTrustDecision(c *Context, req TrustRequest) (*TrustPatch, error) {
	return nil, nil
}

// denyTrust runs a pre_trust_decision command: a block denies.
func (h *commandHook) denyTrust(c *Context, req TrustRequest) (bool, error) {
	path := canonical(req.Path)
	isNew := req.IsNew
	out, ran, err := h.run(c, path, func(e *envelope) {
		e.Path, e.Decision, e.IsNew = path, string(req.Decision), &isNew
	})
	if !ran || err != nil {
		return false, err
	}
	block, _, err := h.decision(out)
	return block, err
}

// canonical is the project path as trust keys it: absolute, clean, with
// symbolic links resolved when it exists.
func canonical(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return filepath.Clean(path)
}
