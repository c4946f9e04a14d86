package claudecode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
	"github.com/rienda/hooks/internal/exactjson"
	"github.com/rienda/hooks/internal/suggest"
)

// handler is one "command" handler of a settings file.
type handler struct {
	event      string
	where      string // "PreToolUse[0].hooks[1]", for messages
	matcher    matcher
	argv       []string
	timeout    time.Duration
	failClosed bool
	set        *set
	rule       *rule       // "if": nil for every call the matcher takes
	once       bool        // runs at most once per run
	async      bool        // runs in the background (see async.go)
	http       *httpHook   // an "http" handler; nil for a "command"
	prompt     *promptHook // a "prompt" handler
}

// groupConfig is one matcher group of an event, as written.
type groupConfig struct {
	Matcher *string           `json:"matcher"`
	Hooks   []json.RawMessage `json:"hooks"`
}

// handlerConfig is one handler, as written. statusMessage is read so that
// it is a known key; there is no spinner here to show it.
type handlerConfig struct {
	Type          *string           `json:"type"`
	Command       *string           `json:"command"`
	Args          []string          `json:"args"`
	Timeout       *float64          `json:"timeout"`
	FailClosed    bool              `json:"failClosed"`
	OnFailure     json.RawMessage   `json:"onFailure"`
	raw           json.RawMessage   // the handler as written, for a misspelt onFailure
	If            *string           `json:"if"`
	StatusMessage json.RawMessage   `json:"statusMessage"`
	Once          json.RawMessage   `json:"once"`
	Async         json.RawMessage   `json:"async"`
	URL           *string           `json:"url"`
	Headers       map[string]string `json:"headers"`
	AllowedEnv    []string          `json:"allowedEnvVars"`
	Prompt        *string           `json:"prompt"`
	Model         *string           `json:"model"`
}

// The keys a settings file may hold where this package reads it. Claude
// Code ignores the keys it does not know, so a typo ("matchers",
// "timeOut") silently changes what a guard does; here it loads the same
// way, with a diagnostic naming the key it resembles.
var (
	topKeys     = []string{"hooks", "disableAllHooks"}
	groupKeys   = []string{"matcher", "hooks"}
	handlerKeys = []string{"type", "command", "args", "timeout", "failClosed", "onFailure", "if", "statusMessage", "once", "async",
		"url", "headers", "allowedEnvVars", "prompt", "model"}
	// allEvents are the events Claude Code's documentation lists, run here
	// or not: a misspelt one is told apart from one skipped on purpose.
	allEvents = append(append([]string(nil), eventOrder...), "Notification", "PreCompact", "PostCompact",
		"PermissionRequest", "SubagentStart", "SubagentStop", "StopFailure")
)

// maxTimeout is the largest timeout, in seconds, that converts to a
// time.Duration without overflow; a larger one is a mistake.
var maxTimeout = float64(math.MaxInt64 / int64(time.Second))

// settingsError is a settings file that cannot be loaded: path names the
// entry ("hooks.PreToolUse[0].hooks[1]").
func settingsError(path, msg string) error {
	return &dialect.SettingsError{Label: "hooks: settings", Where: path, Msg: msg}
}

// loader reads one settings file and reports what it skips.
type loader struct {
	diag   func(hooks.Diagnostic)
	mapped []string        // the names of ToolNames, both sides, for the did-you-mean of a matcher
	model  hooks.ModelFunc // for "prompt" handlers; nil: they are skipped
}

// skip reports something the file holds that does not run, at path.
func (l loader) skip(path, format string, args ...any) {
	l.diag(hooks.Diagnostic{Err: fmt.Errorf("hooks: Claude Code settings: %s: "+format, append([]any{path}, args...)...)})
}

// unknownKeys reports each key of an object at path that is not one of
// known, with the known key it resembles.
func (l loader) unknownKeys(path string, keys, known []string) {
	for _, k := range keys {
		if like := resembles(k, known); like != "" {
			l.skip(path, "unknown key %q is ignored (as Claude Code ignores it); did you mean %q?", k, like)
		} else {
			l.skip(path, "unknown key %q is ignored (as Claude Code ignores it); the keys here are %s", k, strings.Join(known, ", "))
		}
	}
}

