package hooktest

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/rienda/hooks"
)

// ToolOutcome is what became of one tool call.
type ToolOutcome struct {
	Call      hooks.ToolCall     // as the model asked for it
	Ran       bool               // the tool ran
	Seen      hooks.ToolCall     // the call as the tool saw it, when it ran
	Result    hooks.ToolResult   // what the model reads
	Err       error              // what Run.CallTool returned
	Decisions []hooks.TraceEvent // what each hook decided, in order
}

// ModelOutcome is what became of one model call.
type ModelOutcome struct {
	Sent      *hooks.ModelRequest // what the model got; nil when it was not called
	Reply     hooks.ModelReply
	Err       error
	Decisions []hooks.TraceEvent
}

// failure formats a failed check with the decisions that led to it.
func failure(decisions []hooks.TraceEvent, format string, args ...any) error {
	return fmt.Errorf("hooktest: "+format+"\nwhat the hooks decided:\n%s", append(args, Describe(decisions))...)
}

func (o *ToolOutcome) fail(format string, args ...any) error {
	return failure(o.Decisions, format, args...)
}

// what says what happened to the call, for messages.
func (o *ToolOutcome) what() string {
	switch {
	case o.Err != nil:
		return fmt.Sprintf("it failed: %v", o.Err)
	case o.Ran:
		return fmt.Sprintf("it was allowed: the tool ran with %s", jsonText(o.Seen.Arguments))
	case o.Result.IsError:
		return fmt.Sprintf("it was refused: %q", o.Result.Text)
	}
	return fmt.Sprintf("a hook answered it: %q", o.Result.Text)
}

func (o *ToolOutcome) checkRefused(reason string) error {
	if o.Err != nil || o.Ran || !o.Result.IsError {
		return o.fail("want the call refused with %q; %s", reason, o.what())
	}
	if o.Result.Text != reason {
		return o.fail("want the call refused with %q; it was refused with %q", reason, o.Result.Text)
	}
	return nil
}

func (o *ToolOutcome) checkAllowed() error {
	if o.Err != nil || !o.Ran {
		return o.fail("want the call allowed (the tool runs); %s", o.what())
	}
	return nil
}

func (o *ToolOutcome) checkArguments(args map[string]any) error {
	if !o.Ran {
		return o.fail("want the tool to run with %s; %s", jsonText(args), o.what())
	}
	if !sameJSON(args, o.Seen.Arguments) {
		return o.fail("want the tool to see %s; it saw %s", jsonText(args), jsonText(o.Seen.Arguments))
	}
	return nil
}

func (o *ToolOutcome) checkAnswered(text string) error {
	if o.Err != nil || o.Ran || o.Result.IsError {
		return o.fail("want a hook to answer %q without the tool; %s", text, o.what())
	}
	if o.Result.Text != text {
		return o.fail("want the answer %q; it was %q", text, o.Result.Text)
	}
	return nil
}

func (o *ToolOutcome) checkResult(text string) error {
	if o.Err != nil {
		return o.fail("want the model to read %q; %s", text, o.what())
	}
	if o.Result.Text != text {
		return o.fail("want the model to read %q; it reads %q (%s)", text, o.Result.Text, o.what())
	}
	return nil
}

// RequireRefused fails t unless the call was refused with reason (the
// text the model reads).
func (o *ToolOutcome) RequireRefused(t testing.TB, reason string) {
	t.Helper()
	fatal(t, o.checkRefused(reason))
}

// RequireAllowed fails t unless the tool ran.
func (o *ToolOutcome) RequireAllowed(t testing.TB) {
	t.Helper()
	fatal(t, o.checkAllowed())
}

// RequireArguments fails t unless the tool ran with args (compared as
// JSON, so 3 and 3.0 are equal).
func (o *ToolOutcome) RequireArguments(t testing.TB, args map[string]any) {
	t.Helper()
	fatal(t, o.checkArguments(args))
}

// RequireAnswered fails t unless a hook answered the call with text and
// the tool did not run.
func (o *ToolOutcome) RequireAnswered(t testing.TB, text string) {
	t.Helper()
	fatal(t, o.checkAnswered(text))
}

// RequireResult fails t unless the model reads text.
func (o *ToolOutcome) RequireResult(t testing.TB, text string) {
	t.Helper()
	fatal(t, o.checkResult(text))
}

func (o *ModelOutcome) fail(format string, args ...any) error {
	return failure(o.Decisions, format, args...)
}

func (o *ModelOutcome) checkSystem(system string) error {
	if o.Err != nil || o.Sent == nil {
		return o.fail("want the model to get the system prompt %q; %s", system, o.what())
	}
	if o.Sent.System != system {
		return o.fail("want the system prompt %q; the model got %q", system, o.Sent.System)
	}
	return nil
}

func (o *ModelOutcome) checkNotCalled() error {
	if o.Sent != nil {
		return o.fail("want no model call; the model was called")
	}
	return nil
}

func (o *ModelOutcome) checkEnded(output string) error {
	if o.Err != nil || o.Reply.End == nil {
		return o.fail("want the run ended with %q; %s", output, o.what())
	}
	if o.Reply.End.Output != output {
		return o.fail("want the run ended with %q; it ended with %q", output, o.Reply.End.Output)
	}
	return nil
}

func (o *ModelOutcome) checkText(text string) error {
	if o.Err != nil {
		return o.fail("want the reply %q; %s", text, o.what())
	}
	if o.Reply.Response.Text != text {
		return o.fail("want the reply %q; it is %q", text, o.Reply.Response.Text)
	}
	return nil
}

func (o *ModelOutcome) checkContinue(message string) error {
	if o.Err != nil || o.Reply.Continue != message {
		return o.fail("want the run sent on with %q; %s", message, o.what())
	}
	return nil
}

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
	fatal(t, o.checkSystem(system))
}

// RequireNotCalled fails t if the model was called.
func (o *ModelOutcome) RequireNotCalled(t testing.TB) {
	t.Helper()
	fatal(t, o.checkNotCalled())
}

// RequireEnded fails t unless a hook ended the run with output.
func (o *ModelOutcome) RequireEnded(t testing.TB, output string) {
	t.Helper()
	fatal(t, o.checkEnded(output))
}

// RequireText fails t unless the reply (after the hooks) is text.
func (o *ModelOutcome) RequireText(t testing.TB, text string) {
	t.Helper()
	fatal(t, o.checkText(text))
}

// RequireContinue fails t unless a hook sent the run on with message.
func (o *ModelOutcome) RequireContinue(t testing.TB, message string) {
	t.Helper()
	fatal(t, o.checkContinue(message))
}

func fatal(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err.Error())
	}
}

func jsonText(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}

// sameJSON compares two values as their JSON.
func sameJSON(a, b any) bool {
	norm := func(v any) string {
		var x any
		data, _ := json.Marshal(v)
		_ = json.Unmarshal(data, &x)
		out, _ := json.Marshal(x)
		return string(out)
	}
	return norm(a) == norm(b)
}
