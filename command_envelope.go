package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"unicode/utf8"
)

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

	// turn_start: the request's tool choice and settings (absent: the
	// provider's defaults); turn_end: the reply's reasoning, cut like a
	// tool result's text (truncated says so).
	ToolChoice *ToolChoice    `json:"toolChoice,omitempty"`
	Settings   *ModelSettings `json:"settings,omitempty"`
	Reasoning  string         `json:"reasoning,omitempty"`
}

// requestEnvelope adds a model request's tool choice and settings to e.
func requestEnvelope(e *envelope, req ModelRequest) error {
	e.ToolChoice, e.Settings = req.ToolChoice, req.Settings
	return nil
}

// responseEnvelope adds a reply's reasoning to e, at most maxResultText
// bytes of it.
func responseEnvelope(e *envelope, resp ModelResponse) error {
	e.Reasoning = resp.Reasoning
	if len(e.Reasoning) > maxResultText {
		e.Reasoning, e.Truncated = cutText(e.Reasoning, maxResultText), true
	}
	return nil
}

// toolEnvelope adds a tool call to e: its name, and its arguments whole.
func toolEnvelope(e *envelope, call ToolCall) error {
	args, err := encodeArguments(call.Arguments)
	if err != nil {
		return err
	}
	e.ToolName, e.Arguments = call.Name, &args
	return nil
}

// cutText cuts s to at most n bytes at a character boundary: a half
// character would reach the command as U+FFFD, a character not in the text.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for i := 0; i < utf8.UTFMax-1 && n > 0 && !utf8.RuneStart(s[n]); i++ {
		n--
	}
	return s[:n]
}

// encodeArguments is EncodeArguments within the bound a command hook is
// sent: more than maxToolArguments bytes is a call the hook cannot see.
func encodeArguments(args map[string]any) (string, error) {
	text, err := EncodeArguments(args)
	if err != nil {
		return "", fmt.Errorf("the arguments cannot be sent as JSON, so the hook cannot see the call: %w", err)
	}
	if len(text) > maxToolArguments {
		return "", fmt.Errorf("the arguments take %d bytes of JSON, more than the %d (8 MiB) a command hook is sent; they are never cut, so the hook cannot see the call",
			len(text), maxToolArguments)
	}
	return text, nil
}

// exactStrings checks the strings a guard decides on: JSON would send
// U+FFFD for bytes that are not UTF-8, and the guard judge another name.
func exactStrings(e *envelope) error {
	for _, f := range [...]struct{ name, value string }{{"subject", e.Subject}, {"toolName", e.ToolName},
		{"path", e.Path}, {"cwd", e.Cwd}, {"sessionId", e.SessionID}, {"decision", e.Decision}} {
		if !utf8.ValidString(f.value) {
			return fmt.Errorf("the %s %q is not UTF-8, so the hook cannot see it exactly", f.name, f.value)
		}
	}
	return nil
}

// environ is the command's environment: env, sorted, or the process's.
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
