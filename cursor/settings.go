package cursor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rienda/hooks/internal/exactjson"
	"github.com/rienda/hooks/internal/suggest"
)

// entry is one command hook of a hooks.json, ready to run.
type entry struct {
	where      string // "hooks.beforeShellExecution[0]", for messages
	command    string
	timeout    time.Duration
	failClosed bool
	loopLimit  int // stop: follow-ups in a row it may send; < 0: no limit
	matcher    *matcher
}

// entryConfig is one entry as written.
type entryConfig struct {
	Command    *string         `json:"command"`
	Type       *string         `json:"type"`
	Timeout    *float64        `json:"timeout"`
	Matcher    *string         `json:"matcher"`
	FailClosed *bool           `json:"failClosed"`
	LoopLimit  json.RawMessage `json:"loop_limit"`
	Prompt     *string         `json:"prompt"`
	Model      *string         `json:"model"`
}

var entryKeys = []string{"command", "type", "timeout", "matcher", "failClosed", "loop_limit", "prompt", "model"}

// settingsError is a malformed part of a hooks.json: path names it.
type settingsError struct{ path, msg string }

// Error names the part of the file at fault.
func (e *settingsError) Error() string {
	if e.path == "" {
		return "cursor: Cursor hooks.json: " + e.msg
	}
	return "cursor: Cursor hooks.json: " + e.path + ": " + e.msg
}

// maxTimeout is the largest timeout, in seconds, that converts to a
// time.Duration.
var maxTimeout = float64(math.MaxInt64 / int64(time.Second))

// parse reads a hooks.json strictly into its entries by event name.
func parse(data []byte, diag func(string, ...any)) (map[string][]*entry, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		msg := `must be a JSON object: {"version": 1, "hooks": {...}}`
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, &settingsError{msg: msg}
	}
	for k := range top {
		if k != "version" && k != "hooks" && k != "$schema" {
			return nil, &settingsError{path: k, msg: "unknown key" + didYouMean(k, []string{"version", "hooks"})}
		}
	}
	raw, ok := top["version"]
	if !ok {
		return nil, &settingsError{path: "version", msg: "missing: Cursor reads a hooks.json with \"version\": 1"}
	}
	var v float64
	if err := json.Unmarshal(raw, &v); err != nil || v != 1 {
		return nil, &settingsError{path: "version", msg: "must be 1, not " + string(raw)}
	}
	raw, ok = top["hooks"]
	if !ok {
		return nil, &settingsError{msg: `has no "hooks" object`}
	}
	var events map[string]json.RawMessage
	if err := json.Unmarshal(raw, &events); err != nil || events == nil {
		return nil, &settingsError{path: "hooks", msg: `must be an object of events ({"beforeShellExecution": [...]})`}
	}
	out := map[string][]*entry{}
	keys := make([]string, 0, len(events))
	for k := range events {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, name := range keys {
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
		var list []json.RawMessage
		if err := json.Unmarshal(events[name], &list); err != nil {
			return nil, &settingsError{path: "hooks." + name, msg: "must be a list of hook entries"}
		}
		for i, item := range list {
			e, err := parseEntry(ev, fmt.Sprintf("hooks.%s[%d]", name, i), item, diag)
			if err != nil {
				return nil, err
			}
			if e != nil {
				out[name] = append(out[name], e)
			}
		}
	}
	return out, nil
}

// parseEntry reads one entry; nil without an error is an entry not run
// here (a prompt hook), with a diagnostic.
func parseEntry(ev event, where string, raw json.RawMessage, diag func(string, ...any)) (*entry, error) {
	var cfg entryConfig
	unknown, err := exactjson.Unmarshal(raw, &cfg)
	if err != nil {
		return nil, &settingsError{path: where, msg: `must be an entry {"command": "..."}: ` + err.Error()}
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
		diag("%s: a prompt hook (an LLM judges the event) is not run: this library runs command hooks; write it as a command", where)
		return nil, nil
	default:
		return nil, &settingsError{path: where + ".type", msg: fmt.Sprintf(`must be "command" or "prompt", not %q`, typ)}
	}
	if cfg.Command == nil || strings.TrimSpace(*cfg.Command) == "" {
		return nil, &settingsError{path: where + ".command", msg: "must be a non-empty command"}
	}
	e := &entry{where: where, command: *cfg.Command, timeout: DefaultTimeout, loopLimit: DefaultLoopLimit}
	if cfg.Timeout != nil {
		t := *cfg.Timeout
		if !(t > 0) || t > maxTimeout {
			return nil, &settingsError{path: where + ".timeout", msg: "must be a positive number of seconds"}
		}
		e.timeout = time.Duration(t * float64(time.Second))
	}
	if cfg.FailClosed != nil {
		e.failClosed = *cfg.FailClosed
		if e.failClosed && !ev.guard() {
			diag("%s.failClosed: %s decides no tool call: a failure there is a diagnostic all the same", where, ev.name)
		}
	}
	if len(cfg.LoopLimit) > 0 {
		if ev.kind != kStop {
			return nil, &settingsError{path: where + ".loop_limit", msg: "is only for stop entries"}
		}
		if bytes.Equal(bytes.TrimSpace(cfg.LoopLimit), []byte("null")) {
			e.loopLimit = -1
		} else {
			var n float64
			if err := json.Unmarshal(cfg.LoopLimit, &n); err != nil || n < 0 || n != math.Trunc(n) || n > math.MaxInt32 {
				return nil, &settingsError{path: where + ".loop_limit", msg: "must be a whole number of follow-ups, or null for no limit"}
			}
			e.loopLimit = int(n)
		}
	}
	if cfg.Matcher != nil {
		if ev.matchOn == "" {
			diag("%s.matcher: %s takes no matcher here: the entry runs for every firing", where, ev.name)
		} else {
			m, err := newMatcher(*cfg.Matcher, ev.matchOn == "tool")
			if err != nil {
				return nil, &settingsError{path: where + ".matcher", msg: err.Error()}
			}
			e.matcher = m
		}
	}
	return e, nil
}

// didYouMean is "; did you mean %q?" for the known word closest to word.
func didYouMean(word string, known []string) string {
	if guess, ok := suggest.Closest(word, known); ok {
		return fmt.Sprintf("; did you mean %q?", guess)
	}
	return "; the keys are " + strings.Join(known, ", ")
}
