package hooktest

import (
	"fmt"
	"testing"
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
