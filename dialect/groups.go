package dialect

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Group is one matcher group of an event, in the shape Claude Code, Codex
// CLI and Gemini CLI share: {"matcher": "Bash", "hooks": [ … ]}.
type Group struct {
	Path    string            // "hooks.PreToolUse[0]"
	Matcher *string           // nil: none written
	Hooks   []json.RawMessage // each handler, as written
}

// groupConfig is a group as written.
type groupConfig struct {
	Matcher *string           `json:"matcher"`
	Hooks   []json.RawMessage `json:"hooks"`
}

// Groups reads the groups of one event, at path ("hooks.PreToolUse"): a
// list of {"matcher", "hooks"} objects, their keys read exactly (an
// unknown one is a diagnostic with the key it resembles). A group without
// "hooks" is an error naming it.
func (s *Settings) Groups(path string, raw json.RawMessage) ([]Group, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil || list == nil {
		return nil, s.Errorf(path, "must be a list of matcher groups ([{\"matcher\": …, \"hooks\": [...]}])")
	}
	out := make([]Group, 0, len(list))
	for i, g := range list {
		gp := fmt.Sprintf("%s[%d]", path, i)
		var cfg groupConfig
		if bytes.Equal(bytes.TrimSpace(g), []byte("null")) {
			return nil, s.Errorf(gp, "must be an object {\"matcher\": \"…\", \"hooks\": [...]}")
		}
		if err := s.Object(gp, g, &cfg, `{"matcher": "…", "hooks": [...]}`); err != nil {
			return nil, err
		}
		if cfg.Hooks == nil {
			return nil, s.Errorf(gp+".hooks", "missing: a matcher group needs a list of handlers")
		}
		out = append(out, Group{Path: gp, Matcher: cfg.Matcher, Hooks: cfg.Hooks})
	}
	return out, nil
}

// Top returns the events object of a settings file: the value of its
// "hooks" key (an object), or the file itself when isEvent says its keys
// are events. ok is false when the file has no hooks.
func (s *Settings) Top(isEvent func(key string) bool) (events map[string]json.RawMessage, top map[string]json.RawMessage, ok bool, err error) {
	if err := json.Unmarshal(s.data, &top); err != nil || top == nil {
		msg := "must be a JSON object"
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, nil, false, s.Errorf("", "%s", msg)
	}
	raw, has := top["hooks"]
	if !has {
		for k := range top {
			if isEvent != nil && isEvent(k) {
				return top, top, true, nil
			}
		}
		return nil, top, false, nil
	}
	if err := json.Unmarshal(raw, &events); err != nil || events == nil {
		return nil, top, false, s.Errorf("hooks", "must be an object of events")
	}
	return events, top, true, nil
}
