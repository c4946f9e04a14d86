package hooktest

import (
	"fmt"
	"testing"

	"github.com/rienda/hooks"
)

func (o *ModelOutcome) checkCalled(want bool) error {
	switch called := o.Sent != nil; {
	case called == want:
		return nil
	case want:
		return fmt.Errorf("want the model called; %s", o.what())
	}
	return fmt.Errorf("want the model not called; %s", o.what())
}

func (o *ModelOutcome) checkSystem(system string) error {
	if o.Err != nil || o.Sent == nil {
		return fmt.Errorf("want the model to get the system prompt %q; %s", system, o.what())
	}
	if o.Sent.System != system {
		return fmt.Errorf("want the system prompt %q; the model got %q", system, o.Sent.System)
	}
	return nil
}

func (o *ModelOutcome) checkEnded(output string) error {
	if o.Err != nil || o.Reply.End == nil {
		return fmt.Errorf("want the run ended with %q; %s", output, o.what())
	}
	if o.Reply.End.Output != output {
		return fmt.Errorf("want the run ended with %q; it ended with %q", output, o.Reply.End.Output)
	}
	return nil
}

func (o *ModelOutcome) checkText(text string) error {
	if o.Err != nil {
		return fmt.Errorf("want the reply %q; %s", text, o.what())
	}
	if o.Reply.Response.Text != text {
		return fmt.Errorf("want the reply %q; it is %q", text, o.Reply.Response.Text)
	}
	return nil
}

func (o *ModelOutcome) checkContinue(message string) error {
	if o.Err != nil || o.Reply.Continue != message {
		return fmt.Errorf("want the run sent on with %q; %s", message, o.what())
	}
	return nil
}

// what says what happened to the model call, for messages.
func (o *ModelOutcome) what() string {
	switch {
	case o.Err != nil:
		return fmt.Sprintf("it failed: %v", o.Err)
	case o.Reply.End != nil:
		return fmt.Sprintf("the run ended with %q", o.Reply.End.Output)
	case o.Sent == nil:
		return fmt.Sprintf("a hook answered %q without the model", o.Reply.Response.Text)
	case o.Reply.Continue != "":
		return fmt.Sprintf("the reply %q sent the run on with %q", o.Reply.Response.Text, o.Reply.Continue)
	}
	return fmt.Sprintf("the model got the system prompt %q and the reply is %q", o.Sent.System, o.Reply.Response.Text)
}

// RequireSystem fails t unless the model was called with the system prompt.
func (o *ModelOutcome) RequireSystem(t testing.TB, system string) {
	t.Helper()
	fatal(t, o.Decisions, o.checkSystem(system))
}

// RequireNotCalled fails t if the model was called.
func (o *ModelOutcome) RequireNotCalled(t testing.TB) {
	t.Helper()
	fatal(t, o.Decisions, o.checkCalled(false))
}

// RequireEnded fails t unless a hook ended the run with output.
func (o *ModelOutcome) RequireEnded(t testing.TB, output string) {
	t.Helper()
	fatal(t, o.Decisions, o.checkEnded(output))
}

// RequireText fails t unless the reply (after the hooks) is text.
func (o *ModelOutcome) RequireText(t testing.TB, text string) {
	t.Helper()
	fatal(t, o.Decisions, o.checkText(text))
}

// RequireContinue fails t unless a hook sent the run on with message.
func (o *ModelOutcome) RequireContinue(t testing.TB, message string) {
	t.Helper()
	fatal(t, o.Decisions, o.checkContinue(message))
}

func (o *ModelOutcome) checkToolChoice(want hooks.ToolChoice) error {
	if o.Err != nil || o.Sent == nil {
		return fmt.Errorf("want the model called with tool choice %s; %s", jsonText(want), o.what())
	}
	if o.Sent.ToolChoice == nil || *o.Sent.ToolChoice != want {
		return fmt.Errorf("want the tool choice %s; the model got %s", jsonText(want), jsonText(o.Sent.ToolChoice))
	}
	return nil
}

// checkSettings compares settings as the JSON a provider receives, so
// that a number a JavaScript hook returned (a float64) equals the same
// number written in a fixture or in Go.
func (o *ModelOutcome) checkSettings(want hooks.ModelSettings) error {
	if o.Err != nil || o.Sent == nil {
		return fmt.Errorf("want the model called with settings %s; %s", jsonText(want), o.what())
	}
	if o.Sent.Settings == nil || jsonText(*o.Sent.Settings) != jsonText(want) {
		return fmt.Errorf("want the settings %s; the model got %s", jsonText(want), jsonText(o.Sent.Settings))
	}
	return nil
}

func (o *ModelOutcome) checkReasoning(reasoning string) error {
	if o.Err != nil {
		return fmt.Errorf("want the reply's reasoning %q; %s", reasoning, o.what())
	}
	if o.Reply.Response.Reasoning != reasoning {
		return fmt.Errorf("want the reply's reasoning %q; it is %q", reasoning, o.Reply.Response.Reasoning)
	}
	return nil
}

// RequireToolChoice fails t unless the model was called with the tool
// choice want (a Name alone is sent as mode "required").
func (o *ModelOutcome) RequireToolChoice(t testing.TB, want hooks.ToolChoice) {
	t.Helper()
	fatal(t, o.Decisions, o.checkToolChoice(want))
}

// RequireSettings fails t unless the model was called with the settings
// want, compared as JSON.
func (o *ModelOutcome) RequireSettings(t testing.TB, want hooks.ModelSettings) {
	t.Helper()
	fatal(t, o.Decisions, o.checkSettings(want))
}

// RequireReasoning fails t unless the reply's reasoning (after the hooks)
// is reasoning.
func (o *ModelOutcome) RequireReasoning(t testing.TB, reasoning string) {
	t.Helper()
	fatal(t, o.Decisions, o.checkReasoning(reasoning))
}

// checkModelFields checks a fixture's expected toolChoice, settings and
// reasoning.
func (e FixtureExpect) checkModelFields(o *ModelOutcome) []error {
	var errs []error
	if e.ToolChoice != nil {
		errs = append(errs, o.checkToolChoice(*e.ToolChoice))
	}
	if e.Settings != nil {
		errs = append(errs, o.checkSettings(*e.Settings))
	}
	if e.Reasoning != nil {
		errs = append(errs, o.checkReasoning(*e.Reasoning))
	}
	return errs
}
