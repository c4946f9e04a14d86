// Command hookcheck helps people who write hooks: it lints what they wrote,
// runs it at one point on a payload, and runs fixtures against it. It
// checks every kind of hook a user writes: JS hook folders, agent files
// (their JS hooks and their ready-made prebuilt: entries), command-hook
// settings, Claude Code settings and Gemini CLI settings.
//
//	go install github.com/rienda/hooks/cmd/hookcheck@latest
//
//	hookcheck lint [-dir DIR] [-kind K] [-tools a,b] [-toolnames a=B,…] [FILE_OR_FOLDER ...]
//	hookcheck run  [-dir DIR] [-kind K] [-confirm yes|no] [-workdir W] [-toolnames a=B,…] TARGET ... POINT PAYLOAD.json
//	hookcheck test [-dir DIR] [-kind K] [-workdir W] [-toolnames a=B,…] TARGET ... FIXTURES
//
// A TARGET is the name of a JS hook in DIR (default ~/.rienda/hooks), a
// folder holding index.js, an agent file (*.md: the hooks it declares, in
// order, ready-made ones built with prebuilt.FromSpec), or a settings file
// (*.json): command-hook settings ({"hooks": [ … ]}), Claude Code settings
// ({"hooks": {"PreToolUse": …}}) or Gemini CLI settings ({"hooks":
// {"BeforeTool": …}}), told apart by their shape; -kind (js, agent,
// command, claude, gemini) says it instead. lint takes any number of them;
// with no argument, or with -dir or an agent file, it also lints every
// hook of DIR. run and test take one or more: their hooks make one chain,
// in the order given, as the library runs them (a Claude Code and a Gemini
// CLI settings file side by side).
//
// lint checks the names a file gives tools against the tools there are:
// the agent file's tools:, or -tools for settings files (else the tools
// of the agent files linted with them). A matcher of a tool event (command
// hooks, Claude Code, Gemini CLI) and a -toolnames host name that match
// no tool are problems, as each dialect's CheckToolNames says (the rules
// live there, once); so are a prebuilt entry's perTool, tools and
// shellTools, with the closest name. In a JS hook it checks the object literals an
// export returns: a key that is not a field of the point's return shape
// ({Allow: false}, {txt: …}) is a problem, with the field meant; and it
// hints at state that a fresh runtime per call makes start over each time
// (a module-level variable a handler changes, globalThis.x = …).
//
// Commands of a settings file run in -workdir, by default the project
// folder: the parent of the .claude or .gemini folder holding the first
// settings file, else that file's folder. -toolnames shows the host's
// tool names to Claude Code and Gemini CLI scripts as theirs (shell=Bash).
//
// A payload is the "input" of a fixture (see package hooktest): {"call":
// …} for tool points, {"request": …} or {"response": …} for model points,
// {"end": …} for afterRun; "-" reads it from stdin. FIXTURES is a folder of
// *.json fixtures or one fixture file. Fixtures are read strictly: a key
// that is not a field (names match exactly, case included) is an error
// that lists the fields there are, and so is a key given twice or a null.
// A fixture's commands see only PATH and the fixture's host.env.
//
// The exit status is 1 when a check fails, 2 for bad usage or input.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rienda/hooks"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage:
  hookcheck lint [-dir DIR] [-kind K] [-tools a,b] [-toolnames a=B,...] [FILE_OR_FOLDER ...]
  hookcheck run  [-dir DIR] [-kind K] [-confirm yes|no] [-workdir W] [-toolnames a=B,...] TARGET... POINT PAYLOAD.json
  hookcheck test [-dir DIR] [-kind K] [-workdir W] [-toolnames a=B,...] TARGET... FIXTURES
TARGET: a JS hook's name in DIR, a hook folder, an agent file (.md), or a settings file (.json:
command hooks, or a dialect's: %s); -kind %s says which.
Several TARGETs run as one chain, in the order given.`

// usageText is usage with the registered dialects.
func usageText() string {
	var names, kinds []string
	for _, d := range sortedDialects() {
		names = append(names, d.name)
	}
	for _, k := range allKinds() {
		kinds = append(kinds, string(k))
	}
	return fmt.Sprintf(usage, strings.Join(names, ", "), strings.Join(kinds, "|"))
}

// kindList is "js, agent, command, claude or gemini", with every
// registered dialect.
func kindList() string {
	var ks []string
	for _, k := range allKinds() {
		ks = append(ks, string(k))
	}
	return strings.Join(ks[:len(ks)-1], ", ") + " or " + ks[len(ks)-1]
}

// run is the command; it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usageText())
		return 2
	}
	flags := flag.NewFlagSet("hookcheck "+args[0], flag.ContinueOnError)
	flags.SetOutput(stderr)
	dir := flags.String("dir", "", "the hooks directory (default ~/.rienda/hooks)")
	confirm := flags.String("confirm", "no", "how confirm prompts are answered: yes or no")
	kindName := flags.String("kind", "", "what the targets are: "+kindList()+" (default: detected)")
	workdir := flags.String("workdir", "", "where commands run (default: the settings file's project folder)")
	toolNames := flags.String("toolnames", "", "host tool names as the dialect's: shell=Bash,write_file=Write")
	tools := flags.String("tools", "", "lint: the host's tool names, to check names against: shell,read_file")
	if err := flags.Parse(args[1:]); err != nil {
		return 2
	}
	c := checker{dir: *dir, stdin: stdin, out: stdout, errs: stderr, workdir: *workdir}
	flags.Visit(func(f *flag.Flag) { c.dirGiven = c.dirGiven || f.Name == "dir" })
	var err error
	if c.kind, err = parseKind(*kindName); err != nil {
		return c.fail(err)
	}
	if c.toolNames, err = parseToolNames(*toolNames); err != nil {
		return c.fail(err)
	}
	if c.tools, err = parseTools(*tools); err != nil {
		return c.fail(err)
	}
	if c.dir == "" {
		if c.dir, err = hooks.DefaultDir(); err != nil {
			return c.fail(err)
		}
	}
	rest := flags.Args()
	switch {
	case args[0] == "lint":
		return c.lint(rest)
	case args[0] == "run" && len(rest) >= 3:
		if *confirm != "yes" && *confirm != "no" {
			fmt.Fprintf(stderr, "hookcheck: -confirm %q: want yes or no\n", *confirm)
			return 2
		}
		n := len(rest)
		return c.run(rest[:n-2], rest[n-2], rest[n-1], *confirm == "yes")
	case args[0] == "test" && len(rest) >= 2:
		return c.test(rest[:len(rest)-1], rest[len(rest)-1])
	}
	fmt.Fprintln(stderr, usageText())
	return 2
}

// checker is one command's settings.
type checker struct {
	dir       string
	dirGiven  bool // -dir was given: lint the directory whatever else it lints
	kind      kind // -kind; "" detects each target's
	workdir   string
	toolNames map[string]string
	tools     []string // -tools: the host's tool names, for lint's name checks
	stdin     io.Reader
	out, errs io.Writer
}

// fail reports an error that stops the command before any check: 2.
func (c checker) fail(err error) int {
	fmt.Fprintln(c.errs, "hookcheck:", err)
	return 2
}

// kindOf is -kind, or what target is.
func (c checker) kindOf(target string) (kind, error) {
	if c.kind != "" {
		return c.kind, nil
	}
	return detect(target)
}
