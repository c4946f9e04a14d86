package dialect

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rienda/hooks"
)

// handlerError is a handler that failed: it names the dialect and the
// handler; the model reads only that (BlockMessage), never what the
// command printed.
type handlerError struct {
	spec  *Spec
	where string
	msg   string
	err   error
}

// Error names the handler and what happened.
func (e *handlerError) Error() string {
	s := fmt.Sprintf("%s hook %s: %s", e.spec.Name, e.where, e.msg)
	if e.err != nil {
		s += ": " + e.err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *handlerError) Unwrap() error { return e.err }

// BlockMessage is what the model reads when the failure refuses a call.
func (e *handlerError) BlockMessage() string {
	if errors.Is(e.err, ErrOutputTooLarge) {
		return "the output of " + e.spec.Name + " hook " + e.where + " is too large to read"
	}
	return e.spec.Name + " hook " + e.where + " failed"
}

// matches reports whether hd runs at at: every handler, or, at a tool
// event, one whose matcher takes the tool's dialect or host name. A
// ToolMatcher's name that is the tool's once case is set aside takes it,
// with a diagnostic once per matcher: "bash" for "Bash" is unambiguous,
// and a guard that never ran because of it would fail silently.
func (h *hook) matches(c *hooks.Context, hd *Handler, at *At) bool {
	if hd.Matcher == nil || !h.event.When.tool() {
		return true
	}
	subjects := []string{at.Tool}
	if at.Call != nil && at.Call.Name != at.Tool {
		subjects = append(subjects, at.Call.Name)
	}
	for _, s := range subjects {
		if hd.Matcher.Match(s) {
			return true
		}
	}
	m, ok := hd.Matcher.(*ToolMatcher)
	if !ok {
		return false
	}
	for _, n := range m.names {
		for _, s := range subjects {
			if strings.EqualFold(n, s) {
				if m.note.Folded() {
					c.Diagnose(fmt.Errorf("%s: %s settings: %s: %q is not the tool %q as written (names match case included): it runs for it, as meant; write %q",
						h.spec.pkg(), h.spec.Name, m.Path, n, s, s))
				}
				return true
			}
		}
	}
	return false
}

// each runs the handlers that match at, in order, giving each Decision to
// apply until apply says stop. At a ToolCall event it returns the
// Decision that blocks (a Block, or a failure that refuses), and stops
// there. The error is a cancellation, or a refusal on failure
// (hooks.FailClosed).
func (h *hook) each(c *hooks.Context, at *At, apply func(Decision) bool) (*Decision, error) {
	return h.eachBefore(c, at, nil, apply)
}

// eachBefore is each over the handlers before upto (nil: all of them).
func (h *hook) eachBefore(c *hooks.Context, at *At, upto *Handler, apply func(Decision) bool) (*Decision, error) {
	for _, hd := range h.handlers {
		if hd == upto {
			break
		}
		if !h.matches(c, hd, at) {
			continue
		}
		at.Handler = hd
		d, refuse, err := h.one(c, at, hd)
		if err != nil {
			return nil, err
		}
		if refuse != nil {
			return nil, hooks.FailClosed(refuse)
		}
		if h.event.When == ToolCall && !d.Block && d.Ask != "" {
			if !c.Confirm(hooks.Prompt{Title: h.spec.Name + " hook " + hd.Where, Body: d.Ask}) {
				d.Block, d.Reason = true, cut("not approved: "+d.Ask)
			}
		}
		if h.event.When == ToolCall && d.Block {
			if d.Reason == "" {
				d.Reason = "refused by " + h.spec.Name + " hook " + hd.Where
			}
			return &d, nil
		}
		if apply(d) {
			return nil, nil
		}
	}
	return nil, nil
}

// one runs hd and reads its output. refuse is a failure that refuses the
// call (a ToolCall event only); other failures are diagnostics.
func (h *hook) one(c *hooks.Context, at *At, hd *Handler) (d Decision, refuse error, err error) {
	guard := h.event.When == ToolCall
	fail := func(msg string, cause error, closed bool) (Decision, error, error) {
		e := &handlerError{spec: h.spec, where: hd.Where, msg: msg, err: cause}
		if guard && (closed || errors.Is(cause, ErrOutputTooLarge) || hd.FailClosed || h.event.FailClosed) {
			return Decision{}, e, nil
		}
		c.Diagnose(e)
		return Decision{}, nil, nil
	}
	// A call the guard cannot be shown is refused: it would run unseen.
	var input any = common(c, at)
	if h.event.Input != nil {
		if input, err = h.event.Input(c, at); err != nil {
			return fail("its input cannot be built", err, true)
		}
	}
	stdin, err := EncodeJSON(input)
	if err != nil {
		return fail("its input cannot be sent as JSON", err, true)
	}
	out, err := Exec(c, Command{Argv: hd.Argv, Dir: hd.Dir, Env: Environ(c, hd.Env), Stdin: stdin,
		Timeout: hd.Timeout, MaxOutput: hd.MaxOutput, DrainOutput: hd.DrainOutput})
	if err != nil {
		return Decision{}, nil, err
	}
	res := &Result{Output: out, Handler: hd}
	var derr error
	if out.Err == nil && h.event.Decide != nil {
		d, derr = h.event.Decide(c, at, res)
	}
	if h.event.When == ToolCall && !d.Block {
		if how, ok := Evident(out.Stdout); ok {
			c.Diagnose(&handlerError{spec: h.spec, where: hd.Where, msg: "its output evidently refuses (" + how + "), however else it reads: the call is refused"})
			return Decision{Block: true, Reason: evidentReason(h.spec, hd)}, nil, nil
		}
	}
	switch {
	case out.Overflow && !d.Block:
		return fail("its output cannot be read", fmt.Errorf("%w: more than %d bytes on stdout", ErrOutputTooLarge, len(out.Stdout)), true)
	case out.Err != nil:
		return fail("failed", out.Err, false)
	case derr != nil:
		return fail("printed what cannot be read", derr, false)
	case out.ExitCode != 0 && !d.Block:
		d2, refuse, _ := fail(fmt.Sprintf("exited %d", out.ExitCode), errors.New(tail(out.Stderr)), false)
		if refuse != nil {
			return d2, refuse, nil
		}
	}
	if d.Block && strings.TrimSpace(d.Reason) == "" {
		d.Reason = evidentReason(h.spec, hd)
		if h.event.When == FinalReply {
			d.Reason = h.spec.Name + " hook " + hd.Where + " asked to go on"
		}
	}
	d.Reason = cut(d.Reason)
	return d, nil, nil
}

// evidentReason is the reason of a refusal read from output that refuses
// evidently: it names the handler, not the text.
func evidentReason(spec *Spec, hd *Handler) string {
	return "refused by " + spec.Name + " hook " + hd.Where
}

// MaxReason bounds what the model or a person reads of a reason: a guard
// that quotes a huge input does not flood the conversation.
const MaxReason = 16 << 10

// Cut keeps at most MaxReason bytes of s, at a character boundary, and
// says how long it was: a reason is cut, never dropped.
func Cut(s string) string {
	if len(s) <= MaxReason {
		return s
	}
	end := MaxReason
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + fmt.Sprintf(" […cut: %d bytes in all]", len(s))
}

// cut is Cut.
func cut(s string) string { return Cut(s) }

// tail is stderr for a message, or a note that there was none.
func tail(stderr string) string {
	if strings.TrimSpace(stderr) == "" {
		return "no stderr"
	}
	return stderr
}

// Common are the input fields every event has, in the shape most agent
// CLIs send (Claude Code's names): the session, the working folder and
// the event's name.
type Common struct {
	SessionID     string `json:"session_id"`
	Cwd           string `json:"cwd"`
	HookEventName string `json:"hook_event_name"`
}

// common is At's Common fields.
func common(c *hooks.Context, at *At) Common {
	return Common{SessionID: c.Session.ID, Cwd: at.Workdir, HookEventName: at.Event.Name}
}

// CommonOf is the Common fields at at, for an Event's Input to embed.
func CommonOf(c *hooks.Context, at *At) Common { return common(c, at) }
