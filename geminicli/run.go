package geminicli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
	"github.com/rienda/hooks/internal/proc"
)

// input is what a handler reads on stdin, in Gemini CLI's field names and
// order. Fields an event does not have are left out.
type input struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	Timestamp      string          `json:"timestamp"`
	ToolName       string          `json:"tool_name,omitempty"`
	ToolInput      json.RawMessage `json:"tool_input,omitempty"`
	ToolResponse   json.RawMessage `json:"tool_response,omitempty"`
	Prompt         *string         `json:"prompt,omitempty"`
	PromptResponse *string         `json:"prompt_response,omitempty"`
	StopHookActive *bool           `json:"stop_hook_active,omitempty"`
	Source         string          `json:"source,omitempty"`
	Reason         string          `json:"reason,omitempty"`
	LLMRequest     json.RawMessage `json:"llm_request,omitempty"`
	LLMResponse    json.RawMessage `json:"llm_response,omitempty"`
}

// result is what one handler's run gave.
type result struct {
	h       *handler
	out     *output  // the output as Gemini CLI's runner reads it; nil: none
	success bool     // exit 0: the output feeds the next handler of a sequential plan
	code    int      // the exit status; not 0: Gemini CLI reports the hook as failed
	stderr  string   // the end of stderr of a non-zero exit
	tooBig  bool     // stdout passed MaxOutput: its decision cannot be read
	unknown []string // output keys no field took (typos are diagnosed)
	err     error    // the handler failed (timeout, start, escape): a diagnostic
	// evident is how the output evidently refuses when Gemini CLI would
	// not read a deny in it (evident.go); the result then denies.
	evident string
}

// failure is a handler that gave no output: it names the handler and its
// command, and keeps what happened.
type failure struct {
	where   string
	command string
	err     error
}

// Error names the handler, its command and what happened.
func (e *failure) Error() string {
	return fmt.Sprintf("Gemini CLI hook %s (%q): %v", e.where, e.command, e.err)
}

// Unwrap returns what happened.
func (e *failure) Unwrap() error { return e.err }

// BlockMessage is what the model reads when the failure refuses a tool
// call: which handler, and why, without its command.
func (e *failure) BlockMessage() string {
	if errors.Is(e.err, proc.ErrOutputTooLarge) {
		return "the output of Gemini CLI hook " + e.where + " is too large to read"
	}
	return "Gemini CLI hook " + e.where + " failed"
}

// workdir is the run's working folder: Host.Workdir, or the process's.
func workdir(c *hooks.Context) string { return dialect.Workdir(c) }

// run runs h with in on stdin (the common fields filled here). A
// cancellation of c is returned as the error; every other failure is in
// the result.
func (h *handler) run(c *hooks.Context, in input) (result, error) {
	cwd := workdir(c)
	in.SessionID, in.Cwd, in.TranscriptPath = c.Session.ID, cwd, ""
	in.Timestamp = time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	stdin, err := encodeJSON(in)
	if err != nil {
		return result{h: h, err: &failure{h.where, h.command, fmt.Errorf("the input cannot be sent as JSON: %w", err)}}, nil
	}
	vars := h.vars(c, cwd)
	argv := []string{"bash", "-c", expand(h.command, vars)}
	got, err := proc.Exec(c, proc.Command{Argv: argv, Dir: cwd, Env: h.environ(c, vars),
		Stdin: stdin, Timeout: h.timeout, MaxOut: MaxOutput})
	if got.Overflow && !errors.Is(err, proc.ErrOutputTooLarge) {
		err = fmt.Errorf("%w: more than %d bytes on stdout", proc.ErrOutputTooLarge, MaxOutput)
	}
	out := got.Stdout
	if cerr := c.Err(); cerr != nil {
		return result{}, cerr
	}
	guard := guardEvent(in.HookEventName)
	var exit *exec.ExitError
	switch {
	case err == nil:
		// The runner reads stderr when stdout is blank, after exit 0 too:
		// a deny written there denies (its last 2 KiB are kept).
		r := h.read(out, strings.TrimSpace(string(got.Stderr)), 0)
		if guard {
			readEvident(&r, readText(out, string(got.Stderr)))
		}
		return r, nil
	case errors.Is(err, proc.ErrOutputTooLarge):
		return result{h: h, tooBig: true, err: &failure{h.where, h.command, err}}, nil
	case errors.As(err, &exit):
		code := exit.ExitCode()
		if code < 0 {
			code = 0 // killed by a signal of its own: Node reports no code, and the runner reads it as 0
		}
		r := h.read(out, stderrOf(err, exit), code)
		if guard {
			readEvident(&r, readText(out, stderrOf(err, exit)))
		}
		r.code, r.stderr = exit.ExitCode(), stderrOf(err, exit)
		return r, nil
	}
	if guard {
		if r, ok := h.timedOutRead(out); ok {
			r.err = &failure{h.where, h.command, fmt.Errorf("%w; it printed a refusal first, which denies", err)}
			return r, nil
		}
	}
	return result{h: h, err: &failure{h.where, h.command, err}}, nil
}

