package hooktest

import (
	"fmt"
	"strings"

	"github.com/rienda/hooks"
)

// Check runs one fixture against hs in a run of its own. When an
// expectation fails, the error names the fixture (its file, or its name),
// lists every failed expectation one a line, then once what the hooks
// decided; nil when all held.
func Check(f Fixture, hs ...hooks.Hook) error {
	opts, err := f.options()
	if err != nil {
		return fmt.Errorf("hooktest: %s: %w", f.label(), err)
	}
	h, err := Start(opts, hs...)
	if err != nil {
		return fmt.Errorf("hooktest: %s: %w", f.label(), err)
	}
	defer h.End(hooks.RunEnd{})
	out, err := h.Play(f.Point, f.Input)
	if err != nil {
		return fmt.Errorf("hooktest: %s: %w", f.label(), err)
	}
	var failed []error
	if out.Tool != nil {
		failed = append(failed, f.Expect.checkTool(out.Tool)...)
	}
	if out.Model != nil {
		failed = append(failed, f.Expect.checkModel(out.Model)...)
	}
	failed = append(failed, f.Expect.checkCounts(h)...)
	if len(failed) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "hooktest: %s:", f.label())
	for _, err := range failed {
		b.WriteString("\n  " + strings.ReplaceAll(err.Error(), "\n", "\n  "))
	}
	b.WriteString("\nwhat the hooks decided:\n" + Describe(out.Decisions))
	return fmt.Errorf("%s", b.String())
}

// nonNil keeps the errors that are not nil: the checks that failed.
func nonNil(errs ...error) []error {
	var out []error
	for _, err := range errs {
		if err != nil {
			out = append(out, err)
		}
	}
	return out
}

func (e FixtureExpect) checkTool(o *ToolOutcome) []error {
	var errs []error
	switch {
	case e.Refused != nil && !*e.Refused:
		errs = append(errs, o.checkNotRefused())
	case e.Reason != nil:
		errs = append(errs, o.checkRefused(*e.Reason))
	case e.Refused != nil:
		errs = append(errs, o.checkRefusedAny())
	}
	if e.Ran != nil {
		errs = append(errs, o.checkRan(*e.Ran))
	}
	if e.Arguments != nil {
		errs = append(errs, o.checkArguments(e.Arguments))
	}
	if e.Result != nil {
		errs = append(errs, o.checkFullResult(*e.Result))
	}
	return nonNil(errs...)
}

func (e FixtureExpect) checkModel(o *ModelOutcome) []error {
	var errs []error
	if e.Called != nil {
		errs = append(errs, o.checkCalled(*e.Called))
	}
	if e.System != nil {
		errs = append(errs, o.checkSystem(*e.System))
	}
	if e.Text != nil {
		errs = append(errs, o.checkText(*e.Text))
	}
	if e.End != nil {
		errs = append(errs, o.checkEnded(*e.End))
	}
	if e.Continue != nil {
		errs = append(errs, o.checkContinue(*e.Continue))
	}
	errs = append(errs, e.checkModelFields(o)...)
	return nonNil(errs...)
}

func (e FixtureExpect) checkCounts(h *Harness) []error {
	var errs []error
	if ds := h.Diagnostics(); e.Diagnostics != nil && *e.Diagnostics != len(ds) {
		errs = append(errs, fmt.Errorf("want %s, got %d%s", count(*e.Diagnostics, "diagnostic"), len(ds), listDiagnostics(ds, "  ")))
	}
	if n := len(h.Prompts()); e.Prompts != nil && *e.Prompts != n {
		errs = append(errs, fmt.Errorf("want %s, got %d", count(*e.Prompts, "confirm prompt"), n))
	}
	if n := len(h.Notices()); e.Notices != nil && *e.Notices != n {
		errs = append(errs, fmt.Errorf("want %s, got %d", count(*e.Notices, "notice"), n))
	}
	return errs
}

// Outcome is what became of one input (Harness.Play): Tool is set for the
// tool points, Model for the model points, neither for afterRun.
type Outcome struct {
	Tool      *ToolOutcome
	Model     *ModelOutcome
	Decisions []hooks.TraceEvent
}

// playable names the points an input runs at, for messages.
const playable = "beforeToolExecute, afterToolExecute, beforeModelRequest, afterModelResponse or afterRun"

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
	case "":
		return Outcome{}, fmt.Errorf("no \"point\": say where the input runs: %s", playable)
	}
	return Outcome{}, fmt.Errorf("point %q: inputs run at %s", p, playable)
}
