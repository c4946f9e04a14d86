package copilotcli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rienda/hooks/dialect"
)

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

// maxTimeoutSec is the largest timeout that converts to a time.Duration.
var maxTimeoutSec = float64(math.MaxInt64 / int64(time.Second))

// loaded is what a hook file gives.
type loaded struct {
	handlers   map[string][]*dialect.Handler
	unrunnable map[string][]unrunnable // guard entries with only a powershell command, off Windows
	matchers   []*matcher
}

// unrunnable is a guard entry that cannot run on this system.
type unrunnable struct {
	where   string
	matcher *matcher
}

// load reads a hook file strictly: what cannot load is an error naming
// the file, the line and the entry.
func load(data []byte, o *dialect.Options, goos string) (*loaded, error) {
	s := dialect.NewSettings("copilotcli: Copilot CLI hook file", o.File, data, o.Diagnostics)
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		msg := `must be a JSON object: {"version": 1, "hooks": {...}}`
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, s.Errorf("", "%s", msg)
	}
	for _, k := range sortedKeys(top) {
		if k != "version" && k != "hooks" {
			return nil, s.Errorf(k, "unknown key%s", didYouMean(k, []string{"version", "hooks"}))
		}
	}
	if raw, ok := top["version"]; ok {
		var v float64
		if err := json.Unmarshal(raw, &v); err != nil || v != 1 {
			return nil, s.Errorf("version", "must be 1, not %s", raw)
		}
	} else {
		s.Warnf("", `the file has no "version": 1; read as version 1`)
	}
	raw, ok := top["hooks"]
	if !ok {
		return nil, s.Errorf("", `has no "hooks" object`)
	}
	var events map[string]json.RawMessage
	if err := json.Unmarshal(raw, &events); err != nil || events == nil {
		return nil, s.Errorf("hooks", `must be an object of events ({"preToolUse": [...]})`)
	}
	l := &loaded{handlers: map[string][]*dialect.Handler{}, unrunnable: map[string][]unrunnable{}}
	for _, name := range sortedKeys(events) {
		path := "hooks." + name
		if !slices.Contains(runEvents, name) {
			if why, ok := unsupported[name]; ok {
				s.Warnf(path, "event %q not run by this library, skipped: %s", name, why)
				continue
			}
			known := append(append([]string(nil), runEvents...), sortedKeys(unsupported)...)
			if guess, ok := dialect.Closest(name, known); ok {
				return nil, s.Errorf(path, "unknown event; did you mean %q?", guess)
			}
			s.Warnf(path, "unknown event %q, not run", name)
			continue
		}
		var list []json.RawMessage
		if err := json.Unmarshal(events[name], &list); err != nil {
			return nil, s.Errorf(path, "must be a list of hook entries")
		}
		for i, item := range list {
			if err := l.entry(s, name, fmt.Sprintf("%s[%d]", path, i), item, goos); err != nil {
				return nil, err
			}
		}
	}
	l.checkNames(s, o)
	return l, nil
}

// entry reads one entry of event ev at path.
func (l *loaded) entry(s *dialect.Settings, ev, path string, raw json.RawMessage, goos string) error {
	var cfg entryConfig
	unknown, err := dialect.Decode(raw, &cfg)
	if err != nil {
		return s.Errorf(path, `must be an entry {"type": "command", "bash": "..."}: %v`, err)
	}
	if len(unknown) > 0 {
		return s.Errorf(path+"."+unknown[0], "unknown key%s", didYouMean(unknown[0], entryKeys))
	}
	if run, err := commandEntry(s, ev, path, cfg); !run || err != nil {
		return err
	}
	where := strings.TrimPrefix(path, "hooks.")
	h := &dialect.Handler{Where: where, Timeout: DefaultTimeout, Env: expandEnv(cfg.Env)}
	var m *matcher
	if cfg.Matcher != nil {
		if !toolEvents[ev] {
			s.Warnf(path+".matcher", "%s has no matcher here: the entry runs for every firing", ev)
		} else {
			if m, err = newMatcher(path+".matcher", *cfg.Matcher); err != nil {
				return s.Errorf(path+".matcher", "%v", err)
			}
			h.Matcher = m
			l.matchers = append(l.matchers, m)
		}
	}
	if cfg.TimeoutSec != nil {
		t := *cfg.TimeoutSec
		if !(t > 0) || t > maxTimeoutSec {
			return s.Errorf(path+".timeoutSec", "must be a positive number of seconds")
		}
		h.Timeout = time.Duration(t * float64(time.Second))
	}
	script, ps, err := commands(s, path, cfg)
	if err != nil {
		return err
	}
	cwd := ""
	if cfg.Cwd != nil {
		cwd = *cfg.Cwd
	}
	switch {
	case goos == "windows" && ps != "":
		h.Argv, h.Dir = powershellArgv(ps, cwd)
	case script != "":
		h.Argv, h.Dir = bashArgv(script, cwd, guardEvents[ev])
	default:
		what := fmt.Sprintf("has only a powershell command, which is not run on %s (never as bash)", goos)
		if guardEvents[ev] {
			s.Warnf(path, "%s: as a tool guard it refuses every call it matches", what)
			l.unrunnable[ev] = append(l.unrunnable[ev], unrunnable{where: where, matcher: m})
		} else {
			s.Warnf(path, "%s: it does nothing", what)
		}
		return nil
	}
	l.handlers[ev] = append(l.handlers[ev], h)
	return nil
}

