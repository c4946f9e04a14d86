package claudecode

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/shell"
)

// rule is a handler's "if": one Claude Code permission rule, "Tool" or
// "Tool(specifier)", that narrows which tool calls the handler sees.
// The specifier is read as Claude Code reads it for that tool:
//   - Bash: a pattern of the whole command where "*" stands for any text
//     ("git *", "npm run test *"); the older "prefix:*" is a prefix.
//   - Read, Edit, Write, MultiEdit, NotebookEdit, Glob, Grep: a
//     gitignore-style path pattern ("src/**", "*.env", "/docs/**" from the
//     project directory, "//etc/**" absolute, "~/x" from the home
//     directory; "**" crosses directories, "*" does not).
//   - WebFetch: "domain:example.com".
//   - any other tool: a pattern, as for Bash, of its first string
//     argument among command, file_path, path, url, pattern.
type rule struct {
	tool string
	spec string // "" for the whole tool
}

// pathTools are the tools whose specifier is a path pattern, with the
// argument that holds the path.
var pathTools = map[string]string{"Read": "file_path", "Edit": "file_path", "Write": "file_path",
	"MultiEdit": "file_path", "NotebookEdit": "notebook_path", "Glob": "path", "Grep": "path"}

// parseRule reads an "if" value.
func parseRule(s string) (rule, error) {
	s = strings.TrimSpace(s)
	open := strings.IndexByte(s, '(')
	if open < 0 {
		if s == "" || strings.ContainsAny(s, ")* ") {
			return rule{}, fmt.Errorf("%q is not a permission rule (\"Bash(git *)\", \"Edit(src/**)\", \"Read\")", s)
		}
		return rule{tool: s}, nil
	}
	if !strings.HasSuffix(s, ")") || open == 0 {
		return rule{}, fmt.Errorf("%q is not a permission rule: it must read Tool(specifier), as \"Bash(git *)\"", s)
	}
	r := rule{tool: s[:open], spec: s[open+1 : len(s)-1]}
	if r.spec == "*" {
		r.spec = ""
	}
	return r, nil
}

// matches reports whether a call of the Claude tool name with args is one
// the rule names; cwd is the project directory, for relative paths.
// Arguments are found as the tool's decoder finds them (any case:
// hooks.ArgumentKeys), and the rule takes the call when any variant
// matches. A value the rule cannot read (not a string, a command the
// shell parser cannot read) takes the call: the handler runs, never
// skipped, as a guard narrowed by "if" must not miss what it cannot see.
func (r rule) matches(name string, args map[string]any, cwd string) bool {
	if r.tool != name {
		return false
	}
	if r.spec == "" {
		return true
	}
	anyOf := func(key string, match func(string) bool) bool {
		for _, k := range hooks.ArgumentKeys(args, key) {
			s, ok := args[k].(string)
			if !ok && args[k] != nil || match(s) {
				return true
			}
		}
		return false
	}
	switch {
	case name == "Bash":
		return anyOf("command", func(s string) bool { return commandMatches(r.spec, s) })
	case pathTools[name] != "" && cwd == "":
		return true // no project directory to place paths in: the handler runs, never skipped
	case pathTools[name] != "":
		key := pathTools[name]
		if len(hooks.ArgumentKeys(args, key)) == 0 && (name == "Glob" || name == "Grep") {
			return pathMatches(r.spec, cwd, cwd)
		}
		return anyOf(key, func(p string) bool { return pathMatches(r.spec, p, cwd) })
	case name == "WebFetch" && strings.HasPrefix(r.spec, "domain:"):
		return anyOf("url", func(s string) bool {
			u, err := url.Parse(s)
			return err != nil || strings.EqualFold(strings.TrimSuffix(u.Hostname(), "."), strings.TrimPrefix(r.spec, "domain:"))
		})
	}
	for _, key := range []string{"command", "file_path", "path", "url", "pattern"} {
		if len(hooks.ArgumentKeys(args, key)) > 0 {
			return anyOf(key, func(s string) bool { return commandMatches(r.spec, s) })
		}
	}
	return false
}

