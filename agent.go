package hooks

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
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
}

const fence = "---"

// ParseAgent reads an agent file: optional YAML front matter between two
// "---" lines, then the prompt. Without front matter the whole text is the
// prompt and the agent declares no hooks. Unknown keys are ignored, so that
// newer files still load; malformed YAML, a key of the wrong type, an
// unclosed fence and a hook declared twice are errors that name the line.
func ParseAgent(data []byte) (*Agent, error) {
	text := strings.TrimPrefix(string(data), "\ufeff")
	first, body, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t\r") != fence {
		return &Agent{Prompt: text}, nil
	}
	front, prompt, ok := cutFence(body)
	if !ok {
		return nil, fmt.Errorf("agent: line 1: the front matter opened here is never closed with a %q line", fence)
	}
	a := &Agent{Prompt: prompt}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(front), &doc); err != nil {
		return nil, fmt.Errorf("agent: %s", fileLines(err.Error()))
	}
	if len(doc.Content) == 0 { // empty front matter
		return a, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, agentError(root, "the front matter must be a mapping of keys (name, description, model, tools, hooks)")
	}
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, value := root.Content[i], root.Content[i+1]
		if prev, dup := seen[key.Value]; dup {
			return nil, agentError(key, "key %q is set twice (first on line %d)", key.Value, prev.Line+1)
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
			a.Hooks, err = names("hooks", "a list of hook names", value)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := noDuplicates(root, a.Hooks); err != nil {
		return nil, err
	}
	return a, nil
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
		first[h] = list.Content[i].Line + 1
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

// agentError names the file line of n: the front matter starts on line 2.
func agentError(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("agent: line %d: %s", n.Line+1, fmt.Sprintf(format, args...))
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// fileLines turns the front-matter line numbers of a YAML error into file
// line numbers.
func fileLines(msg string) string {
	msg = strings.TrimPrefix(msg, "yaml: ")
	return yamlLine.ReplaceAllStringFunc(msg, func(s string) string {
		n, _ := strconv.Atoi(strings.TrimPrefix(s, "line "))
		return "line " + strconv.Itoa(n+1)
	})
}
