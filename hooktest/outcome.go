package hooktest

import (
	"fmt"
	"testing"

	"github.com/rienda/hooks"
)

// ToolOutcome is what became of one tool call.
type ToolOutcome struct {
	Call      hooks.ToolCall     // as the model asked for it (its arguments through JSON)
	Ran       bool               // the tool ran
	Seen      hooks.ToolCall     // the call as the tool saw it, when it ran
	Result    hooks.ToolResult   // what the model reads
	Err       error              // what Run.CallTool returned, or why the call could not be made
	Decisions []hooks.TraceEvent // what each hook decided, in order
}

// ModelOutcome is what became of one model call.
type ModelOutcome struct {
	Sent      *hooks.ModelRequest // what the model got; nil when it was not called
	Reply     hooks.ModelReply
	Err       error
	Decisions []hooks.TraceEvent
}

// String says what became of the call, the way a person reads it:
// "refused: reason", "allowed: the tool runs with {…}; the model reads …",
// "answered: …" or "failed: …".
func (o *ToolOutcome) String() string {
	switch {
	case o.Err != nil:
		return "failed: " + o.Err.Error()
	case o.Ran:
		return fmt.Sprintf("allowed: the tool runs with %s; the model reads %q", argsText(o.Seen.Arguments), o.Result.Text)
	case o.Result.IsError:
		return "refused: " + o.Result.Text
	}
	return fmt.Sprintf("answered: %q", o.Result.Text)
}

// String says what became of the model call, the way a person reads it.
func (o *ModelOutcome) String() string {
	switch {
	case o.Err != nil:
		return "failed: " + o.Err.Error()
	case o.Reply.End != nil:
		return fmt.Sprintf("ended the run: %q", o.Reply.End.Output)
	case o.Sent == nil:
		return fmt.Sprintf("answered without the model: %q", o.Reply.Response.Text)
	case o.Reply.Continue != "":
		return fmt.Sprintf("continued with %q", o.Reply.Continue)
	}
	return fmt.Sprintf("the model gets the system prompt %q; the reply is %q", o.Sent.System, o.Reply.Response.Text)
}

// The checks below return what failed as one sentence ("want …; it …"),
// without the decisions: a Require method adds them to its one failure,
// and Check once under all the failures of a fixture.

// refused tells a refusal (or a hook's error result) from a run or an answer.
func (o *ToolOutcome) refused() bool { return o.Err == nil && !o.Ran && o.Result.IsError }

// what says what happened to the call, for messages.
func (o *ToolOutcome) what() string {
	switch {
	case o.Err != nil:
		return fmt.Sprintf("it failed: %v", o.Err)
	case o.Ran:
		return "it was allowed: the tool ran with " + argsText(o.Seen.Arguments)
	case o.Result.IsError:
		return fmt.Sprintf("it was refused: %q", o.Result.Text)
	}
	return fmt.Sprintf("a hook answered it: %q", o.Result.Text)
}

func (o *ToolOutcome) checkRefused(reason string) error {
	if !o.refused() {
		return fmt.Errorf("want the call refused with %q; %s", reason, o.what())
	}
	if o.Result.Text != reason {
		return fmt.Errorf("want the call refused with %q; it was refused with %q", reason, o.Result.Text)
	}
	return nil
}

// checkRefusedAny is checkRefused for a fixture that names no reason.
func (o *ToolOutcome) checkRefusedAny() error {
	if !o.refused() {
		return fmt.Errorf("want the call refused; %s", o.what())
	}
	return nil
}

func (o *ToolOutcome) checkNotRefused() error {
	if o.refused() {
		return fmt.Errorf("want the call not refused; %s", o.what())
	}
	return nil
}

func (o *ToolOutcome) checkAllowed() error {
	if o.Err != nil || !o.Ran {
		return fmt.Errorf("want the call allowed (the tool runs); %s", o.what())
	}
	return nil
}

func (o *ToolOutcome) checkRan(want bool) error {
	switch {
	case o.Ran == want:
		return nil
	case want:
		return fmt.Errorf("want the tool to run; %s", o.what())
	}
	return fmt.Errorf("want the tool not to run; %s", o.what())
}

func (o *ToolOutcome) checkArguments(args map[string]any) error {
	if !o.Ran {
		return fmt.Errorf("want the tool to run with %s; %s", argsText(args), o.what())
	}
	if !sameArguments(args, o.Seen.Arguments) {
		return fmt.Errorf("want the tool to see %s; it saw %s", argsText(args), argsText(o.Seen.Arguments))
	}
	return nil
}

func (o *ToolOutcome) checkAnswered(text string) error {
	if o.Err != nil || o.Ran || o.Result.IsError {
		return fmt.Errorf("want a hook to answer %q without the tool; %s", text, o.what())
	}
	if o.Result.Text != text {
		return fmt.Errorf("want the answer %q; it was %q", text, o.Result.Text)
	}
	return nil
}

func (o *ToolOutcome) checkResult(text string) error {
	if o.Err != nil {
		return fmt.Errorf("want the model to read %q; %s", text, o.what())
	}
	if o.Result.Text != text {
		return fmt.Errorf("want the model to read %q; it reads %q (%s)", text, o.Result.Text, o.what())
	}
	return nil
}

// checkFullResult compares text and isError, and value when want has one.
func (o *ToolOutcome) checkFullResult(want hooks.ToolResult) error {
	got := o.Result
	if o.Err != nil {
		return fmt.Errorf("want the model to read %s; %s", jsonText(want), o.what())
	}
	if got.Text != want.Text || got.IsError != want.IsError || (want.Value != nil && !sameJSON(want.Value, got.Value)) {
		if want.Value == nil {
			got.Value = nil // not compared: not shown
		}
		return fmt.Errorf("want the model to read %s; it reads %s", jsonText(want), jsonText(got))
	}
	return nil
}

// RequireRefused fails t unless the call was refused with reason (the
// text the model reads).
func (o *ToolOutcome) RequireRefused(t testing.TB, reason string) {
	t.Helper()
	fatal(t, o.Decisions, o.checkRefused(reason))
}

// RequireAllowed fails t unless the tool ran.
func (o *ToolOutcome) RequireAllowed(t testing.TB) {
	t.Helper()
	fatal(t, o.Decisions, o.checkAllowed())
}

// RequireArguments fails t unless the tool ran with args (compared as
// JSON, so 3 and 3.0 are equal, and nil and {} too).
func (o *ToolOutcome) RequireArguments(t testing.TB, args map[string]any) {
	t.Helper()
	fatal(t, o.Decisions, o.checkArguments(args))
}

// RequireAnswered fails t unless a hook answered the call with text and
// the tool did not run.
func (o *ToolOutcome) RequireAnswered(t testing.TB, text string) {
	t.Helper()
	fatal(t, o.Decisions, o.checkAnswered(text))
}

// RequireResult fails t unless the model reads text.
func (o *ToolOutcome) RequireResult(t testing.TB, text string) {
	t.Helper()
	fatal(t, o.Decisions, o.checkResult(text))
}

// fatal fails t with err and what the hooks decided; nothing when err is nil.
func fatal(t testing.TB, decisions []hooks.TraceEvent, err error) {
	t.Helper()
	if err != nil {
		t.Fatal("hooktest: " + err.Error() + "\nwhat the hooks decided:\n" + Describe(decisions))
	}
}
