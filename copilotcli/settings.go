package copilotcli

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rienda/hooks/internal/exactjson"
	"github.com/rienda/hooks/internal/suggest"
)

// entry is one command hook of a file, ready to run.
type entry struct {
	where   string // "hooks.preToolUse[0]", for messages
	argv    []string
	cannot  string // why it cannot run on this system ("" when it can)
	cwd     string
	env     map[string]string
	timeout time.Duration
	matcher *matcher
}

// entryConfig is one entry as written. comment is in GitHub's own
// examples; command is the VS Code hook format's command for every
// system.
type entryConfig struct {
	Type       *string           `json:"type"`
	Bash       *string           `json:"bash"`
	PowerShell *string           `json:"powershell"`
	Command    *string           `json:"command"`
	Cwd        *string           `json:"cwd"`
	Env        map[string]string `json:"env"`
	TimeoutSec *float64          `json:"timeoutSec"`
	Matcher    *string           `json:"matcher"`
	Comment    json.RawMessage   `json:"comment"`
	Prompt     *string           `json:"prompt"`
}

var entryKeys = []string{"type", "bash", "powershell", "command", "cwd", "env", "timeoutSec", "matcher", "comment", "prompt"}

// settingsError is a malformed part of a hook file: path names it.
type settingsError struct{ path, msg string }

// Error names the part of the file at fault.
func (e *settingsError) Error() string {
	if e.path == "" {
		return "copilotcli: Copilot CLI hook file: " + e.msg
	}
	return "copilotcli: Copilot CLI hook file: " + e.path + ": " + e.msg
}

// maxTimeoutSec is the largest timeout that converts to a time.Duration.
var maxTimeoutSec = float64(math.MaxInt64 / int64(time.Second))

// parse reads a hook file strictly into its entries by event name.
func parse(data []byte, diag func(string, ...any), goos string) (map[string][]*entry, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		msg := `must be a JSON object: {"version": 1, "hooks": {...}}`
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, &settingsError{msg: msg}
	}
	for k := range top {
		if k != "version" && k != "hooks" {
			return nil, &settingsError{path: k, msg: "unknown key" + didYouMean(k, []string{"version", "hooks"})}
		}
	}
	if raw, ok := top["version"]; ok {
		var v float64
		if err := json.Unmarshal(raw, &v); err != nil || v != 1 {
			return nil, &settingsError{path: "version", msg: "must be 1, not " + string(raw)}
		}
	} else {
		diag(`the file has no "version": 1; read as version 1`)
	}
	raw, ok := top["hooks"]
	if !ok {
		return nil, &settingsError{msg: `has no "hooks" object`}
	}
	var events map[string]json.RawMessage
	if err := json.Unmarshal(raw, &events); err != nil || events == nil {
		return nil, &settingsError{path: "hooks", msg: `must be an object of events ({"preToolUse": [...]})`}
	}
	out := map[string][]*entry{}
	for _, name := range sortedKeys(events) {
		ev, known := eventNamed(name)
		if !known {
			if why, ok := unsupported[name]; ok {
				diag("hooks.%s: not run: %s", name, why)
				continue
			}
			if guess, ok := suggest.Closest(name, eventNames()); ok {
				return nil, &settingsError{path: "hooks." + name, msg: fmt.Sprintf("unknown event; did you mean %q?", guess)}
			}
			diag("hooks.%s: unknown event, not run", name)
			continue
		}
		entries, err := parseEntries(ev, events[name], diag, goos)
		if err != nil {
			return nil, err
		}
		out[name] = entries
	}
	return out, nil
}

// parseEntries reads the list of one event.
func parseEntries(ev event, raw json.RawMessage, diag func(string, ...any), goos string) ([]*entry, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, &settingsError{path: "hooks." + ev.name, msg: "must be a list of hook entries"}
	}
	var out []*entry
	for i, item := range list {
		where := fmt.Sprintf("hooks.%s[%d]", ev.name, i)
		e, err := parseEntry(ev, where, item, diag, goos)
		if err != nil {
			return nil, err
		}
		if e != nil {
			out = append(out, e)
		}
	}
	return out, nil
}

