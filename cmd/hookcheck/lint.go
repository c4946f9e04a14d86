package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rienda/hooks"
)

// linted counts what lint checked, for its last line.
type linted struct {
	hooks, agents, settings int
}

// lint checks every target given (and the hooks directory, see the package
// doc) and prints each problem once; 1 if there was one.
func (c checker) lint(targets []string) int {
	problems := 0
	report := func(format string, args ...any) {
		problems++
		fmt.Fprintf(c.out, format+"\n", args...)
	}
	type item struct {
		path string
		kind kind
	}
	items := make([]item, 0, len(targets))
	var agents []string
	for _, t := range targets {
		k, err := c.kindOf(t)
		if err != nil {
			return c.fail(err)
		}
		if k == kindAgent {
			agents = append(agents, t)
		}
		items = append(items, item{t, k})
	}
	lintDir := c.dirGiven || len(targets) == 0 || len(agents) > 0
	var n linted
	if lintDir && c.dirNeeded(len(targets)) {
		loaded, err := c.lintDir(c.dir, report)
		if err != nil {
			return c.fail(err)
		}
		n.hooks += loaded
	}
	settingsTools := c.settingsTools(agents)
	for _, it := range items {
		switch it.kind {
		case kindAgent:
			c.lintAgent(it.path, report)
			n.agents++
		case kindJS:
			loaded, err := c.lintFolder(it.path, report)
			if err != nil {
				return c.fail(err)
			}
			n.hooks += loaded
		default:
			c.lintSettings(it.path, it.kind, settingsTools, report)
			n.settings++
		}
	}
	if problems > 0 {
		fmt.Fprintf(c.out, "%d problem(s)\n", problems)
		return 1
	}
	fmt.Fprintf(c.out, "ok: %d hook(s), %d agent file(s)", n.hooks, n.agents)
	if n.settings > 0 {
		fmt.Fprintf(c.out, ", %d settings file(s)", n.settings)
	}
	fmt.Fprintln(c.out)
	return 0
}

// settingsTools is what settings files' names are checked against:
// -tools, else the tools of the agent files linted with them.
func (c checker) settingsTools(agents []string) toolList {
	tools := toolList{host: c.tools}
	if len(c.tools) > 0 {
		return tools
	}
	for _, path := range agents {
		for _, tool := range agentTools(path) {
			if !slices.Contains(tools.host, tool) { // in the files' order
				tools.host = append(tools.host, tool)
			}
		}
	}
	return tools
}

// dirNeeded says whether the hooks directory is linted when lint was
// asked to: not a default directory that is not there when lint lints it
// only for agent files' sake (a JS hook an agent declares is then
// reported missing by the agent's own check).
func (c checker) dirNeeded(targets int) bool {
	if c.dirGiven || targets == 0 {
		return true
	}
	_, err := os.Stat(c.dir)
	return !errors.Is(err, fs.ErrNotExist)
}

// lintDir loads every hook of a hooks directory, reporting each problem.
func (c checker) lintDir(dir string, report func(format string, args ...any)) (int, error) {
	loader := hooks.Loader{Dir: dir, Diagnostics: func(d hooks.Diagnostic) { report("%s", d) }}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	loaded := 0
	for _, e := range entries {
		if !e.IsDir() && e.Type()&os.ModeSymlink == 0 {
			continue
		}
		if _, err := loader.Load(e.Name()); err != nil {
			report("%v", err)
			continue
		}
		c.lintSource(filepath.Join(dir, e.Name(), "index.js"), report)
		loaded++
	}
	return loaded, nil
}

// lintSource reports what the source of a hook that loaded says on its
// face (lintJS): problems, counted, and hints, printed only.
func (c checker) lintSource(path string, report func(format string, args ...any)) {
	for _, f := range lintJS(path) {
		if f.hint {
			fmt.Fprintf(c.out, "%s: hint: %s\n", f.pos, f.msg)
			continue
		}
		report("%s: %s", f.pos, f.msg)
	}
}

// lintFolder lints a folder given on the command line: one hook when it
// holds index.js, else a hooks directory. A bare name is a hook of -dir.
func (c checker) lintFolder(path string, report func(format string, args ...any)) (int, error) {
	info, err := os.Stat(path)
	if err != nil { // a name, not a path: a hook of -dir
		loader := hooks.Loader{Dir: c.dir, Diagnostics: func(d hooks.Diagnostic) { report("%s", d) }}
		if _, err := loader.Load(path); err != nil {
			report("%v", err)
			return 0, nil
		}
		c.lintSource(filepath.Join(c.dir, path, "index.js"), report)
		return 1, nil
	}
	if !info.IsDir() {
		return 0, fmt.Errorf("%s: not a hook folder", path)
	}
	if _, err := os.Stat(filepath.Join(path, "index.js")); err != nil {
		return c.lintDir(path, report)
	}
	loader := hooks.Loader{Dir: filepath.Dir(filepath.Clean(path)), Diagnostics: func(d hooks.Diagnostic) { report("%s", d) }}
	if _, err := loader.Load(filepath.Base(filepath.Clean(path))); err != nil {
		report("%v", err)
		return 0, nil
	}
	c.lintSource(filepath.Join(path, "index.js"), report)
	return 1, nil
}

// lintAgent reports the problems of one agent file, each as "FILE: line N:
// …" when it has a line: a parse error, a misspelt key (a Diagnostic with
// no hook) and a declared hook that does not load. The diagnostics of the
// hooks it loads are left out: every hook an agent can load is a folder of
// the directory, whose diagnostics lint has printed already, once.
func (c checker) lintAgent(path string, report func(format string, args ...any)) {
	data, err := os.ReadFile(path)
	if err != nil {
		report("%v", err)
		return
	}
	agent, err := hooks.ParseAgent(data)
	if err != nil {
		report("%s: %s", path, strings.TrimPrefix(err.Error(), "agent: "))
		return
	}
	loader := c.loader(c.dir, func(d hooks.Diagnostic) {
		if d.Hook == "" {
			report("%s: %s", path, strings.TrimPrefix(d.Err.Error(), "agent: "))
		}
	})
	if _, err := loader.LoadAgent(agent); err != nil {
		report("%s: %v", path, err)
	}
	lintPrices(path, agent, report)
	tools := toolList{host: agent.Tools}
	if len(tools.host) == 0 {
		tools.host = c.tools
	}
	if len(tools.host) > 0 {
		lintSpecNames(path, agent, tools, report)
	}
}

// agentTools is the tools: of the agent file at path; nil when it has
// none or does not parse (lintAgent says why).
func agentTools(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	agent, err := hooks.ParseAgent(data)
	if err != nil {
		return nil
	}
	return agent.Tools
}

// lintSettings reports the problems of one settings file: an error that
// stops it loading (naming the entry, field and line), and every load
// diagnostic: a handler or event the file asks for that will not run as
// written.
//
// With tools to check against, it also reports each matcher of a tool
// event that matches no tool.
func (c checker) lintSettings(path string, k kind, tools toolList, report func(format string, args ...any)) {
	_, err := settingsHooks(path, k, c.toolNames, func(d hooks.Diagnostic) {
		report("%s: %s", path, d)
	})
	if err != nil {
		report("%v", err)
		return
	}
	if len(tools.host) == 0 {
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		report("%v", err)
		return
	}
	c.lintMatchers(path, data, k, tools, report)
}
