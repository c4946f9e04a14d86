package codex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rienda/hooks/dialect"
)

// Codex's events, in the order its runner lists them
// (codex-rs/hooks/src/lib.rs HOOK_EVENT_NAMES, plus the events its docs
// added since: SessionEnd, StopFailure, Interrupt).
var knownEvents = []string{
	"PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
	"SessionStart", "UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop",
	"SessionEnd", "StopFailure", "Interrupt",
}

// matcherEvents are the events whose matcher Codex reads
// (HOOK_EVENT_NAMES_WITH_MATCHERS); on the others it is ignored.
var matcherEvents = map[string]bool{
	"PreToolUse": true, "PermissionRequest": true, "PostToolUse": true, "PreCompact": true,
	"PostCompact": true, "SessionStart": true, "SubagentStart": true, "SubagentStop": true,
}

// keyLabels are Codex's snake_case event labels, used in its hook keys
// and hashes (hook_event_key_label).
var keyLabels = map[string]string{
	"PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request",
	"PostToolUse": "post_tool_use", "PreCompact": "pre_compact", "PostCompact": "post_compact",
	"SessionStart": "session_start", "UserPromptSubmit": "user_prompt_submit",
	"SubagentStart": "subagent_start", "SubagentStop": "subagent_stop", "Stop": "stop",
	"SessionEnd": "session_end", "StopFailure": "stop_failure", "Interrupt": "interrupt",
}

var (
	rootKeys    = []string{"hooks", "description"}
	groupKeys   = []string{"matcher", "hooks"}
	handlerKeys = []string{"type", "command", "timeout", "timeoutSec", "async", "statusMessage",
		"commandWindows", "command_windows", "visibilityHint", "failClosed"}
)

// file is a parsed settings file: its handlers per event, in file order.
type file struct {
	name   string
	events map[string][]*handler
	state  map[string]hookState // config.toml's [hooks.state]
	notes  []string             // load diagnostics
}

// hookState is one [hooks.state."<key>"] entry of config.toml.
type hookState struct {
	Enabled     *bool  `toml:"enabled" json:"enabled"`
	TrustedHash string `toml:"trusted_hash" json:"trusted_hash"`
}

// handler is one handler of a matcher group.
type handler struct {
	event      string
	where      string // "PreToolUse[0].hooks[1]"
	group      int
	index      int
	matcher    *string // nil: absent
	match      *matcher
	typ        string
	command    string
	timeout    time.Duration
	timeoutSec uint64 // as written, for the hash (0: absent)
	async      bool
	status     *string
	failClosed bool
	set        *set
}

// settingsError is an error in a settings file: the file, the line when
// known, the entry and what is wrong.
type settingsError struct {
	file string
	line int
	path string
	msg  string
}

func (e *settingsError) Error() string {
	loc := "codex: " + e.file
	if e.line > 0 {
		loc += fmt.Sprintf(":%d", e.line)
	}
	if e.path == "" {
		return loc + ": " + e.msg
	}
	return loc + ": " + e.path + ": " + e.msg
}

// parser validates a settings tree (JSON, or TOML turned into the same
// shape) and finds the line of an entry.
type parser struct {
	name  string
	lines func(path string) int
	notes []string
}

func (p *parser) errf(path, format string, args ...any) error {
	return &settingsError{file: p.name, line: p.lines(path), path: path, msg: fmt.Sprintf(format, args...)}
}

// unknownKey is the error of a key that is not one of known.
func (p *parser) unknownKey(parent, key string, known []string) error {
	path := keyPath(parent, key)
	if s, ok := dialect.Closest(key, known); ok {
		return p.errf(path, "unknown key %q; did you mean %q?", key, s)
	}
	return p.errf(path, "unknown key %q (valid keys: %s)", key, strings.Join(known, ", "))
}

func keyPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// parseJSON reads a hooks.json: {"description"?, "hooks": {Event: [group]}}.
func parseJSON(data []byte, name string) (*file, error) {
	if !utf8.Valid(data) {
		return nil, &settingsError{file: name, msg: "not UTF-8 (Codex does not read the file; a decoder would change the commands it holds)"}
	}
	lines, err := jsonLines(data)
	if err != nil {
		return nil, &settingsError{file: name, line: err.line, path: err.path, msg: err.msg}
	}
	var root map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil || root == nil {
		return nil, &settingsError{file: name, msg: "not a JSON object"}
	}
	p := &parser{name: name, lines: func(path string) int { return lines[path] }}
	for k := range root {
		if !slices.Contains(rootKeys, k) {
			return nil, p.unknownKey("", k, rootKeys)
		}
	}
	if d, ok := root["description"]; ok && d != nil {
		if _, ok := d.(string); !ok {
			return nil, p.errf("description", "must be a string")
		}
	}
	return p.events(root["hooks"], nil)
}

// events reads the hooks object: event name -> matcher groups.
func (p *parser) events(v any, state map[string]hookState) (*file, error) {
	f := &file{name: p.name, events: map[string][]*handler{}, state: state}
	if v == nil {
		return f, nil
	}
	evs, ok := v.(map[string]any)
	if !ok {
		return nil, p.errf("hooks", "must be an object of events")
	}
	for ev, gv := range evs {
		if !slices.Contains(knownEvents, ev) {
			path := "hooks." + ev
			if s, ok := dialect.Closest(ev, knownEvents); ok {
				return nil, p.errf(path, "unknown event %q; did you mean %q?", ev, s)
			}
			return nil, p.errf(path, "unknown event %q (Codex's events: %s)", ev, strings.Join(knownEvents, ", "))
		}
		groups, ok := gv.([]any)
		if !ok {
			return nil, p.errf("hooks."+ev, "must be a list of matcher groups")
		}
		for gi, g := range groups {
			hs, err := p.group(ev, gi, g)
			if err != nil {
				return nil, err
			}
			f.events[ev] = append(f.events[ev], hs...)
		}
	}
	f.notes = p.notes
	return f, nil
}

// group reads one matcher group of event ev.
func (p *parser) group(ev string, gi int, v any) ([]*handler, error) {
	path := fmt.Sprintf("hooks.%s[%d]", ev, gi)
	m, ok := v.(map[string]any)
	if !ok {
		return nil, p.errf(path, "must be an object with \"hooks\" (and \"matcher\")")
	}
	for k := range m {
		if !slices.Contains(groupKeys, k) {
			return nil, p.unknownKey(path, k, groupKeys)
		}
	}
	var matcherText *string
	var mt *matcher
	if mv, ok := m["matcher"]; ok && mv != nil {
		s, ok := mv.(string)
		if !ok {
			return nil, p.errf(path+".matcher", "must be a string")
		}
		if matcherEvents[ev] {
			var err error
			if mt, err = compileMatcher(s); err != nil {
				return nil, p.errf(path+".matcher", "%v", err)
			}
			matcherText = &s
		} else if s != "" {
			p.notes = append(p.notes, fmt.Sprintf("%s.matcher %q is ignored: Codex reads no matcher on %s", path, s, ev))
		}
	}
	hv, ok := m["hooks"]
	if !ok {
		return nil, p.errf(path, "missing \"hooks\"")
	}
	list, ok := hv.([]any)
	if !ok {
		return nil, p.errf(path+".hooks", "must be a list of handlers")
	}
	var out []*handler
	for hi, h := range list {
		hd, err := p.handler(ev, gi, hi, h)
		if err != nil {
			return nil, err
		}
		hd.matcher, hd.match = matcherText, mt
		out = append(out, hd)
	}
	return out, nil
}