// commandMatches matches a Bash specifier as Claude Code's permission
// rules do: against the whole command, and against each simple command
// it runs, read by a shell parser (internal/shell), past the
// assignments and wrappers before it, through &&, ;, |, subshells,
// $(…), bash -c and eval: "git push *" takes "cd repo && git push
// --force", "GIT_TRACE=1 git push" and "bash -c 'git push'". A command
// the parser cannot read, or that runs something decided only at run
// time, takes the call (the handler runs). "prefix:*" is a prefix, any
// other "*" stands for any text, and the rest is exact.
func commandMatches(spec, command string) bool {
	if commandLineMatches(spec, strings.TrimSpace(command)) {
		return true
	}
	script, err := shell.Parse(command, shell.Config{})
	if err != nil || len(script.Unresolved) > 0 {
		return true
	}
	for _, c := range script.Commands {
		words := make([]string, len(c.Args))
		for i, w := range c.Args {
			words[i] = w.Text
		}
		line := strings.Join(words, " ")
		if commandLineMatches(spec, line) || c.Name() != words[0] && commandLineMatches(spec, strings.Join(append([]string{c.Name()}, words[1:]...), " ")) {
			return true // also by the program's name alone: "Bash(rm *)" takes /bin/rm
		}
		if len(c.Assigns) > 0 && commandLineMatches(spec, strings.Join(c.Assigns, " ")+" "+line) {
			return true
		}
	}
	return false
}

// commandLineMatches matches one command line against a specifier.
func commandLineMatches(spec, command string) bool {
	if prefix, ok := strings.CutSuffix(spec, ":*"); ok {
		return command == prefix || strings.HasPrefix(command, prefix+" ") || strings.HasPrefix(command, prefix)
	}
	return wildcard(spec, command, false)
}

// pathMatches matches a path pattern against p, both made absolute.
func pathMatches(spec, p, cwd string) bool {
	if p == "" {
		return false
	}
	raw := p // as the OS reads it: links before ".."
	if !filepath.IsAbs(p) {
		raw = cwd + string(filepath.Separator) + p
		p = filepath.Join(cwd, p)
	}
	p = filepath.ToSlash(filepath.Clean(p))
	switch {
	case strings.HasPrefix(spec, "//"):
		spec = spec[1:]
	case strings.HasPrefix(spec, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return false
		}
		spec = filepath.ToSlash(home) + spec[1:]
	case strings.HasPrefix(spec, "/"):
		spec = filepath.ToSlash(cwd) + spec
	case !strings.Contains(spec, "/"):
		spec = "**/" + spec // gitignore: a name alone matches at any depth
		spec = filepath.ToSlash(cwd) + "/" + spec
	default:
		spec = filepath.ToSlash(cwd) + "/" + spec
	}
	if strings.HasSuffix(spec, "/") {
		spec += "**"
	}
	spec = path.Clean(spec)
	if wildcard(spec, p, true) {
		return true
	}
	// The file the tool opens, links followed (/proc/self/root/etc/x is
	// /etc/x, link/.env is where link leads): a rule on the target takes
	// the call by any path to it.
	r, err := filepath.EvalSymlinks(raw)
	if err != nil {
		dir, derr := filepath.EvalSymlinks(filepath.Dir(raw))
		if derr != nil {
			return false
		}
		r = filepath.Join(dir, filepath.Base(p))
	}
	return r != p && wildcard(spec, filepath.ToSlash(r), true)
}

// wildcard matches s against pattern, where "*" stands for any text (in
// paths, any text within one segment) and, in paths, "**" for any number
// of segments. It runs as a Go regular expression: linear in s, whatever
// the pattern, as a model-chosen command must not hold a call.
func wildcard(pattern, s string, paths bool) bool {
	var b strings.Builder
	b.WriteString("(?s)^")
	for len(pattern) > 0 {
		switch {
		case paths && strings.HasPrefix(pattern, "**/"):
			b.WriteString("(?:.*/)?")
			pattern = pattern[3:]
		case paths && strings.HasPrefix(pattern, "**"):
			b.WriteString(".*")
			pattern = pattern[2:]
		case pattern[0] == '*' && paths:
			b.WriteString("[^/]*")
			pattern = pattern[1:]
		case pattern[0] == '*':
			b.WriteString(".*")
			pattern = pattern[1:]
		default:
			n := strings.IndexByte(pattern, '*')
			if n < 0 {
				n = len(pattern)
			}
			b.WriteString(regexp.QuoteMeta(pattern[:n]))
			pattern = pattern[n:]
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	return err == nil && re.MatchString(s)
}