// commandEntry reports whether an entry is a command hook to run: a
// prompt hook is not run (a diagnostic says why); another type is an
// error.
func commandEntry(s *dialect.Settings, ev, path string, cfg entryConfig) (bool, error) {
	typ := "command"
	if cfg.Type != nil {
		typ = *cfg.Type
	}
	switch typ {
	case "command":
	case "prompt":
		if cfg.Prompt == nil || strings.TrimSpace(*cfg.Prompt) == "" {
			return false, s.Errorf(path+".prompt", "a prompt hook needs a non-empty prompt")
		}
		if ev != "sessionStart" && ev != "SessionStart" {
			return false, s.Errorf(path+".type", `"prompt" hooks are only for sessionStart`)
		}
		s.Warnf(path, "a prompt hook is not run: it submits text as if the user typed it, and a run here takes its input from the host")
		return false, nil
	default:
		return false, s.Errorf(path+".type", `must be "command" or "prompt", not %q`, typ)
	}
	return true, nil
}

// commands are an entry's bash (or the VS Code format's command) and
// powershell texts; one of them is required, and a given one is not blank.
func commands(s *dialect.Settings, path string, cfg entryConfig) (script, ps string, err error) {
	get := func(p *string, key string) (string, error) {
		if p == nil {
			return "", nil
		}
		if strings.TrimSpace(*p) == "" {
			return "", s.Errorf(path+"."+key, "must be a non-empty command")
		}
		return *p, nil
	}
	if script, err = get(cfg.Bash, "bash"); err != nil {
		return
	}
	if ps, err = get(cfg.PowerShell, "powershell"); err != nil {
		return
	}
	cmd, err := get(cfg.Command, "command")
	if err != nil {
		return
	}
	switch {
	case script != "" && cmd != "":
		return "", "", s.Errorf(path, `has both "bash" and "command": give one`)
	case script == "":
		script = cmd
	}
	if script == "" && ps == "" {
		return "", "", s.Errorf(path, `needs a "bash" or a "powershell" command`)
	}
	return script, ps, nil
}

// bashArgv runs script with bash in cwd: an absolute cwd is the handler's
// folder; a relative one is entered from the run's workdir (the
// repository root) before the script runs, and a cwd that cannot be
// entered fails the entry, as a missing folder does in Copilot CLI. A
// guard's script runs under a bash that waits for it, so that a script
// killed by a signal (a crash) is an exit of 128+n, which refuses, as an
// errored preToolUse hook does; only the entry's own timeout fails open.
func bashArgv(script, cwd string, guard bool) ([]string, string) {
	dir := ""
	switch {
	case cwd == "" || cwd == ".":
	case filepath.IsAbs(cwd):
		dir = cwd
	default:
		script = "cd -- " + shellQuote(cwd) + " || exit 1\n" + script
	}
	if guard {
		return []string{"bash", "-c", `bash -c "$1"; exit`, "bash", script}, dir
	}
	return []string{"bash", "-c", script}, dir
}

// powershellArgv runs script with PowerShell in cwd, as bashArgv does
// with bash (not tested here: this library's tests run on Linux).
func powershellArgv(script, cwd string) ([]string, string) {
	dir := ""
	switch {
	case cwd == "" || cwd == ".":
	case filepath.IsAbs(cwd):
		dir = cwd
	default:
		script = "Set-Location -LiteralPath '" + strings.ReplaceAll(cwd, "'", "''") + "' -ErrorAction Stop; " + script
	}
	return []string{"powershell", "-NoProfile", "-NonInteractive", "-Command", script}, dir
}

// shellQuote quotes s as one bash word.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// expandEnv expands $VAR and ${VAR} in an entry's env values against the
// process environment, as Copilot CLI expands them against its own.
func expandEnv(env map[string]string) map[string]string {
	if env == nil {
		return nil
	}
	out := make(map[string]string, len(env))
	for k, v := range env {
		out[k] = os.ExpandEnv(v)
	}
	return out
}

// didYouMean is "; did you mean %q?" for the known word closest to word,
// or the words there are.
func didYouMean(word string, known []string) string {
	if guess, ok := dialect.Closest(word, known); ok {
		return fmt.Sprintf("; did you mean %q?", guess)
	}
	return "; the keys are " + strings.Join(known, ", ")
}

// sortedKeys are m's keys in order, so that errors are deterministic.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
