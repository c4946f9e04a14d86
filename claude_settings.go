package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
)

// claudeHandler is one "command" handler of a settings file.
type claudeHandler struct {
	where      string // "PreToolUse[0].hooks[1]", for messages
	matcher    claudeMatcher
	argv       []string
	timeout    time.Duration
	failClosed bool
}

// claudeGroup is one matcher group of an event, as written.
type claudeGroup struct {
	Matcher *string           `json:"matcher"`
	Hooks   []json.RawMessage `json:"hooks"`
}

// claudeHandlerConfig is one handler, as written. Keys this library does
// not read (statusMessage, once, async, …) are ignored, as Claude Code
// ignores the keys it does not know.
type claudeHandlerConfig struct {
	Type       *string  `json:"type"`
	Command    *string  `json:"command"`
	Args       []string `json:"args"`
	Timeout    *float64 `json:"timeout"`
	FailClosed bool     `json:"failClosed"`
	If         *string  `json:"if"`
}

// maxClaudeTimeout is the largest timeout, in seconds, that converts to a
// time.Duration without overflow; a larger one is a mistake.
var maxClaudeTimeout = float64(math.MaxInt64 / int64(time.Second))

// claudeHooksObject returns the "hooks" object of settings: the value of
// its "hooks" key, or settings itself when it is the hooks object alone
// (its keys are events, which start with a capital letter; a settings file
// without hooks has none such).
func claudeHooksObject(settings []byte) (map[string]json.RawMessage, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(settings, &top); err != nil || top == nil {
		msg := "must be a JSON object: a settings.json, or its \"hooks\" object"
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, &settingsError{msg: "Claude Code " + msg}
	}
	if raw, ok := top["disableAllHooks"]; ok && bytes.Equal(bytes.TrimSpace(raw), []byte("true")) {
		return nil, nil
	}
	if raw, ok := top["hooks"]; ok {
		var events map[string]json.RawMessage
		if err := json.Unmarshal(raw, &events); err != nil || events == nil {
			return nil, &settingsError{path: "hooks", msg: "must be an object of events ({\"PreToolUse\": [...]})"}
		}
		return events, nil
	}
	for k := range top {
		if k != "" && k[0] >= 'A' && k[0] <= 'Z' {
			return top, nil
		}
	}
	return nil, nil // a settings.json without hooks
}

// parseClaudeSettings decodes the handlers of each event this library
// runs, and diagnoses what it skips.
func parseClaudeSettings(settings []byte, diag func(Diagnostic)) (map[string][]*claudeHandler, error) {
	events, err := claudeHooksObject(settings)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(events))
	for ev := range events {
		names = append(names, ev)
	}
	sort.Strings(names) // diagnostics and errors in a stable order
	out := map[string][]*claudeHandler{}
	for _, ev := range names {
		var groups []json.RawMessage
		if err := json.Unmarshal(events[ev], &groups); err != nil || groups == nil {
			return nil, &settingsError{path: "hooks." + ev, msg: "must be a list of matcher groups ([{\"matcher\": …, \"hooks\": [...]}])"}
		}
		_, known := claudeEvents[ev]
		if !known {
			diag(Diagnostic{Err: fmt.Errorf("hooks: Claude Code settings: hooks.%s: event not run by this library, skipped (%d group(s)); the events run are %s",
				ev, len(groups), strings.Join(claudeEventOrder, ", "))})
			continue
		}
		for i, raw := range groups {
			hs, err := parseClaudeGroup(ev, i, raw, diag)
			if err != nil {
				return nil, err
			}
			out[ev] = append(out[ev], hs...)
		}
	}
	return out, nil
}

// parseClaudeGroup decodes the group at hooks.<ev>[i].
func parseClaudeGroup(ev string, i int, raw json.RawMessage, diag func(Diagnostic)) ([]*claudeHandler, error) {
	path := fmt.Sprintf("hooks.%s[%d]", ev, i)
	var g claudeGroup
	if err := json.Unmarshal(raw, &g); err != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, &settingsError{path: path, msg: "must be an object {\"matcher\": \"…\", \"hooks\": [...]}" + jsonCause(err)}
	}
	if g.Hooks == nil {
		return nil, &settingsError{path: path + ".hooks", msg: "missing: a group needs a list of handlers"}
	}
	matcher := ""
	if g.Matcher != nil {
		matcher = *g.Matcher
	}
	m, err := compileClaudeMatcher(matcher)
	if err != nil {
		return nil, &settingsError{path: path + ".matcher", msg: err.Error()}
	}
	var out []*claudeHandler
	for j, hraw := range g.Hooks {
		where := fmt.Sprintf("%s[%d].hooks[%d]", ev, i, j)
		h, err := parseClaudeHandler(where, hraw, diag)
		if err != nil {
			return nil, err
		}
		if h != nil {
			h.matcher = m
			out = append(out, h)
		}
	}
	return out, nil
}

// parseClaudeHandler decodes one handler; nil, nil for a type skipped.
func parseClaudeHandler(where string, raw json.RawMessage, diag func(Diagnostic)) (*claudeHandler, error) {
	path := "hooks." + where
	var cfg claudeHandlerConfig
	if err := json.Unmarshal(raw, &cfg); err != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, &settingsError{path: path, msg: "must be an object {\"type\": \"command\", \"command\": \"…\"}" + jsonCause(err)}
	}
	switch {
	case cfg.Type == nil:
		return nil, &settingsError{path: path + ".type", msg: "missing (\"command\", \"prompt\", \"agent\", \"http\" or \"mcp_tool\")"}
	case *cfg.Type != "command":
		diag(Diagnostic{Err: fmt.Errorf("hooks: Claude Code settings: %s: handler type %q not run by this library, skipped; only \"command\" handlers run", path, *cfg.Type)})
		return nil, nil
	case cfg.Command == nil || strings.TrimSpace(*cfg.Command) == "":
		return nil, &settingsError{path: path + ".command", msg: "missing or empty"}
	case cfg.Timeout != nil && (*cfg.Timeout <= 0 || *cfg.Timeout > maxClaudeTimeout):
		return nil, &settingsError{path: path + ".timeout", msg: fmt.Sprintf("must be a positive number of seconds, not %v", *cfg.Timeout)}
	}
	if cfg.If != nil {
		diag(Diagnostic{Err: fmt.Errorf("hooks: Claude Code settings: %s: \"if\" %q is not read by this library: the handler runs for every call its matcher takes", path, *cfg.If)})
	}
	h := &claudeHandler{where: where, timeout: DefaultClaudeTimeout, failClosed: cfg.FailClosed}
	if cfg.Timeout != nil {
		h.timeout = time.Duration(*cfg.Timeout * float64(time.Second))
	}
	if cfg.Args != nil {
		h.argv = append([]string{*cfg.Command}, cfg.Args...)
	} else {
		h.argv = []string{"sh", "-c", *cfg.Command}
	}
	return h, nil
}

// jsonCause is ": <err>" for a decoding error worth showing, else "".
func jsonCause(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return fmt.Sprintf(": %s must be %s, not %s", typeErr.Field, typeErr.Type, typeErr.Value)
	}
	return ""
}