// handler reads one handler.
func (p *parser) handler(ev string, gi, hi int, v any) (*handler, error) {
	path := fmt.Sprintf("hooks.%s[%d].hooks[%d]", ev, gi, hi)
	m, ok := v.(map[string]any)
	if !ok {
		return nil, p.errf(path, "must be an object")
	}
	hd := &handler{event: ev, where: fmt.Sprintf("%s[%d].hooks[%d]", ev, gi, hi), group: gi, index: hi, timeout: DefaultTimeout}
	t, ok := m["type"].(string)
	if !ok {
		return nil, p.errf(path, "missing \"type\" (\"command\")")
	}
	switch t {
	case "prompt", "agent":
		hd.typ = t
		return hd, nil // skipped at build, as Codex skips them
	case "command":
	default:
		if s, ok := dialect.Closest(t, []string{"command", "prompt", "agent"}); ok {
			return nil, p.errf(path+".type", "unknown handler type %q; did you mean %q?", t, s)
		}
		return nil, p.errf(path+".type", "unknown handler type %q (command, prompt, agent)", t)
	}
	hd.typ = t
	for k := range m {
		if !slices.Contains(handlerKeys, k) {
			return nil, p.unknownKey(path, k, handlerKeys)
		}
	}
	if err := p.pairs(path, m, [][2]string{{"timeout", "timeoutSec"}, {"commandWindows", "command_windows"}}); err != nil {
		return nil, err
	}
	cmd, ok := m["command"].(string)
	if !ok || strings.TrimSpace(cmd) == "" {
		return nil, p.errf(path+".command", "missing or empty")
	}
	hd.command = cmd
	return hd, p.handlerFields(path, m, hd)
}

// handlerFields reads a command handler's optional fields into hd.
func (p *parser) handlerFields(path string, m map[string]any, hd *handler) error {
	for _, k := range []string{"timeout", "timeoutSec"} {
		if tv, ok := m[k]; ok && tv != nil {
			secs, err := seconds(tv)
			if err != nil {
				return p.errf(path+"."+k, "%v", err)
			}
			hd.timeoutSec = secs
			hd.timeout = time.Duration(max(secs, 1)) * time.Second // Codex: .max(1)
		}
	}
	for _, k := range []string{"async", "failClosed"} {
		if bv, ok := m[k]; ok {
			b, ok := bv.(bool)
			if !ok {
				return p.errf(path+"."+k, "must be true or false")
			}
			if k == "async" {
				hd.async = b
			} else {
				hd.failClosed = b
			}
		}
	}
	for _, k := range []string{"statusMessage", "commandWindows", "command_windows", "visibilityHint"} {
		if sv, ok := m[k]; ok && sv != nil {
			s, ok := sv.(string)
			if !ok {
				return p.errf(path+"."+k, "must be a string")
			}
			if k == "statusMessage" {
				hd.status = &s
			}
		}
	}
	return nil
}

// pairs refuses an entry that gives both spellings of one field (Codex's
// serde aliases: the document is refused as a duplicate field).
func (p *parser) pairs(path string, m map[string]any, pairs [][2]string) error {
	for _, pr := range pairs {
		_, a := m[pr[0]]
		_, b := m[pr[1]]
		if a && b {
			return p.errf(path, "%q and %q are one field: give one", pr[0], pr[1])
		}
	}
	return nil
}

// seconds reads a timeout: a whole number of seconds, 0 to MaxTimeout.
func seconds(v any) (uint64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("must be a whole number of seconds, not %s", typeName(v))
	}
	i, err := n.Int64()
	if err != nil {
		f, ferr := n.Float64()
		if ferr == nil && f == math.Trunc(f) && f > float64(MaxTimeout/time.Second) && !strings.ContainsAny(string(n), ".eE") {
			return 0, fmt.Errorf("%s seconds is more than the most, %v", n, MaxTimeout)
		}
		return 0, fmt.Errorf("must be a whole number of seconds, not %s", n)
	}
	if i < 0 {
		return 0, fmt.Errorf("must not be negative (%d)", i)
	}
	if time.Duration(i) > MaxTimeout/time.Second {
		return 0, fmt.Errorf("%d seconds is more than the most, %v", i, MaxTimeout)
	}
	return uint64(i), nil
}

func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}