// readText is what the runner reads of a handler: stdout, or stderr when
// stdout is blank, trimmed.
func readText(stdout []byte, stderr string) string {
	if text := strings.TrimSpace(string(stdout)); text != "" {
		return text
	}
	return strings.TrimSpace(stderr)
}

// stderrOf is the end of stderr that proc.Run keeps in a non-zero exit's
// error ("exit status 2: <stderr>").
func stderrOf(err error, exit *exec.ExitError) string {
	s := strings.TrimPrefix(err.Error(), exit.Error())
	return strings.TrimSpace(strings.TrimPrefix(s, ":"))
}

// read reads what a handler printed as Gemini CLI's runner does: stdout,
// or stderr when stdout is blank, trimmed; a JSON object (or a JSON string
// holding one) is the output; other text is a systemMessage after exit 0,
// a warning after exit 1, a denial with the text as its reason after any
// other exit. Exit 2 denies whatever was printed (Gemini CLI's documented
// "System Block"; its runner would let an exit 2 with blank or
// non-deciding output through).
func (h *handler) read(stdout []byte, stderr string, code int) result {
	r := result{h: h, success: code == 0}
	text := strings.TrimSpace(string(stdout))
	if text == "" {
		text = stderr
	}
	if text != "" {
		o, isJSON, unknown := parseOutput(text)
		switch {
		case o != nil:
			r.out, r.unknown = o, unknown
		case !isJSON || code >= 2: // a JSON value that is not an object says nothing; after a failing exit it is the text
			r.out = textOutput(text, code)
		}
	}
	if code == 2 && (r.out == nil || !r.out.blocking()) {
		reason := stderr
		if reason == "" {
			reason = text
		}
		if reason == "" {
			reason = "Gemini CLI hook " + h.where + " exited 2"
		}
		if r.out == nil {
			r.out = &output{}
		}
		r.out.Decision, r.out.Reason = json.RawMessage(`"deny"`), jsonString(reason)
	}
	return r
}

// textOutput is the runner's reading of text that is not JSON.
func textOutput(text string, code int) *output {
	switch code {
	case 0:
		return &output{CommonOutput: dialect.CommonOutput{Decision: json.RawMessage(`"allow"`), SystemMessage: jsonString(text)}}
	case 1:
		return &output{CommonOutput: dialect.CommonOutput{Decision: json.RawMessage(`"allow"`), SystemMessage: jsonString("Warning: " + text)}}
	}
	return &output{CommonOutput: dialect.CommonOutput{Decision: json.RawMessage(`"deny"`), Reason: jsonString(text)}}
}

// jsonString is s as a JSON string.
func jsonString(s string) json.RawMessage {
	data, _ := encodeJSON(s)
	return data
}

// vars are the values Gemini CLI gives a command, by variable name.
func (h *handler) vars(c *hooks.Context, cwd string) map[string]string {
	plans := c.Env["GEMINI_PLANS_DIR"]
	if plans == "" {
		plans = filepath.Join(cwd, ".gemini", "plans")
	}
	return map[string]string{"GEMINI_PROJECT_DIR": cwd, "GEMINI_CWD": cwd, "GEMINI_PLANS_DIR": plans,
		"GEMINI_SESSION_ID": c.Session.ID, "CLAUDE_PROJECT_DIR": cwd}
}

// expandOrder is the order the runner replaces variables in a command.
var expandOrder = []string{"GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_PLANS_DIR", "GEMINI_SESSION_ID", "CLAUDE_PROJECT_DIR"}

// expand replaces $GEMINI_PROJECT_DIR and its kin in a command by their
// values, quoted for bash, as the runner does before the shell sees it
// (an empty value becomes nothing, as the runner's escape makes it).
func expand(command string, vars map[string]string) string {
	for _, name := range expandOrder {
		command = strings.ReplaceAll(command, "$"+name, shellQuote(vars[name]))
	}
	return command
}

// plainArg is text bash reads as itself.
var plainArg = regexp.MustCompile(`^[A-Za-z0-9_/.,:@%+=-]+$`)

// shellQuote quotes s as one bash word.
func shellQuote(s string) string {
	if s == "" || plainArg.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// environ is the command's environment: the run's (Host.Env, or the
// process's), Gemini CLI's variables, then the handler's "env".
func (h *handler) environ(c *hooks.Context, vars map[string]string) []string {
	return dialect.Environ(c, vars, h.env)
}

// encodeJSON is v as JSON, without HTML escapes (as JSON.stringify
// writes it): a guard that looks for "a && b" finds it.
func encodeJSON(v any) ([]byte, error) { return dialect.EncodeJSON(v) }
