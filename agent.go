package hooks

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/rienda/hooks/internal/suggest"
)

// Agent is an agent file: its YAML front matter and the prompt after it.
// Hooks lists the hooks the agent declares, in execution order.
type Agent struct {
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	Model       string   `yaml:"model"`
	Tools       []string `yaml:"tools"`
	Hooks       []string `yaml:"hooks"`
	Prompt      string   `yaml:"-"` // the text after the front matter

	// Specs are the entries of Hooks that name a ready-made hook with its
	// settings instead of a JavaScript hook, by their index in Hooks (see
	// HookSpec). Nil when there are none.
	Specs map[int]HookSpec `yaml:"-"`

	// Warnings are what ParseAgent found suspicious but not wrong: an
	// unknown key that looks like a typo of a known one (see AgentWarning).
	// Loader.LoadAgent reports each as a Diagnostic, so that a misspelt
	// "hooks:" is never silent. Nil when there are none.
	Warnings []AgentWarning `yaml:"-"`
}

// HookSpec is an agent file's hooks entry that names a ready-made hook
// (package prebuilt) and its settings, beside plain names of JavaScript
// hooks:
//
//	hooks:
//	  - no-rm-rf                  # a JavaScript hook in the hooks directory
//	  - prebuilt: toolCallLimit   # a ready-made hook
//	    with: {run: 20}
//
// Its name in Agent.Hooks is With's "name" when that is a string, else
// Prebuilt: the name the hook gets in a chain, where names are unique.
// Loader.LoadAgent builds it with Loader.Prebuilt.
type HookSpec struct {
	Prebuilt string         // the ready-made hook's name, as prebuilt.Names lists them
	With     map[string]any // its settings; nil when the entry has none
	Line     int            // the entry's line in the agent file, from 1
}

// AgentWarning is an unknown key of an agent file's front matter that is
// probably a typo of a known one: the same key in another case or with
// spaces around it, or one within a typo's reach of it (one edit, two for
// "description"; an edit is a letter added, left out, changed or swapped
// with the next). The key is still ignored, as every unknown key is, so that
// newer files load. It is an error so that it can be a Diagnostic's Err.
type AgentWarning struct {
	Line int    // the line of the key in the agent file, from 1
	Key  string // the key as written
	Like string // the known key it resembles: name, description, model, tools or hooks
}

// Error reads "agent: line 3: unknown key "hook" is ignored; did you mean
// "hooks"?", in the form of ParseAgent's errors.
func (w AgentWarning) Error() string {
	return fmt.Sprintf("agent: line %d: unknown key %q is ignored; did you mean %q?", w.Line, w.Key, w.Like)
}

const fence = "---"

// ParseAgent reads an agent file: optional YAML front matter between two
// "---" lines, then the prompt. A byte-order mark and blank lines may come
// before the opening "---"; any other text there means there is no front
// matter: the whole text is the prompt and the agent declares no hooks.
// Unknown keys are ignored, so that newer files still load, but one that
// looks like a typo of a known key is kept in Agent.Warnings. Malformed
// YAML, a key of the wrong type, an unclosed fence and a hook declared
// twice are errors that name the line of the file.
func ParseAgent(data []byte) (*Agent, error) {
	text := strings.TrimPrefix(string(data), "\ufeff")
	fenceLine, front, prompt, err := splitFrontMatter(text)
	if err != nil {
		return nil, err
	}
	if fenceLine == 0 {
		return &Agent{Prompt: text}, nil
	}
	a := &Agent{Prompt: prompt}
	// Each line above the front matter becomes an empty line, so that the
	// YAML parser's lines are the file's lines (yaml.v3 ignores blank lines
	// before a document).
	padded := strings.Repeat("\n", fenceLine) + front
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(padded), &doc); err != nil {
		return nil, yamlError(padded, err)
	}
	if len(doc.Content) == 0 { // empty front matter
		return a, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, agentError(root, "the front matter must be a mapping of keys (name, description, model, tools, hooks)")
	}
	if err := a.readKeys(root); err != nil {
		return nil, err
	}
	if err := noDuplicates(root, a.Hooks); err != nil {
		return nil, err
	}
	return a, nil
}

// splitFrontMatter finds the opening fence after any blank lines (editors
// and generators leave them; seeing none of the hooks for it would be
// silent) and cuts the front matter at the closing one. fenceLine is the
// file line of the opening fence, 0 when there is no front matter.
func splitFrontMatter(text string) (fenceLine int, front, prompt string, err error) {
	rest := text
	for line := 1; ; line++ {
		first, after, more := strings.Cut(rest, "\n")
		if strings.TrimSpace(first) == "" && more {
			rest = after
			continue
		}
		if strings.TrimRight(first, " \t\r") != fence {
			return 0, "", "", nil
		}
		front, prompt, ok := cutFence(after)
		if !ok {
			return 0, "", "", fmt.Errorf("agent: line %d: the front matter opened here is never closed with a %q line", line, fence)
		}
		return line, front, prompt, nil
	}
}

