package geminicli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
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
	where      string // "BeforeTool[0].hooks[1]", for messages
	key        string // name:command, Gemini CLI's identity of a hook (deduplication)
	matcher    matcher
	sequential bool // its group says "sequential": true
	command    string
	env        map[string]string
	timeout    time.Duration
}

// groupConfig is one hook definition (a matcher group), as written.
type groupConfig struct {
	Matcher    *string           `json:"matcher"`
	Sequential *bool             `json:"sequential"`
	Hooks      []json.RawMessage `json:"hooks"`
}

// handlerConfig is one hook configuration, as written.
type handlerConfig struct {
	Type        *string           `json:"type"`
	Command     *string           `json:"command"`
	Name        *string           `json:"name"`
	Description *string           `json:"description"`
	Timeout     *float64          `json:"timeout"`
	Env         map[string]string `json:"env"`
}

// hooksConfig is settings.json's "hooksConfig", as written.
type hooksConfig struct {
	Enabled       *bool    `json:"enabled"`
	Disabled      []string `json:"disabled"`
	Notifications *bool    `json:"notifications"`
}

// settingsError is a settings file that cannot be loaded: path names the
// entry ("hooks.BeforeTool[0].hooks[1]").
func settingsError(path, msg string) error {
	return &dialect.SettingsError{Label: "geminicli: Gemini CLI settings", Where: path, Msg: msg}
}

// configFields are the keys of the hooks object that are not events (the
// old place of hooksConfig's fields); Gemini CLI skips them there.
var configFields = []string{"enabled", "disabled", "notifications"}

// maxTimeoutMs is the largest timeout that converts to a time.Duration.
var maxTimeoutMs = float64(math.MaxInt64 / int64(time.Millisecond))

// loadDiag reports a load-time diagnostic.
type loadDiag func(format string, args ...any)

// hooksObject returns the "hooks" object of settings and the names of the
// hooks not to run: settings.json's, or settings itself when it is the
// hooks object alone (its keys are events, which start with a capital).
func hooksObject(settings []byte, diag loadDiag) (map[string]json.RawMessage, []string, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(settings, &top); err != nil || top == nil {
		msg := "must be a JSON object: a settings.json, or its \"hooks\" object"
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, nil, settingsError("", msg)
	}
	topLevelKeys(top, diag)
	var cfg hooksConfig
	if raw, ok := top["hooksConfig"]; ok {
		unknown, err := exactjson.Unmarshal(raw, &cfg)
		if err != nil {
			return nil, nil, settingsError("hooksConfig", "must be {\"enabled\": bool, \"disabled\": [names]}: "+err.Error())
		}
		unknownKeys(diag, "hooksConfig", unknown, []string{"enabled", "disabled", "notifications"})
		if cfg.Enabled != nil && !*cfg.Enabled {
			return nil, nil, nil
		}
	}
	raw, ok := top["hooks"]
	if !ok {
		for k := range top {
			if k != "" && k[0] >= 'A' && k[0] <= 'Z' {
				return top, cfg.Disabled, nil
			}
		}
		return nil, nil, nil
	}
	var events map[string]json.RawMessage
	if err := json.Unmarshal(raw, &events); err != nil || events == nil {
		return nil, nil, settingsError("hooks", "must be an object of events ({\"BeforeTool\": [...]})")
	}
	return events, cfg.Disabled, nil
}

// topLevelKeys diagnoses the top-level keys of settings.json that look
// like the ones Gemini CLI reads for hooks but are not ("hookConfig",
// "HooksConfig", "hook"): Gemini CLI does not read them, and neither does
// this library, so a switch the user believes is set says it is not.
// tools.enableHooks, the switch of older Gemini CLI releases, is not read
// either: false says so.
func topLevelKeys(top map[string]json.RawMessage, diag loadDiag) {
	for _, k := range slices.Sorted(maps.Keys(top)) {
		if k == "hooks" || k == "hooksConfig" {
			continue
		}
		if close, ok := suggest.Closest(k, []string{"hooks", "hooksConfig"}); ok {
			diag("%q: not read; did you mean %q? (Gemini CLI reads hooks from \"hooks\" and their switches from \"hooksConfig\")", k, close)
		}
	}
	var tools struct {
		EnableHooks *bool `json:"enableHooks"`
	}
	if raw, ok := top["tools"]; ok && json.Unmarshal(raw, &tools) == nil && tools.EnableHooks != nil && !*tools.EnableHooks {
		diag("tools.enableHooks: false is not read (the switch of older Gemini CLI releases): the hooks run; set \"hooksConfig\": {\"enabled\": false} to turn them off")
	}
}

// parseSettings decodes the handlers of each event this library runs,
// and diagnoses what it skips.
func parseSettings(settings []byte, diagnostics func(hooks.Diagnostic)) (map[string][]*handler, error) {
	diag := func(format string, args ...any) {
		diagnostics(hooks.Diagnostic{Err: fmt.Errorf("geminicli: Gemini CLI settings: "+format, args...)})
	}
	events, disabled, err := hooksObject(settings, diag)
	if err != nil {
		return nil, err
	}
	names := slices.Sorted(maps.Keys(events)) // diagnostics and errors in a stable order
	out := map[string][]*handler{}
	for _, ev := range names {
		if slices.Contains(configFields, ev) {
			diag("hooks.%s: not read here; Gemini CLI reads it from \"hooksConfig\"", ev)
			continue
		}
		var groups []json.RawMessage
		if err := json.Unmarshal(events[ev], &groups); err != nil || groups == nil {
			return nil, settingsError("hooks."+ev, "must be a list of hook definitions ([{\"matcher\": …, \"hooks\": [...]}])")
		}
		if _, known := eventPoints[ev]; !known {
			diagnoseEvent(diag, ev, len(groups))
			continue
		}
		for i, raw := range groups {
			hs, err := parseGroup(ev, i, raw, diag)
			if err != nil {
				return nil, err
			}
			for _, h := range hs {
				if !isDisabled(h, disabled) {
					out[ev] = append(out[ev], h)
				}
			}
		}
	}
	return out, nil
}