// hooksObject returns the "hooks" object of settings: the value of its
// "hooks" key, or settings itself when it is the hooks object alone (its
// keys are events, which start with a capital letter; a settings file
// without hooks has none such). A top-level key that resembles "hooks" or
// "disableAllHooks" is a diagnostic.
func (l loader) hooksObject(settings []byte) (map[string]json.RawMessage, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(settings, &top); err != nil || top == nil {
		msg := "must be a JSON object: a settings.json, or its \"hooks\" object"
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, settingsError("", "Claude Code "+msg)
	}
	alone := false
	for _, k := range sortedKeys(top) {
		switch like := resembles(k, topKeys); {
		case k == "hooks" || k == "disableAllHooks":
		case like != "":
			l.skip(k, "unknown key %q is ignored (as Claude Code ignores it); did you mean %q?", k, like)
		case k != "" && k[0] >= 'A' && k[0] <= 'Z':
			alone = true
		}
	}
	if raw, ok := top["disableAllHooks"]; ok && bytes.Equal(bytes.TrimSpace(raw), []byte("true")) {
		return nil, nil
	}
	if raw, ok := top["hooks"]; ok {
		var events map[string]json.RawMessage
		if err := json.Unmarshal(raw, &events); err != nil || events == nil {
			return nil, settingsError("hooks", "must be an object of events ({\"PreToolUse\": [...]})")
		}
		return events, nil
	}
	if alone {
		return top, nil
	}
	return nil, nil // a settings.json without hooks
}

// parseSettings decodes the handlers of each event this library runs, and
// diagnoses what it skips.
func parseSettings(settings []byte, diag func(hooks.Diagnostic), model hooks.ModelFunc, mapped []string) (map[string][]*handler, error) {
	l := loader{diag: diag, model: model, mapped: mapped}
	events, err := l.hooksObject(settings)
	if err != nil {
		return nil, err
	}
	out := map[string][]*handler{}
	for _, ev := range sortedKeys(events) { // diagnostics and errors in a stable order
		var groups []json.RawMessage
		if err := json.Unmarshal(events[ev], &groups); err != nil || groups == nil {
			return nil, settingsError("hooks."+ev, "must be a list of matcher groups ([{\"matcher\": …, \"hooks\": [...]}])")
		}
		if _, known := eventPoints[ev]; !known && !firedEvents[ev] {
			hint := ""
			if like := resembles(ev, allEvents); like != "" && like != ev {
				hint = fmt.Sprintf(" (did you mean %q?)", like)
			}
			l.skip("hooks."+ev, "event not run by this library, skipped (%d group(s))%s; the events run are %s, and those a host fires (Fire): %s",
				len(groups), hint, strings.Join(eventOrder, ", "), strings.Join(firedOrder, ", "))
			continue
		}
		for i, raw := range groups {
			hs, err := l.group(ev, i, raw)
			if err != nil {
				return nil, err
			}
			out[ev] = append(out[ev], hs...)
		}
	}
	return out, nil
}

// group decodes the group at hooks.<ev>[i].
func (l loader) group(ev string, i int, raw json.RawMessage) ([]*handler, error) {
	path := fmt.Sprintf("hooks.%s[%d]", ev, i)
	var g groupConfig
	unknown, err := exactjson.Unmarshal(raw, &g)
	if err != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, settingsError(path, "must be an object {\"matcher\": \"…\", \"hooks\": [...]}"+cause(err))
	}
	l.unknownKeys(path, unknown, groupKeys)
	if g.Hooks == nil {
		return nil, settingsError(path+".hooks", "missing: a group needs a list of handlers")
	}
	text := ""
	if g.Matcher != nil {
		text = *g.Matcher
	}
	m, err := compileMatcher(text)
	if err != nil {
		return nil, settingsError(path+".matcher", err.Error())
	}
	m.src, m.path, m.note = text, path+".matcher", &dialect.MatchNote{}
	if toolEvents[ev] {
		l.loadNames(m.path, m)
	}
	var out []*handler
	for j, hraw := range g.Hooks {
		h, err := l.handler(ev, fmt.Sprintf("%s[%d].hooks[%d]", ev, i, j), hraw)
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

// handler decodes one handler; nil, nil for a type skipped.
func (l loader) handler(event, where string, raw json.RawMessage) (*handler, error) {
	path := "hooks." + where
	var cfg handlerConfig
	unknown, err := exactjson.Unmarshal(raw, &cfg)
	if err != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, settingsError(path, "must be an object {\"type\": \"command\", \"command\": \"…\"}"+cause(err))
	}
	cfg.raw = raw
	switch {
	case cfg.Type == nil:
		return nil, settingsError(path+".type", "missing (\"command\", \"prompt\", \"agent\", \"http\" or \"mcp_tool\")")
	case *cfg.Type == "http":
		return l.httpHandler(event, where, path, unknown, &cfg)
	case *cfg.Type == "prompt":
		return l.promptHandler(event, where, path, unknown, &cfg, l.model)
	case *cfg.Type == "agent":
		l.skip(path, "handler type \"agent\" not run by this library, skipped: it needs a subagent with tools; a \"prompt\" handler runs with Model")
		return nil, nil
	case *cfg.Type != "command":
		l.skip(path, "handler type %q not run by this library, skipped; only \"command\" and \"http\" handlers run (\"prompt\" with claudecode.Model)", *cfg.Type)
		return nil, nil
	case cfg.Command == nil || strings.TrimSpace(*cfg.Command) == "":
		return nil, settingsError(path+".command", "missing or empty")
	case cfg.Timeout != nil && (*cfg.Timeout <= 0 || *cfg.Timeout > maxTimeout):
		return nil, settingsError(path+".timeout", fmt.Sprintf("must be a positive number of seconds, not %v", *cfg.Timeout))
	}
	l.unknownKeys(path, unknown, handlerKeys)
	h := &handler{event: event, where: where, timeout: DefaultTimeout, failClosed: cfg.FailClosed}
	if err := l.fields(h, path, &cfg); err != nil {
		return nil, err
	}
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

// fields reads a handler's "onFailure", "if", "once" and "async".
func (l loader) fields(h *handler, path string, cfg *handlerConfig) error {
	if err := l.onFailure(h, path, cfg); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
		dst  *bool
	}{{"once", cfg.Once, &h.once}, {"async", cfg.Async, &h.async}} {
		if len(f.raw) > 0 && json.Unmarshal(f.raw, f.dst) != nil {
			return settingsError(path+"."+f.name, fmt.Sprintf("must be true or false, not %s", f.raw))
		}
	}
	if cfg.If == nil {
		return nil
	}
	if !toolEvents[h.event] {
		l.skip(path, "\"if\" %q is read on tool events only (as Claude Code reads it): ignored on %s", *cfg.If, h.event)
		return nil
	}
	r, err := parseRule(*cfg.If)
	if err != nil {
		return settingsError(path+".if", err.Error())
	}
	h.rule = &r
	return nil
}

