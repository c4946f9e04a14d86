package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/rienda/hooks/internal/proc"
)

// claudeInput is what a handler reads on stdin, in Claude Code's
// snake_case. Fields an event does not have are left out.
type claudeInput struct {
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
}

// claudeOutput is the part of a handler's JSON output this library reads.
// Keys it does not know are ignored (some scripts echo their input).
type claudeOutput struct {
	Continue           *bool  `json:"continue"`
	StopReason         string `json:"stopReason"`
	SuppressOutput     bool   `json:"suppressOutput"`
	SystemMessage      string `json:"systemMessage"`
	Decision           string `json:"decision"`
	Reason             string `json:"reason"`
	HookSpecificOutput struct {
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason"`
		UpdatedInput             map[string]any  `json:"updatedInput"`
		AdditionalContext        string          `json:"additionalContext"`
		UpdatedToolOutput        json.RawMessage `json:"updatedToolOutput"`
		UpdatedMCPToolOutput     json.RawMessage `json:"updatedMCPToolOutput"`
	} `json:"hookSpecificOutput"`
}

// claudeResult is what one handler's run gave.
type claudeResult struct {
	blocked bool          // exit 2
	reason  string        // exit 2's reason: stderr, else stdout's "reason", else a fixed text
	out     *claudeOutput // the JSON on stdout, when it parsed
	text    string        // stdout that is not JSON (exit 0)
	err     error         // the handler failed: a diagnostic, or a refusal under failClosed
}

// stops reports whether the output asks to end the run ("continue": false),
// and with what reason.
func (r *claudeResult) stops(where string) (string, bool) {
	if r.out == nil || r.out.Continue == nil || *r.out.Continue {
		return "", false
	}
	if r.out.StopReason != "" {
		return r.out.StopReason, true
	}
	return "stopped by Claude Code hook " + where, true
}

// context is the text the handler adds to the model's context:
// additionalContext, or plain stdout.
func (r *claudeResult) context() string {
	if r.out != nil {
		return r.out.HookSpecificOutput.AdditionalContext
	}
	return strings.TrimSpace(r.text)
}

// claudeFailure is a handler that did not give a decision: it names the
// handler and its command, and keeps what happened.
type claudeFailure struct {
	where string
	argv  []string
	err   error
}

// Error names the handler, its command and what happened.
func (e *claudeFailure) Error() string {
	return fmt.Sprintf("Claude Code hook %s (%q): %v; the call goes on", e.where, e.argv, e.err)
}

// Unwrap returns what happened.
func (e *claudeFailure) Unwrap() error { return e.err }

// run runs h with in on stdin. A cancellation of c is returned as the
// error; every other failure is in the result.
func (h *claudeHandler) run(c *Context, in claudeInput) (claudeResult, error) {
	cwd := c.Workdir
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	in.SessionID, in.Cwd, in.PermissionMode = c.Session.ID, cwd, "default"
	stdin, err := encodeJSON(in)
	if err != nil {
		return claudeResult{err: &claudeFailure{h.where, h.argv, fmt.Errorf("the input cannot be sent as JSON: %w", err)}}, nil
	}
	env := append(withoutKey(environ(c.Env), "CLAUDE_PROJECT_DIR"), "CLAUDE_PROJECT_DIR="+cwd)
	out, err := proc.Run(c.base(), proc.Command{Argv: h.argv, Dir: c.Workdir, Env: env,
		Stdin: stdin, Timeout: h.timeout, MaxOut: MaxCommandOutput})
	if cerr := c.base().Err(); cerr != nil {
		return claudeResult{}, cerr
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		return parseClaudeStdout(out), nil
	case errors.As(err, &exit) && exit.ExitCode() == 2:
		r := parseClaudeStdout(out)
		r.text, r.blocked = "", true
		r.reason = strings.TrimSpace(strings.TrimPrefix(err.Error(), exit.Error()))
		r.reason = strings.TrimSpace(strings.TrimPrefix(r.reason, ":"))
		if r.reason == "" && r.out != nil {
			r.reason = r.out.Reason
		}
		if r.reason == "" {
			r.reason = "blocked by Claude Code hook " + h.where
		}
		return r, nil
	}
	return claudeResult{err: &claudeFailure{h.where, h.argv, err}}, nil
}

// parseClaudeStdout reads exit 0's stdout: a decision when it starts with
// "{" and parses, else plain text.
func parseClaudeStdout(out []byte) claudeResult {
	trimmed := bytes.TrimSpace(out)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		if o, ok := decodeClaudeOutput(trimmed); ok {
			return claudeResult{out: o}
		}
	}
	return claudeResult{text: string(out)}
}

// decodeClaudeOutput decodes leniently: a key of a type this library does
// not expect is skipped (encoding/json fills the others and reports the
// first mismatch), as an unknown key is, rather than losing the decision.
func decodeClaudeOutput(data []byte) (*claudeOutput, bool) {
	o := &claudeOutput{}
	var typeErr *json.UnmarshalTypeError
	if err := json.Unmarshal(data, o); err != nil && !errors.As(err, &typeErr) {
		return nil, false
	}
	return o, true
}

// withoutKey is env without the entries of key.
func withoutKey(env []string, key string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, key+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// notify sends the output's systemMessage to Host.Notify.
func (r *claudeResult) notify(c *Context, event string) {
	if r.out != nil && r.out.SystemMessage != "" {
		c.Notify(Notice{Title: "Claude Code hook (" + event + ")", Body: r.out.SystemMessage})
	}
}