// readKeys sets the known keys of the front matter's mapping and notes the
// unknown ones that look like typos.
func (a *Agent) readKeys(root *yaml.Node) error {
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, value := root.Content[i], root.Content[i+1]
		if prev, dup := seen[key.Value]; dup {
			return agentError(key, "key %q is set twice (first on line %d)", key.Value, prev.Line)
		}
		seen[key.Value] = key
		var err error
		switch key.Value {
		case "name":
			a.Name, err = scalar(key.Value, value)
		case "description":
			a.Description, err = scalar(key.Value, value)
		case "model":
			a.Model, err = scalar(key.Value, value)
		case "tools":
			a.Tools, err = names("tools", "a list of tool names", value)
		case "hooks":
			a.Hooks, a.Specs, err = hookEntries(value)
		default:
			if like, ok := typoOf(key); ok {
				a.Warnings = append(a.Warnings, AgentWarning{Line: key.Line, Key: key.Value, Like: like})
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// cutFence splits the text after the opening fence at the closing one.
func cutFence(body string) (front, rest string, ok bool) {
	for at := 0; at <= len(body); {
		line, next, more := strings.Cut(body[at:], "\n")
		if strings.TrimRight(line, " \t\r") == fence {
			if !more {
				return body[:at], "", true
			}
			return body[:at], next, true
		}
		if !more {
			break
		}
		at += len(line) + 1
	}
	return "", "", false
}

func scalar(key string, n *yaml.Node) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", agentError(n, "%s must be a single value, not %s", key, kindName(n))
	}
	if n.Tag == "!!null" {
		return "", nil
	}
	return n.Value, nil
}

func names(key, want string, n *yaml.Node) ([]string, error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, agentError(n, "%s must be %s, not %s", key, want, kindName(n))
	}
	out := make([]string, 0, len(n.Content))
	for _, item := range n.Content {
		if item.Kind != yaml.ScalarNode || item.Tag == "!!null" || item.Value == "" {
			return nil, agentError(item, "%s must be %s; this item is %s", key, want, kindName(item))
		}
		out = append(out, item.Value)
	}
	return out, nil
}

// hookEntries reads the hooks list: names of JavaScript hooks, and
// mappings naming a ready-made hook (HookSpec).
func hookEntries(n *yaml.Node) ([]string, map[int]HookSpec, error) {
	const want = "a list of hook names"
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil, nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, nil, agentError(n, "hooks must be %s, not %s", want, kindName(n))
	}
	out := make([]string, 0, len(n.Content))
	var specs map[int]HookSpec
	for i, item := range n.Content {
		if item.Kind == yaml.MappingNode {
			spec, err := hookSpec(item)
			if err != nil {
				return nil, nil, err
			}
			if specs == nil {
				specs = map[int]HookSpec{}
			}
			specs[i] = spec
			name := spec.Prebuilt
			if s, ok := spec.With["name"].(string); ok && s != "" {
				name = s
			}
			out = append(out, name)
			continue
		}
		if item.Kind != yaml.ScalarNode || item.Tag == "!!null" || item.Value == "" {
			return nil, nil, agentError(item, "hooks must be %s; this item is %s", want, kindName(item))
		}
		out = append(out, item.Value)
	}
	return out, specs, nil
}

// hookSpec reads one {prebuilt: name, with: settings} entry, strictly:
// a typo in it would leave a guard out.
func hookSpec(item *yaml.Node) (HookSpec, error) {
	spec := HookSpec{Line: item.Line}
	seen := map[string]int{}
	for i := 0; i+1 < len(item.Content); i += 2 {
		key, value := item.Content[i], item.Content[i+1]
		if line, dup := seen[key.Value]; dup { // the last would win, silently
			return spec, agentError(key, "hooks: key %q is set twice in one entry (first on line %d)", key.Value, line)
		}
		seen[key.Value] = key.Line
		switch key.Value {
		case "prebuilt":
			if value.Kind != yaml.ScalarNode || value.Tag == "!!null" || value.Value == "" {
				return spec, agentError(value, "hooks: prebuilt must name a ready-made hook, not %s", kindName(value))
			}
			spec.Prebuilt = value.Value
		case "with":
			if value.Kind == yaml.ScalarNode && value.Tag == "!!null" {
				continue
			}
			if value.Kind != yaml.MappingNode {
				return spec, agentError(value, "hooks: with must be a mapping of settings, not %s", kindName(value))
			}
			if err := value.Decode(&spec.With); err != nil {
				return spec, agentError(value, "hooks: with: %v", err)
			}
		default:
			hint := ""
			if like, ok := suggest.Closest(key.Value, []string{"prebuilt", "with"}); ok {
				hint = fmt.Sprintf(" (did you mean %q?)", like)
			}
			return spec, agentError(key, "hooks: unknown key %q in a ready-made hook's entry%s; the keys are prebuilt, with", key.Value, hint)
		}
	}
	if spec.Prebuilt == "" {
		return spec, agentError(item, "hooks: an entry that is a mapping must name a ready-made hook (prebuilt: name)")
	}
	return spec, nil
}

func noDuplicates(root *yaml.Node, hooks []string) error {
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "hooks" {
			list = root.Content[i+1]
		}
	}
	first := map[string]int{}
	for i, h := range hooks {
		if line, dup := first[h]; dup {
			return agentError(list.Content[i], "hook %q is declared twice (first on line %d)", h, line)
		}
		first[h] = list.Content[i].Line
	}
	return nil
}

func kindName(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Tag == "!!null":
		return "empty"
	case n.Kind == yaml.ScalarNode:
		return fmt.Sprintf("the value %q", n.Value)
	}
	return "an alias"
}

// agentError names the file line of n (the parser sees the front matter at
// its place in the file: its lines are the file's).
func agentError(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("agent: line %d: %s", n.Line, fmt.Sprintf(format, args...))
}
