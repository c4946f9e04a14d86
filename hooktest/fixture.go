package hooktest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rienda/hooks"
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
// The host: confirm (Confirm's answers, in order), autoApprove, env,
// workdir, session.
//
// Every expectation is optional; only those present are checked. For tool
// points: refused and reason; ran (the tool ran); arguments (what the tool
// saw, compared as JSON); result ({text, isError}: what the model reads).
// For model points: called (the model was called), system (the prompt it
// got), text (the reply after the hooks), end (the output a hook ended the
// run with), continue. For every point: diagnostics, prompts and notices
// (how many).
type Fixture struct {
	Name   string        `json:"name"`
	Point  hooks.Point   `json:"point"`
	Input  FixtureInput  `json:"input"`
	Host   FixtureHost   `json:"host"`
	Expect FixtureExpect `json:"expect"`
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
	AutoApprove bool              `json:"autoApprove"`
	Env         map[string]string `json:"env"`
	Workdir     string            `json:"workdir"`
	Session     string            `json:"session"`
}

// FixtureExpect is the decision a fixture expects.
type FixtureExpect struct {
	Refused     *bool             `json:"refused"`
	Reason      *string           `json:"reason"`
	Ran         *bool             `json:"ran"`
	Arguments   map[string]any    `json:"arguments"`
	Result      *hooks.ToolResult `json:"result"`
	Called      *bool             `json:"called"`
	System      *string           `json:"system"`
	Text        *string           `json:"text"`
	End         *string           `json:"end"`
	Continue    *string           `json:"continue"`
	Diagnostics *int              `json:"diagnostics"`
	Prompts     *int              `json:"prompts"`
	Notices     *int              `json:"notices"`
}

// LoadFixtures reads every *.json file of dir, sorted by name.
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
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var f Fixture
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields() // a misspelt expectation must not pass silently
		if err := dec.Decode(&f); err != nil {
			return nil, fmt.Errorf("hooktest: fixture %s: %w", p, err)
		}
		if f.Name == "" {
			f.Name = strings.TrimSuffix(filepath.Base(p), ".json")
		}
		out = append(out, f)
	}
	return out, nil
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

// Check runs one fixture against hs in a run of its own, and returns an
// error that lists every expectation that failed, with what the hooks
// decided; nil when all held.
func Check(f Fixture, hs ...hooks.Hook) error {
	h, err := Start(Options{Workdir: f.Host.Workdir, Session: f.Host.Session, Env: f.Host.Env,
		Answers: f.Host.Confirm, AutoApprove: f.Host.AutoApprove}, hs...)
	if err != nil {
		return fmt.Errorf("hooktest: %s: %w", f.Name, err)
	}
	defer h.End(hooks.RunEnd{})
	var errs []error
	check := func(ok bool, err error) {
		if ok && err != nil {
			errs = append(errs, err)
		}
	}
	out, err := h.Play(f.Point, f.Input)
	if err != nil {
		return fmt.Errorf("hooktest: %s: %w", f.Name, err)
	}
	decisions := out.Decisions
	e := f.Expect
	if o := out.Tool; o != nil {
		if e.Refused != nil {
			if *e.Refused {
				reason := o.Result.Text
				if e.Reason != nil {
					reason = *e.Reason
				}
				check(true, o.checkRefused(reason))
			} else {
				refused := o.Err == nil && !o.Ran && o.Result.IsError
				check(refused, o.fail("want the call not refused; %s", o.what()))
			}
		} else if e.Reason != nil {
			check(true, o.checkRefused(*e.Reason))
		}
		if e.Ran != nil {
			check(o.Ran != *e.Ran, o.fail("want ran %t; %s", *e.Ran, o.what()))
		}
		if e.Arguments != nil {
			check(true, o.checkArguments(e.Arguments))
		}
		if e.Result != nil {
			check(o.Result.Text != e.Result.Text || o.Result.IsError != e.Result.IsError,
				o.fail("want the model to read %s; it reads %s", jsonText(e.Result), jsonText(o.Result)))
		}
	}
	if o := out.Model; o != nil {
		if e.Called != nil {
			check((o.Sent != nil) != *e.Called, o.fail("want called %t; %s", *e.Called, o.what()))
		}
		if e.System != nil {
			check(true, o.checkSystem(*e.System))
		}
		if e.Text != nil {
			check(true, o.checkText(*e.Text))
		}
		if e.End != nil {
			check(true, o.checkEnded(*e.End))
		}
		if e.Continue != nil {
			check(true, o.checkContinue(*e.Continue))
		}
	}
	counts := []struct {
		what string
		want *int
		got  int
	}{
		{"diagnostics", e.Diagnostics, len(h.Diagnostics())},
		{"confirm prompts", e.Prompts, len(h.Prompts())},
		{"notices", e.Notices, len(h.Notices())},
	}
	for _, c := range counts {
		if c.want != nil && *c.want != c.got {
			errs = append(errs, failure(decisions, "want %d %s, got %d%s", *c.want, c.what, c.got, diagList(h, c.what)))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("fixture %q:\n%w", f.Name, errors.Join(errs...))
	}
	return nil
}

// Outcome is what became of one input (Harness.Play): Tool is set for the
// tool points, Model for the model points, neither for afterRun.
type Outcome struct {
	Tool      *ToolOutcome
	Model     *ModelOutcome
	Decisions []hooks.TraceEvent
}

// Play runs in at point p, the way a fixture does: a tool that runs
// returns input.result (else "ok"), a model that is called replies
// input.response (else "ok"), and afterRun ends the run with input.end.
func (h *Harness) Play(p hooks.Point, in FixtureInput) (Outcome, error) {
	switch p {
	case hooks.BeforeToolExecute, hooks.AfterToolExecute:
		if in.Call == nil {
			return Outcome{}, fmt.Errorf("a %s input needs \"call\"", p)
		}
		res := hooks.ToolResult{Text: "ok"}
		if in.Result != nil {
			res = *in.Result
		}
		o := h.ToolCall(*in.Call, res)
		return Outcome{Tool: o, Decisions: o.Decisions}, nil
	case hooks.BeforeModelRequest, hooks.AfterModelResponse:
		req, reply := hooks.ModelRequest{}, hooks.ModelResponse{Text: "ok"}
		if in.Request != nil {
			req = *in.Request
		}
		if in.Response != nil {
			reply = *in.Response
		}
		o := h.Model(req, reply)
		return Outcome{Model: o, Decisions: o.Decisions}, nil
	case hooks.AfterRun:
		end := hooks.RunEnd{}
		if in.End != nil {
			end = *in.End
		}
		return Outcome{Decisions: h.End(end)}, nil
	}
	return Outcome{}, fmt.Errorf("point %q: inputs run at beforeToolExecute, afterToolExecute, beforeModelRequest, afterModelResponse or afterRun", p)
}

func diagList(h *Harness, what string) string {
	if what != "diagnostics" {
		return ""
	}
	var b strings.Builder
	for _, d := range h.Diagnostics() {
		b.WriteString("\n  " + d.String())
	}
	return b.String()
}
