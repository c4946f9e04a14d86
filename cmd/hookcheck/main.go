// Command hookcheck helps people who write hooks: it lints a hooks
// directory and agent files, runs one hook at one point on a payload, and
// runs fixtures against a hook.
//
//	go run ./cmd/hookcheck lint [-dir DIR] [AGENT_FILE ...]
//	go run ./cmd/hookcheck run [-dir DIR] [-confirm yes|no] NAME POINT PAYLOAD.json
//	go run ./cmd/hookcheck test [-dir DIR] NAME FIXTURES_DIR
//
// DIR defaults to ~/.rienda/hooks. A payload is the "input" of a fixture
// (see package hooktest): {"call": …} for tool points, {"request": …} or
// {"response": …} for model points, {"end": …} for afterRun; "-" reads it
// from stdin. The exit status is 1 when a check fails, 2 for bad usage.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage:
  hookcheck lint [-dir DIR] [AGENT_FILE ...]
  hookcheck run [-dir DIR] [-confirm yes|no] NAME POINT PAYLOAD.json
  hookcheck test [-dir DIR] NAME FIXTURES_DIR`

// run is the command; it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	flags := flag.NewFlagSet("hookcheck "+args[0], flag.ContinueOnError)
	flags.SetOutput(stderr)
	dir := flags.String("dir", "", "the hooks directory (default ~/.rienda/hooks)")
	confirm := flags.String("confirm", "no", "how confirm prompts are answered: yes or no")
	if err := flags.Parse(args[1:]); err != nil {
		return 2
	}
	if *dir == "" {
		d, err := hooks.DefaultDir()
		if err != nil {
			fmt.Fprintln(stderr, "hookcheck:", err)
			return 2
		}
		*dir = d
	}
	c := checker{dir: *dir, stdin: stdin, out: stdout, errs: stderr}
	rest := flags.Args()
	switch {
	case args[0] == "lint":
		return c.lint(rest)
	case args[0] == "run" && len(rest) == 3:
		if *confirm != "yes" && *confirm != "no" {
			fmt.Fprintf(stderr, "hookcheck: -confirm %q: want yes or no\n", *confirm)
			return 2
		}
		return c.run(rest[0], rest[1], rest[2], *confirm == "yes")
	case args[0] == "test" && len(rest) == 2:
		return c.test(rest[0], rest[1])
	}
	fmt.Fprintln(stderr, usage)
	return 2
}

type checker struct {
	dir       string
	stdin     io.Reader
	out, errs io.Writer
}

// fail reports an error that stops the command before any check: 2.
func (c checker) fail(err error) int {
	fmt.Fprintln(c.errs, "hookcheck:", err)
	return 2
}

// lint loads every hook of the directory and every agent file given, and
// prints each problem once; 1 if there was one.
func (c checker) lint(agentFiles []string) int {
	problems := 0
	report := func(format string, args ...any) {
		problems++
		fmt.Fprintf(c.out, format+"\n", args...)
	}
	loader := hooks.Loader{Dir: c.dir, Diagnostics: func(d hooks.Diagnostic) { report("%s", d) }}
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return c.fail(err)
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
		loaded++
	}
	for _, path := range agentFiles {
		c.lintAgent(path, report)
	}
	if problems > 0 {
		fmt.Fprintf(c.out, "%d problem(s)\n", problems)
		return 1
	}
	fmt.Fprintf(c.out, "ok: %d hook(s), %d agent file(s)\n", loaded, len(agentFiles))
	return 0
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
	loader := hooks.Loader{Dir: c.dir, Diagnostics: func(d hooks.Diagnostic) {
		if d.Hook == "" {
			report("%s: %s", path, strings.TrimPrefix(d.Err.Error(), "agent: "))
		}
	}}
	if _, err := loader.LoadAgent(agent); err != nil {
		report("%s: %v", path, err)
	}
}

// load loads one hook; a missing hook is an error, a broken one loads with
// its diagnostics printed.
func (c checker) load(name string) (hooks.Hook, bool) {
	loader := hooks.Loader{Dir: c.dir, Diagnostics: func(d hooks.Diagnostic) { fmt.Fprintf(c.out, "load: %s\n", d) }}
	h, err := loader.Load(name)
	if err != nil {
		fmt.Fprintln(c.errs, "hookcheck:", err)
		return nil, false
	}
	return h, true
}

// run runs one hook at one point on a payload and prints what happened.
func (c checker) run(name, pointName, payloadPath string, yes bool) int {
	point, err := hooks.ParsePoint(pointName)
	if err != nil {
		return c.fail(err)
	}
	input, err := c.payload(payloadPath)
	if err != nil {
		return c.fail(err)
	}
	h, ok := c.load(name)
	if !ok {
		return 2
	}
	if ph, ok := h.(hooks.PointHandler); ok && !ph.Handles(point) {
		fmt.Fprintf(c.out, "%s does not handle %s\n", name, point)
		return 1
	}
	harness, err := hooktest.Start(hooktest.Options{AutoApprove: yes}, h)
	if err != nil {
		fmt.Fprintln(c.errs, "hookcheck:", err)
		return 1
	}
	began := time.Now()
	out, err := harness.Play(point, input)
	if err != nil {
		fmt.Fprintf(c.errs, "hookcheck: %s: %v\n", payloadPath, err)
		return 2
	}
	decision := "the run ended"
	switch {
	case out.Tool != nil:
		decision = out.Tool.String()
	case out.Model != nil:
		decision = out.Model.String()
	}
	decisions := out.Decisions
	took := time.Since(began)
	harness.End(hooks.RunEnd{})
	fmt.Fprintf(c.out, "decision: %s\n", decision)
	fmt.Fprintf(c.out, "trace:\n")
	for _, e := range decisions {
		fmt.Fprintf(c.out, "%s (%s)\n", hooktest.Describe([]hooks.TraceEvent{e}), e.Duration.Round(time.Microsecond))
	}
	for _, l := range harness.Logs() {
		fmt.Fprintf(c.out, "log: %s\n", l)
	}
	for _, p := range harness.Prompts() {
		fmt.Fprintf(c.out, "confirm: %q (answered %s)\n", p.Title, map[bool]string{true: "yes", false: "no"}[yes])
	}
	for _, n := range harness.Notices() {
		fmt.Fprintf(c.out, "notice: %s: %s\n", n.Title, n.Body)
	}
	for _, d := range harness.Diagnostics() {
		fmt.Fprintf(c.out, "diagnostic: %s\n", d)
	}
	fmt.Fprintf(c.out, "took %s\n", took.Round(time.Microsecond))
	return 0
}

// payload reads a fixture input from a file or stdin ("-").
func (c checker) payload(path string) (hooktest.FixtureInput, error) {
	var in hooktest.FixtureInput
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(c.stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return in, err
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return in, fmt.Errorf("%s: not a payload (%v); want {\"call\": …}, {\"request\": …}, {\"response\": …} or {\"end\": …}", path, err)
	}
	return in, nil
}

// test runs a folder of fixtures against a hook.
func (c checker) test(name, fixturesDir string) int {
	fixtures, err := hooktest.LoadFixtures(fixturesDir)
	if err != nil {
		return c.fail(err)
	}
	h, ok := c.load(name)
	if !ok {
		return 2
	}
	failed := 0
	for _, f := range fixtures {
		if err := hooktest.Check(f, h); err != nil {
			failed++
			fmt.Fprintf(c.out, "FAIL %s\n%v\n", f.Name, err)
			continue
		}
		fmt.Fprintf(c.out, "ok   %s\n", f.Name)
	}
	if failed > 0 {
		fmt.Fprintf(c.out, "%d of %d fixture(s) failed\n", failed, len(fixtures))
		return 1
	}
	fmt.Fprintf(c.out, "%d fixture(s) passed\n", len(fixtures))
	return 0
}