// diagnoseEvent reports an event this library does not run: one Gemini
// CLI has, with the reason, or an unknown name, with the one it resembles.
func diagnoseEvent(diag loadDiag, ev string, groups int) {
	if why, ok := notRun[ev]; ok {
		diag("hooks.%s: event not run by this library, skipped (%d group(s)): %s", ev, groups, why)
		return
	}
	known := append(slices.Clone(eventOrder), slices.Sorted(maps.Keys(notRun))...)
	if close, ok := suggest.Closest(ev, known); ok {
		diag("hooks.%s: unknown event, skipped (%d group(s)); did you mean %q?", ev, groups, close)
		return
	}
	diag("hooks.%s: unknown event, skipped (%d group(s)); the events are %s", ev, groups, strings.Join(known, ", "))
}

// isDisabled reports whether hooksConfig.disabled names h: by its name,
// or its command when it has none, as Gemini CLI names hooks.
func isDisabled(h *handler, disabled []string) bool {
	name, _, _ := strings.Cut(h.key, ":")
	if name == "" {
		name = h.command
	}
	return slices.Contains(disabled, name)
}

// parseGroup decodes the group at hooks.<ev>[i].
func parseGroup(ev string, i int, raw json.RawMessage, diag loadDiag) ([]*handler, error) {
	path := fmt.Sprintf("hooks.%s[%d]", ev, i)
	var g groupConfig
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) || !isObject(raw) {
		return nil, settingsError(path, "must be an object {\"matcher\": \"…\", \"hooks\": [...]}")
	}
	unknown, err := exactjson.Unmarshal(raw, &g)
	if err != nil {
		return nil, settingsError(path, err.Error())
	}
	unknownKeys(diag, path, unknown, []string{"matcher", "sequential", "hooks"})
	if g.Hooks == nil {
		return nil, settingsError(path+".hooks", "missing: a hook definition needs a list of hooks")
	}
	m, note := compileMatcher(ev, g.Matcher)
	if g.Matcher != nil {
		m.src = strings.TrimSpace(*g.Matcher)
	}
	m.path, m.note = path+".matcher", &dialect.MatchNote{}
	if note != "" {
		diag("%s.matcher: %s", path, note)
	}
	var out []*handler
	for j, hraw := range g.Hooks {
		where := fmt.Sprintf("%s[%d].hooks[%d]", ev, i, j)
		h, err := parseHandler(where, hraw, diag)
		if err != nil {
			return nil, err
		}
		if h != nil {
			h.matcher, h.sequential = m, g.Sequential != nil && *g.Sequential
			out = append(out, h)
		}
	}
	return out, nil
}

// parseHandler decodes one handler; nil, nil for a type skipped.
func parseHandler(where string, raw json.RawMessage, diag loadDiag) (*handler, error) {
	path := "hooks." + where
	if !isObject(raw) {
		return nil, settingsError(path, "must be an object {\"type\": \"command\", \"command\": \"…\"}")
	}
	var cfg handlerConfig
	unknown, err := exactjson.Unmarshal(raw, &cfg)
	if err != nil {
		return nil, settingsError(path, err.Error())
	}
	unknownKeys(diag, path, unknown, []string{"type", "command", "name", "description", "timeout", "env"})
	switch {
	case cfg.Type == nil:
		return nil, settingsError(path+".type", "missing (\"command\")")
	case *cfg.Type != "command":
		diag("%s: hook type %q not run by this library, skipped; only \"command\" hooks run (Gemini CLI's settings hold no other)", path, *cfg.Type)
		return nil, nil
	case cfg.Command == nil || strings.TrimSpace(*cfg.Command) == "":
		return nil, settingsError(path+".command", "missing or empty")
	case cfg.Timeout != nil && (*cfg.Timeout <= 0 || *cfg.Timeout > maxTimeoutMs):
		return nil, settingsError(path+".timeout", fmt.Sprintf("must be a positive number of milliseconds, not %v", *cfg.Timeout))
	}
	h := &handler{where: where, command: *cfg.Command, env: cfg.Env, timeout: DefaultTimeout}
	name := ""
	if cfg.Name != nil {
		name = *cfg.Name
	}
	h.key = name + ":" + h.command
	if cfg.Timeout != nil {
		h.timeout = time.Duration(*cfg.Timeout * float64(time.Millisecond))
	}
	return h, nil
}

// unknownKeys diagnoses keys no field took: each with the key it
// resembles, or the keys there are.
func unknownKeys(diag loadDiag, path string, unknown, known []string) {
	sort.Strings(unknown)
	for _, k := range unknown {
		full := path + "." + k
		if close, ok := suggest.Closest(k, known); ok {
			diag("%s: unknown key, not read; did you mean %q?", full, close)
		} else {
			diag("%s: unknown key, not read (the keys are %s)", full, strings.Join(known, ", "))
		}
	}
}

// isObject reports whether raw is a JSON object.
func isObject(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}
