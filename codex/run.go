package codex

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// Output limits, as for Claude Code's dialect: the model chooses a
// call's size and a guard may quote it, so stdout is read up to
// maxOutput (twice what a call's arguments may take); past it the handler
// is killed and its decision is unknown, which never reads as an allow.
const (
	maxOutput = 16 << 20
	maxReason = 16 << 10
)

// input is what a handler reads on stdin: Codex's fields
// (codex-rs/hooks/src/schema.rs *CommandInput), snake_case. Fields an
// event does not have are left out.
type input struct {
	SessionID            string          `json:"session_id"`
	TurnID               *string         `json:"turn_id,omitempty"`
	TranscriptPath       *string         `json:"transcript_path"` // always sent: null, there is no Codex transcript here
	Cwd                  string          `json:"cwd"`
	HookEventName        string          `json:"hook_event_name"`
	Model                string          `json:"model"`
	PermissionMode       string          `json:"permission_mode"`
	ToolName             string          `json:"tool_name,omitempty"`
	ToolInput            json.RawMessage `json:"tool_input,omitempty"`
	ToolResponse         any             `json:"tool_response,omitempty"`
	ToolUseID            string          `json:"tool_use_id,omitempty"`
	Prompt               *string         `json:"prompt,omitempty"`
	StopHookActive       *bool           `json:"stop_hook_active,omitempty"`
	LastAssistantMessage *string         `json:"last_assistant_message,omitempty"`
	Source               string          `json:"source,omitempty"`
	Reason               string          `json:"reason,omitempty"`
}

// result is what one handler's run gave.
type result struct {
	hd      *handler
	exit2   bool   // exited 2
	stderr  string // exit 2's stderr, trimmed
	stdout  []byte
	out     *output // exit 0's JSON, when Codex reads it
	bad     error   // exit 0's JSON that Codex refuses: a failed hook
	text    string  // exit 0's plain text
	err     error   // the handler failed (an exit other than 0 and 2, a timeout, no shell)
	tooMuch bool    // it printed more than can be read: its decision is unknown
	unsent  bool    // its input could not be sent: it never saw the call
}

// failure is a handler that gave no decision.
type failure struct {
	where   string
	command string
	err     error
	then    string
}

// Error names the handler, its command, what happened and what follows.
func (e *failure) Error() string {
	return fmt.Sprintf("Codex hook %s (%q): %v; %s", e.where, e.command, e.err, e.then)
}

// BlockMessage is what the model reads after "Tool call blocked: " when
// the failure refuses the call (hooks.FailClosed).
func (e *failure) BlockMessage() string {
	if errors.Is(e.err, dialect.ErrOutputTooLarge) {
		return "Codex hook " + e.where + " printed more than can be read, so its decision is unknown"
	}
	return "Codex hook " + e.where + " failed"
}

// Unwrap returns what happened.
func (e *failure) Unwrap() error { return e.err }

func (h *handler) fail(err error, then string) *failure {
	return &failure{where: h.where, command: h.command, err: err, then: then}
}

// argv is how h's command runs: $SHELL -lc <command>, as Codex's
// default_shell_command, with /bin/sh when SHELL is unset or empty, or
// the program the Shell option gave.
func (h *handler) argv(env []string) []string {
	if sh := h.set.opts.shell; sh != nil {
		return append(append([]string(nil), sh...), h.command)
	}
	shell := "/bin/sh"
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "SHELL="); ok && v != "" {
			shell = v
		}
	}
	return []string{shell, "-lc", h.command}
}

// runAll starts every handler at once, as Codex's dispatcher does, and
// returns their results in the file's order once all have ended: no
// process or goroutine outlives the call. A cancellation of the call is
// returned as the error.
func runAll(c *hooks.Context, hs []*handler, in input) ([]result, error) {
	in.SessionID, in.Cwd, in.PermissionMode = c.Session.ID, dialect.Workdir(c), "default"
	stdin, err := dialect.EncodeJSON(in)
	if err != nil {
		out := make([]result, len(hs))
		for i, hd := range hs {
			out[i] = result{hd: hd, unsent: true, err: hd.fail(fmt.Errorf("the input cannot be sent as JSON: %w", err), "")}
		}
		return out, nil
	}
	env := dialect.Environ(c)
	out := make([]result, len(hs))
	errs := make([]error, len(hs))
	var wg sync.WaitGroup
	for i, hd := range hs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o, err := dialect.Exec(c, dialect.Command{Argv: hd.argv(env), Env: env, Stdin: stdin,
				Timeout: hd.timeout, MaxOutput: maxOutput})
			out[i], errs[i] = hd.decide(o), err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decide reads a handler's end as Codex's parse_completed does.
func (h *handler) decide(o dialect.Output) result {
	r := result{hd: h, stdout: o.Stdout}
	switch {
	case o.TooLarge():
		r.err, r.tooMuch = h.fail(fmt.Errorf("its output cannot be read: %w", o.Err), ""), true
		return r
	case o.Err != nil:
		r.err = h.fail(o.Err, "")
		return r
	case o.ExitCode == 2:
		r.exit2 = true
		r.stderr = cut(o.Stderr)
		return r
	case o.ExitCode != 0:
		r.err = h.fail(fmt.Errorf("hook exited with code %d", o.ExitCode), "")
		return r
	}
	if len(bytes.TrimSpace(o.Stdout)) == 0 {
		return r
	}
	out, perr := parseOutput(h.event, o.Stdout)
	switch {
	case perr == nil:
		r.out = out
	case looksLikeJSON(o.Stdout):
		r.bad = fmt.Errorf("hook returned invalid %s JSON output: %w", h.event, perr)
	default:
		r.text = strings.TrimSpace(string(o.Stdout))
	}
	return r
}

// cut keeps at most maxReason bytes of s, at a character boundary, and
// says how long it was: a reason is cut, never dropped.
func cut(s string) string {
	if len(s) <= maxReason {
		return s
	}
	end := maxReason
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + fmt.Sprintf(" […cut: %d bytes in all]", len(s))
}