// onFailure reads Claude Code's "onFailure" (v2.1.295: "block" makes a
// handler that cannot start, times out or exits with a code other than 0
// and 2 block the action; "continue", the default, lets it through).
// "block" is this library's "failClosed": true. Any other value is an
// error naming the field, never read as "continue": a guard whose
// failure mode cannot be read must not fail open unseen. "continue"
// beside "failClosed": true keeps the handler closed, with a diagnostic:
// the stricter setting wins.
func (l loader) onFailure(h *handler, path string, cfg *handlerConfig) error {
	if len(cfg.OnFailure) == 0 {
		l.misspeltOnFailure(h, path, cfg.raw)
		return nil
	}
	var v string
	if json.Unmarshal(cfg.OnFailure, &v) != nil {
		return settingsError(path+".onFailure", fmt.Sprintf("must be \"block\" or \"continue\", not %s", cfg.OnFailure))
	}
	switch v {
	case "block":
		h.failClosed = true
	case "continue":
		// A misspelt key beside it that holds "block" keeps the handler
		// closed: of two settings that disagree, the stricter wins.
		l.misspeltOnFailure(h, path, cfg.raw)
		if h.failClosed {
			l.skip(path, "\"onFailure\": \"continue\" beside \"failClosed\": true: the handler stays closed (a failure blocks)")
		}
	default:
		hint := ""
		if like := resembles(v, []string{"block", "continue"}); like != "" || strings.EqualFold(v, "block") || strings.EqualFold(v, "continue") {
			if like == "" {
				like = strings.ToLower(v)
			}
			hint = fmt.Sprintf("; did you mean %q?", like)
		}
		return settingsError(path+".onFailure", fmt.Sprintf("must be \"block\" or \"continue\", not %q%s", v, hint))
	}
	return nil
}

// misspeltOnFailure reads a key that resembles "onFailure" ("onfailure",
// "onFailrue") holding "block" as the block it was meant to be: Claude
// Code ignores the key, so the guard would fail open, but what the
// author asked for is evident, and a guard's failure mode is never
// guessed open. A diagnostic says so (besides the unknown key's).
func (l loader) misspeltOnFailure(h *handler, path string, raw json.RawMessage) {
	var keys map[string]json.RawMessage
	if json.Unmarshal(raw, &keys) != nil {
		return
	}
	for _, k := range sortedKeys(keys) {
		var v string
		if k == "onFailure" || resembles(k, []string{"onFailure"}) != "onFailure" && !strings.EqualFold(k, "onFailure") {
			continue
		}
		if json.Unmarshal(keys[k], &v) == nil && strings.EqualFold(strings.TrimSpace(v), "block") {
			h.failClosed = true
			l.skip(path, "%q: %s is read as \"onFailure\": \"block\" (Claude Code would ignore the key and fail open)", k, keys[k])
		}
	}
}

// toolEvents are the events of a tool call, where "if" applies.
var toolEvents = map[string]bool{"PreToolUse": true, "PostToolUse": true, "PostToolUseFailure": true, "PermissionRequest": true}

// cause is ": <err>" for a decoding error worth showing, else "".
func cause(err error) string {
	if err == nil {
		return ""
	}
	return ": " + err.Error()
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// resembles returns the key of known that k is most likely a misspelling
// of (internal/suggest: the project's one did-you-mean), "" when none is
// that close or k is known.
func resembles(k string, known []string) string {
	like, _ := suggest.Closest(k, known)
	return like
}