// parseEntry reads one entry; nil without an error is an entry not run
// here (a prompt hook), with a diagnostic.
func parseEntry(ev event, where string, raw json.RawMessage, diag func(string, ...any), goos string) (*entry, error) {
	var cfg entryConfig
	unknown, err := exactjson.Unmarshal(raw, &cfg)
	if err != nil {
		return nil, &settingsError{path: where, msg: "must be an entry {\"type\": \"command\", \"bash\": ...}: " + err.Error()}
	}
	if len(unknown) > 0 {
		return nil, &settingsError{path: where + "." + unknown[0], msg: "unknown key" + didYouMean(unknown[0], entryKeys)}
	}
	typ := "command"
	if cfg.Type != nil {
		typ = *cfg.Type
	}
	switch typ {
	case "command":
	case "prompt":
		if cfg.Prompt == nil || *cfg.Prompt == "" {
			return nil, &settingsError{path: where + ".prompt", msg: "a prompt hook needs a non-empty prompt"}
		}
		if ev.kind != kSessionStart {
			return nil, &settingsError{path: where + ".type", msg: `"prompt" hooks are only for sessionStart`}
		}
		diag("%s: a prompt hook is not run: it submits text as if the user typed it, and a run here takes its input from the host", where)
		return nil, nil
	default:
		return nil, &settingsError{path: where + ".type", msg: fmt.Sprintf(`must be "command" or "prompt", not %q`, typ)}
	}
	e := &entry{where: where, env: cfg.Env, timeout: DefaultTimeout}
	if err := e.setCommand(cfg, goos); err != nil {
		return nil, err
	}
	if e.cannot != "" {
		diag("%s: %s", where, e.cannot)
	}
	if cfg.Cwd != nil {
		e.cwd = *cfg.Cwd
	}
	if cfg.TimeoutSec != nil {
		t := *cfg.TimeoutSec
		if !(t > 0) || t > maxTimeoutSec {
			return nil, &settingsError{path: where + ".timeoutSec", msg: "must be a positive number of seconds"}
		}
		e.timeout = time.Duration(t * float64(time.Second))
	}
	if cfg.Matcher != nil {
		if ev.kind != kPreToolUse && ev.kind != kPermissionRequest && ev.kind != kPostToolUse && ev.kind != kPostToolUseFailure {
			diag("%s.matcher: %s has no matcher here: the entry runs for every firing", where, ev.name)
		} else {
			m, err := newMatcher(*cfg.Matcher)
			if err != nil {
				return nil, &settingsError{path: where + ".matcher", msg: err.Error()}
			}
			e.matcher = m
		}
	}
	return e, nil
}

// setCommand picks the command this system runs: bash (or the VS Code
// format's command) on Linux and macOS, powershell on Windows when it is
// given. An entry with only a powershell command does not run elsewhere:
// it is never run as something else.
func (e *entry) setCommand(cfg entryConfig, goos string) error {
	nonEmpty := func(p *string, key string) (string, error) {
		if p == nil {
			return "", nil
		}
		if strings.TrimSpace(*p) == "" {
			return "", &settingsError{path: e.where + "." + key, msg: "must be a non-empty command"}
		}
		return *p, nil
	}
	bash, err := nonEmpty(cfg.Bash, "bash")
	if err != nil {
		return err
	}
	ps, err := nonEmpty(cfg.PowerShell, "powershell")
	if err != nil {
		return err
	}
	cmd, err := nonEmpty(cfg.Command, "command")
	if err != nil {
		return err
	}
	if bash != "" && cmd != "" {
		return &settingsError{path: e.where, msg: `has both "bash" and "command": give one`}
	}
	if bash == "" {
		bash = cmd
	}
	switch {
	case bash == "" && ps == "":
		return &settingsError{path: e.where, msg: `needs a "bash" or a "powershell" command`}
	case goos == "windows" && ps != "":
		e.argv = []string{"powershell", "-NoProfile", "-NonInteractive", "-Command", ps}
	case bash != "":
		e.argv = []string{"bash", "-c", bash}
	default:
		e.cannot = fmt.Sprintf("has only a powershell command, which is not run on %s (never as bash): as a tool guard it refuses every call it matches; elsewhere it does nothing", goos)
	}
	return nil
}

// didYouMean is "; did you mean %q?" for the known word closest to word.
func didYouMean(word string, known []string) string {
	if guess, ok := suggest.Closest(word, known); ok {
		return fmt.Sprintf("; did you mean %q?", guess)
	}
	return "; the keys are " + strings.Join(known, ", ")
}

// sortedKeys are m's keys in order, so that errors are deterministic.
func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
