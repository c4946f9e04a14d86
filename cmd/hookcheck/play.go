package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
)

// target is what run and test play: its hooks, in chain order, and where
// their commands run.
type target struct {
	name    string
	hooks   []hooks.Hook
	workdir string
}

// loadAll loads each target in turn into one chain, in the order given,
// as the library runs them: a Claude Code and a Gemini CLI settings file
// side by side. The run's folder is -workdir, else the first settings
// file's; one that differs is said (a chain has one Workdir).
func (c checker) loadAll(names []string) (target, error) {
	all := target{name: strings.Join(names, " + "), workdir: c.workdir}
	for _, name := range names {
		t, err := c.load(name)
		if err != nil {
			return all, err
		}
		all.hooks = append(all.hooks, t.hooks...)
		switch {
		case t.workdir == "" || t.workdir == all.workdir:
		case all.workdir == "":
			all.workdir = t.workdir
		case c.workdir == "":
			fmt.Fprintf(c.out, "load: %s: its commands run in %s, the first settings file's folder, not %s (-workdir chooses)\n", name, all.workdir, t.workdir)
		}
	}
	return all, nil
}

// load reads target as its kind and prints its load diagnostics; a target
// that cannot load is an error (exit 2), a broken JS hook loads with its
// diagnostics printed.
func (c checker) load(name string) (target, error) {
	t := target{name: name, workdir: c.workdir}
	k, err := c.kindOf(name)
	if err != nil {
		return t, err
	}
	diag := func(d hooks.Diagnostic) { fmt.Fprintf(c.out, "load: %s\n", d) }
	switch k {
	case kindJS:
		dir, hook := c.dir, name
		if info, err := os.Stat(name); err == nil && info.IsDir() {
			dir, hook = filepath.Dir(filepath.Clean(name)), filepath.Base(filepath.Clean(name))
		}
		h, err := (&hooks.Loader{Dir: dir, Diagnostics: diag}).Load(hook)
		t.hooks = []hooks.Hook{h}
		return t, err
	case kindAgent:
		data, err := os.ReadFile(name)
		if err != nil {
			return t, err
		}
		agent, err := hooks.ParseAgent(data)
		if err != nil {
			return t, fmt.Errorf("%s: %w", name, err)
		}
		t.hooks, err = c.loader(c.dir, diag).LoadAgent(agent)
		if err != nil {
			return t, fmt.Errorf("%s: %w", name, err)
		}
		return t, nil
	}
	if t.workdir == "" {
		t.workdir = defaultWorkdir(name)
	}
	t.hooks, err = settingsHooks(name, k, c.toolNames, diag)
	return t, err
}

// loader is the Loader of agent files: with ready-made hooks built as the
// library's users build them, by prebuilt.FromSpec.
func (c checker) loader(dir string, diag func(hooks.Diagnostic)) *hooks.Loader {
	return &hooks.Loader{Dir: dir, Diagnostics: diag, Prebuilt: prebuilt.FromSpec}
}

// handles reports whether any of t's hooks handles p.
func (t target) handles(p hooks.Point) bool {
	for _, h := range t.hooks {
		if ph, ok := h.(hooks.PointHandler); !ok || ph.Handles(p) {
			return true
		}
	}
	return false
}

// env is what a command sees in hookcheck: PATH, so that scripts find
// their tools, and nothing else of this process unless a fixture says so.
func env(given map[string]string) map[string]string {
	out := map[string]string{"PATH": os.Getenv("PATH")}
	for k, v := range given {
		out[k] = v
	}
	return out
}

// run runs a target at one point on a payload and prints what happened.
func (c checker) run(names []string, pointName, payloadPath string, yes bool) int {
	point, err := hooks.ParsePoint(pointName)
	if err != nil {
		return c.fail(err)
	}
	input, err := c.payload(payloadPath)
	if err != nil {
		return c.fail(err)
	}
	t, err := c.loadAll(names)
	if err != nil {
		return c.fail(err)
	}
	if !t.handles(point) {
		fmt.Fprintf(c.out, "%s does not handle %s\n", t.name, point)
		return 1
	}
	harness, err := hooktest.Start(hooktest.Options{Host: hooks.Host{AutoApprove: yes, Workdir: t.workdir, Env: env(nil)}}, t.hooks...)
	if err != nil {
		fmt.Fprintln(c.errs, "hookcheck:", err)
		return 1
	}
	began := time.Now()
	out, err := harness.Play(point, input)
	if err != nil {
		harness.End(hooks.RunEnd{})
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
	took := time.Since(began)
	harness.End(hooks.RunEnd{})
	fmt.Fprintf(c.out, "decision: %s\n", decision)
	fmt.Fprintf(c.out, "trace:\n")
	for _, e := range out.Decisions {
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

// payloadShape is a payload's: a fixture's "input".
var payloadShape = shapeOf(reflect.TypeFor[hooktest.FixtureInput]())

// payload reads a fixture input from a file or stdin ("-"), strictly.
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
	const want = `want {"call": …}, {"request": …}, {"response": …} or {"end": …}`
	if err := checkStrict(data, payloadShape); err != nil {
		return in, fmt.Errorf("%s: not a payload: %v; %s", path, err, want)
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return in, fmt.Errorf("%s: not a payload (%v); %s", path, err, want)
	}
	return in, nil
}

// test runs fixtures against a target.
func (c checker) test(names []string, fixturesPath string) int {
	fixtures, err := loadFixtures(fixturesPath)
	if err != nil {
		return c.fail(err)
	}
	t, err := c.loadAll(names)
	if err != nil {
		return c.fail(err)
	}
	failed := 0
	for _, f := range fixtures {
		if f.Host.Workdir == "" {
			f.Host.Workdir = t.workdir
		}
		f.Host.Env = env(f.Host.Env)
		if err := hooktest.Check(f, t.hooks...); err != nil {
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

// fixtureShape is a fixture file's.
var fixtureShape = shapeOf(reflect.TypeFor[hooktest.Fixture]())

// loadFixtures reads a fixture file, or every *.json file of a folder,
// sorted by name, strictly (checkStrict). A fixture without a name is
// named after its file.
func loadFixtures(path string) ([]hooktest.Fixture, error) {
	paths := []string{path}
	if info, err := os.Stat(path); err != nil {
		return nil, err
	} else if info.IsDir() {
		if paths, err = filepath.Glob(filepath.Join(path, "*.json")); err != nil {
			return nil, err
		}
		if len(paths) == 0 {
			return nil, fmt.Errorf("no fixtures (*.json) in %s", path)
		}
	}
	out := make([]hooktest.Fixture, 0, len(paths))
	for _, p := range paths { // Glob sorts
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var f hooktest.Fixture
		if err := checkStrict(data, fixtureShape); err != nil {
			return nil, fmt.Errorf("fixture %s: %w", p, err)
		}
		if err := json.Unmarshal(data, &f); err != nil {
			return nil, fmt.Errorf("fixture %s: %w", p, err)
		}
		f.File = p
		if f.Name == "" {
			f.Name = strings.TrimSuffix(filepath.Base(p), ".json")
		}
		out = append(out, f)
	}
	return out, nil
}
