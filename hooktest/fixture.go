package hooktest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/strictjson"
)

// Fixture is one call and the decision expected of the hooks, as a JSON
// file:
//
//	{
//	  "name": "refuses rm -rf",                        // optional; default: the file name
//	  "point": "beforeToolExecute",
//	  "input": {"call": {"name": "shell", "arguments": {"command": "rm -rf /"}}},
//	  "host": {"confirm": [false], "env": {"CI": "1"}},  // optional
//	  "expect": {"refused": true, "reason": "refused by the user", "diagnostics": 0}
//	}
//
// The input by point: beforeToolExecute {call}; afterToolExecute {call,
// result} (the result the tool returns); beforeModelRequest {request:
// {system, messages}}; afterModelResponse {response: {text, toolCalls}}
// (the reply the model gives); afterRun {end: {outcome, reason, output}}.
// The host: confirm (Confirm's answers, in order), review (Review's
// answers, in order, as verdicts: {"approved": true}, {"approved": true,
// "arguments": {…}} for an edit, {"message": "…"} for a rejection,
// {"result": {"text": "…", "isError": false}} for an answer; see
// Options.Verdicts), autoApprove, env,
// workdir, session, and clock: an RFC 3339 time ("2026-12-05T09:00:00Z")
// that the host's clock reads all through the fixture (Host.System.Clock),
// for a policy that depends on the date or the hour. The env is the whole
// environment of the fixture's commands: without it, they get none.
//
// The file is read strictly: a key that no field has, in another case
// ("Refused"), or given twice is an error naming it, with the valid keys
// and the line.
//
// Every expectation is optional; only those present are checked. For tool
// points: refused and reason; ran (the tool ran); arguments (what the tool
// saw, compared as JSON); result ({text, isError}, and value when given:
// what the model reads). For model points: called (the model was called),
// system (the prompt it got), text (the reply after the hooks), end (the
// output a hook ended the run with), continue. For every point:
// diagnostics, prompts and notices (how many).
type Fixture struct {
	Name   string        `json:"name"`
	Point  hooks.Point   `json:"point"`
	Input  FixtureInput  `json:"input"`
	Host   FixtureHost   `json:"host"`
	Expect FixtureExpect `json:"expect"`

	// File is the file the fixture was read from (LoadFixtures sets it),
	// so that a failure says which file to open.
	File string `json:"-"`
}

// FixtureInput is the payload of a fixture's call.
type FixtureInput struct {
	Call     *hooks.ToolCall      `json:"call"`
	Result   *hooks.ToolResult    `json:"result"`
	Request  *hooks.ModelRequest  `json:"request"`
	Response *hooks.ModelResponse `json:"response"`
	End      *hooks.RunEnd        `json:"end"`
}

// FixtureHost is what the host answers in a fixture.
type FixtureHost struct {
	Confirm     []bool            `json:"confirm"`
	Review      []hooks.Verdict   `json:"review"`
	AutoApprove bool              `json:"autoApprove"`
	Env         map[string]string `json:"env"`
	Workdir     string            `json:"workdir"`
	Session     string            `json:"session"`
	Clock       string            `json:"clock"` // RFC 3339; "": the real time
}

// FixtureExpect is the decision a fixture expects.
type FixtureExpect struct {
	Refused     *bool                `json:"refused"`
	Reason      *string              `json:"reason"`
	Ran         *bool                `json:"ran"`
	Arguments   map[string]any       `json:"arguments"`
	Result      *hooks.ToolResult    `json:"result"`
	Called      *bool                `json:"called"`
	System      *string              `json:"system"`
	Text        *string              `json:"text"`
	End         *string              `json:"end"`
	Continue    *string              `json:"continue"`
	ToolChoice  *hooks.ToolChoice    `json:"toolChoice"` // the tool choice the model got
	Settings    *hooks.ModelSettings `json:"settings"`   // the settings the model got, compared as JSON
	Reasoning   *string              `json:"reasoning"`  // the reply's reasoning after the hooks
	Diagnostics *int                 `json:"diagnostics"`
	Prompts     *int                 `json:"prompts"`
	Notices     *int                 `json:"notices"`
}

// LoadFixtures reads every *.json file of dir, sorted by name. A fixture
// without a name is named after its file.
func LoadFixtures(dir string) ([]Fixture, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("hooktest: no fixtures (*.json) in %s", dir)
	}
	sort.Strings(paths)
	out := make([]Fixture, 0, len(paths))
	for _, p := range paths {
		f, err := loadFixture(p)
		if err != nil {
			return nil, fmt.Errorf("hooktest: fixture %s: %w", p, err)
		}
		out = append(out, f)
	}
	return out, nil
}

// fixtureShape is what a fixture file may hold: the keys of Fixture's
// types, exactly.
var fixtureShape = strictjson.ShapeOf(reflect.TypeFor[Fixture]())

func loadFixture(path string) (Fixture, error) {
	var f Fixture
	data, err := os.ReadFile(path)
	if err != nil {
		return f, err
	}
	// A misspelt expectation must not pass silently: encoding/json (even
	// with DisallowUnknownFields) takes "Refused" for "refused" and keeps
	// the last of a repeated key, so the keys are checked first, exactly.
	if err := strictjson.Check(data, fixtureShape); err != nil {
		return f, err
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, err
	}
	if _, err := f.options(); err != nil { // a bad clock is the file's fault: say so now
		return f, err
	}
	f.File = path
	if f.Name == "" {
		f.Name = fileName(path)
	}
	return f, nil
}

func fileName(path string) string { return strings.TrimSuffix(filepath.Base(path), ".json") }

// label names f in messages: by its file when it has one (and its name
// when that is not the file's), else by its name, else by its point.
func (f Fixture) label() string {
	switch {
	case f.File != "" && (f.Name == "" || f.Name == fileName(f.File)):
		return "fixture " + f.File
	case f.File != "":
		return fmt.Sprintf("fixture %q (%s)", f.Name, f.File)
	case f.Name != "":
		return fmt.Sprintf("fixture %q", f.Name)
	case f.Point != "":
		return "unnamed " + string(f.Point) + " fixture"
	}
	return "unnamed fixture"
}

// options are the harness's Options for f's host. A fixture describes
// the whole host: without "env" the commands get an empty environment,
// not the process's (the file, not the machine, says what a hook sees).
func (f Fixture) options() (Options, error) {
	env := f.Host.Env
	if env == nil {
		env = map[string]string{}
	}
	o := Options{Host: hooks.Host{Workdir: f.Host.Workdir, Session: hooks.Session{ID: f.Host.Session}, Env: env,
		AutoApprove: f.Host.AutoApprove}, Answers: f.Host.Confirm, Verdicts: f.Host.Review}
	if f.Host.Clock != "" {
		// RFC3339 also reads fractional seconds, when parsing.
		at, err := time.Parse(time.RFC3339, f.Host.Clock)
		if err != nil {
			return o, fmt.Errorf("host.clock %q is not an RFC 3339 time, like \"2026-12-03T09:00:00Z\"", f.Host.Clock)
		}
		o.Host.System.Clock = func() time.Time { return at }
	}
	return o, nil
}

// RunFixtures runs every fixture of dir against hook, each as a subtest
// (to run them against a whole chain, call Check).
func RunFixtures(t *testing.T, hook hooks.Hook, dir string) {
	t.Helper()
	fixtures, err := LoadFixtures(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fixtures {
		t.Run(f.Name, func(t *testing.T) {
			if err := Check(f, hook); err != nil {
				t.Fatal(err)
			}
		})
	}
}
