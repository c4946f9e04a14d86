package cursor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rienda/hooks/dialect"
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

// maxTimeout is the largest timeout, in seconds, that converts to a
// time.Duration.
var maxTimeout = float64(math.MaxInt64 / int64(time.Second))

// parse reads a hooks.json strictly into its entries by event name.
func parse(s *dialect.Settings, data []byte) (map[string][]*entry, error) {
	events, err := eventsObject(s, data)
	if err != nil {
		return nil, err
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
				s.Warnf("hooks."+name, "event %q not run by this library, skipped: %s", name, why)
				continue
			}
			if guess, ok := dialect.Closest(name, eventNames()); ok {
				return nil, s.Errorf("hooks."+name, "%s", fmt.Sprintf("unknown event; did you mean %q?", guess))
			}
			s.Warnf("hooks."+name, "unknown event %q, not run", name)
			continue
		}
		var list []json.RawMessage
		if err := json.Unmarshal(events[name], &list); err != nil {
			return nil, s.Errorf("hooks."+name, "%s", "must be a list of hook entries")
		}
		for i, item := range list {
			e, err := parseEntry(s, ev, fmt.Sprintf("hooks.%s[%d]", name, i), item)
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

// eventsObject is the "hooks" object of a hooks.json, whose top level is
// checked: "version" 1, no key Cursor does not read.
func eventsObject(s *dialect.Settings, data []byte) (map[string]json.RawMessage, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		msg := `must be a JSON object: {"version": 1, "hooks": {...}}`
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, s.Errorf("", "%s", msg)
	}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if k != "version" && k != "hooks" && k != "$schema" {
			return nil, s.Errorf(k, "unknown key%s", didYouMean(k, []string{"version", "hooks"}))
		}
	}
	raw, ok := top["version"]
	if !ok {
		return nil, s.Errorf("version", "%s", "missing: Cursor reads a hooks.json with \"version\": 1")
	}
	var v float64
	if err := json.Unmarshal(raw, &v); err != nil || v != 1 {
		return nil, s.Errorf("version", "%s", "must be 1, not "+string(raw))
	}
	raw, ok = top["hooks"]
	if !ok {
		return nil, s.Errorf("", `has no "hooks" object`)
	}
	var events map[string]json.RawMessage
	if err := json.Unmarshal(raw, &events); err != nil || events == nil {
		return nil, s.Errorf("hooks", `must be an object of events ({"beforeShellExecution": [...]})`)
	}
	return events, nil
}

// parseEntry reads one entry; nil without an error is an entry not run
// here (a prompt hook), with a diagnostic.
func parseEntry(s *dialect.Settings, ev event, where string, raw json.RawMessage) (*entry, error) {
	var cfg entryConfig
	unknown, err := dialect.Decode(raw, &cfg)
	if err != nil {
		return nil, s.Errorf(where, `must be an entry {"command": "..."}: %v`, err)
	}
	if len(unknown) > 0 {
		return nil, s.Errorf(where+"."+unknown[0], "%s", "unknown key"+didYouMean(unknown[0], entryKeys))
	}
	typ := "command"
	if cfg.Type != nil {
		typ = *cfg.Type
	}
	switch typ {
	case "command":
	case "prompt":
		s.Warnf(where, "a prompt hook (an LLM judges the event) is not run: this library runs command hooks; write it as a command")
		return nil, nil
	default:
		return nil, s.Errorf(where+".type", "%s", fmt.Sprintf(`must be "command" or "prompt", not %q`, typ))
	}
	if cfg.Command == nil || strings.TrimSpace(*cfg.Command) == "" {
		return nil, s.Errorf(where+".command", "%s", "must be a non-empty command")
	}
	e := &entry{where: where, command: *cfg.Command, timeout: DefaultTimeout, loopLimit: DefaultLoopLimit}
	if cfg.Timeout != nil {
		t := *cfg.Timeout
		if !(t > 0) || t > maxTimeout {
			return nil, s.Errorf(where+".timeout", "%s", "must be a positive number of seconds")
		}
		e.timeout = time.Duration(t * float64(time.Second))
	}
	if err := e.options(s, ev, cfg, raw); err != nil {
		return nil, err
	}
	return e, nil
}

// options reads an entry's failClosed, loop_limit and matcher.
func (e *entry) options(s *dialect.Settings, ev event, cfg entryConfig, raw json.RawMessage) error {
	where := e.where
	if cfg.FailClosed != nil {
		e.failClosed = *cfg.FailClosed
		if e.failClosed && !ev.guard() && ev.kind != kSubmitPrompt {
			s.Warnf(where+".failClosed", "%s decides no tool call: a failure there is a diagnostic all the same", ev.name)
		}
	}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(raw, &keys) // valid: Decode read it
	if ll, ok := keys["loop_limit"]; ok {
		cfg.LoopLimit = ll // a null is "no limit", which Decode leaves out
		if ev.kind != kStop {
			return s.Errorf(where+".loop_limit", "%s", "is only for stop entries")
		}
		if bytes.Equal(bytes.TrimSpace(cfg.LoopLimit), []byte("null")) {
			e.loopLimit = -1
		} else {
			var n float64
			if err := json.Unmarshal(cfg.LoopLimit, &n); err != nil || n < 0 || n != math.Trunc(n) || n > math.MaxInt32 {
				return s.Errorf(where+".loop_limit", "%s", "must be a whole number of follow-ups, or null for no limit")
			}
			e.loopLimit = int(n)
		}
	}
	if cfg.Matcher != nil {
		if ev.matchOn == "" {
			s.Warnf(where+".matcher", "%s takes no matcher here: the entry runs for every firing", ev.name)
		} else {
			m, err := newMatcher(*cfg.Matcher, ev.matchOn == "tool")
			if err != nil {
				return s.Errorf(where+".matcher", "%s", err.Error())
			}
			e.matcher = m
		}
	}
	return nil
}

// didYouMean is "; did you mean %q?" for the known word closest to word.
func didYouMean(word string, known []string) string {
	if guess, ok := dialect.Closest(word, known); ok {
		return fmt.Sprintf("; did you mean %q?", guess)
	}
	return "; the keys are " + strings.Join(known, ", ")
}
