package hooks

import (
	"fmt"
	"strings"
	"time"
)

// Decision is what one hook invocation decided (TraceEvent.Decision).
type Decision string

// The decisions a trace reports.
const (
	DecisionNoOpinion Decision = "no opinion" // nil patch, or nothing set
	DecisionChanged   Decision = "changed"    // set fields (TraceEvent.Changed) and let the call go on
	DecisionRefused   Decision = "refused"    // refused the tool call (TraceEvent.Reason)
	DecisionAnswered  Decision = "answered"   // answered: Result for a tool call, Respond for a model call
	DecisionEnded     Decision = "ended"      // ended the run (End)
	DecisionContinued Decision = "continued"  // declared the reply final and sent the run on (Continue)
	DecisionErrored   Decision = "error"      // failed (TraceEvent.Err), handled by TraceEvent.Policy
)

// TraceEvent describes one hook invocation.
type TraceEvent struct {
	RunID string
	// ParentRunID is, for an event of a child run (Run.Child), the id of
	// its parent run: the child's events are the parent's children in a
	// trace. "" for a root run.
	ParentRunID string
	Hook        string
	Point       Point
	CallID      string // in tool points and WrapToolCall: the ID of the tool call
	Duration    time.Duration
	Decision    Decision
	Changed     []string // the patch fields the hook set, by their JS names: "arguments", "system", ...
	Reason      string   // for DecisionRefused
	Err         error    // for DecisionErrored, and DecisionRefused when the hook's failure refused (policy Block)
	Policy      Policy   // the policy applied to Err
	Review      string   // what the person the hook asked (Context.Review, Confirm through a Review) decided: ReviewApproved, ReviewEdited, ReviewRejected, ReviewAnswered; "" when it asked none
}

// String says what the hook decided, the way a person reads it: the
// decision, the fields it changed, and the reason or the error with its
// policy ("refused: no force-push", "changed arguments",
// "error: boom (policy FailRun)", "refused: Tool call blocked: boom
// (failed under policy Block: boom)"). It leaves out who and where: callers
// put e.Hook and e.Point where their output needs them.
func (e TraceEvent) String() string {
	var b strings.Builder
	b.WriteString(string(e.Decision))
	if len(e.Changed) > 0 {
		b.WriteString(" " + strings.Join(e.Changed, ", "))
	}
	if e.Reason != "" {
		b.WriteString(": " + e.Reason)
	}
	switch {
	case e.Err != nil && e.Decision == DecisionRefused: // a failure that refused: the reason already says so
		fmt.Fprintf(&b, " (failed under policy %s: %v)", e.Policy, e.Err)
	case e.Err != nil:
		fmt.Fprintf(&b, ": %v (policy %s)", e.Err, e.Policy)
	}
	return b.String()
}

// WithTrace sends fn one TraceEvent per hook invocation, after it
// returns, from the goroutine of the call (so fn must be safe for
// concurrent use with parallel tool calls). Without it a chain measures
// nothing: tracing costs only when it is on. Several WithTrace options
// add up: each fn gets every event, in the options' order (a host's own
// trace beside an OpenTelemetry adapter's). Trust decisions are not
// traced.
func WithTrace(fn func(TraceEvent)) Option {
	return optionFunc(func(o *options) {
		switch prev := o.trace; {
		case fn == nil:
		case prev == nil:
			o.trace = fn
		default:
			o.trace = func(e TraceEvent) { prev(e); fn(e) }
		}
	})
}

// traceStart says whether tracing is on and, if so, when the first
// invocation of a point call begins.
func (r *Run) traceStart() (t0 time.Time, on bool) {
	if r.chain.opts.trace == nil {
		return time.Time{}, false
	}
	return time.Now(), true
}

// traced reports one invocation that began at t0 and decided v, if
// tracing is on, and returns when it ended: the start of the next one (one
// clock read a hook). It reports v as the walk acted on it.
func (r *Run) traced(t0 time.Time, c *Context, p Point, index int, policy Policy, v verdict) time.Time {
	v.review = c.reviewed()
	return r.tracedCall(t0, c.life, p, index, policy, v)
}

// tracedCall is traced for an invocation of the point call l.
func (r *Run) tracedCall(t0 time.Time, l *callLife, p Point, index int, policy Policy, v verdict) time.Time {
	fn := r.chain.opts.trace
	if fn == nil {
		return t0
	}
	now := time.Now()
	var callID string
	if l != nil && l.hasCall {
		callID = l.call.ID
	}
	var parentID string
	if p := r.parent(); p != nil {
		parentID = p.id
	}
	fn(TraceEvent{RunID: r.id, ParentRunID: parentID, Hook: r.chain.names[index], Point: p, CallID: callID, Duration: now.Sub(t0),
		Decision: v.decision, Changed: v.changed, Reason: v.reason, Err: v.err, Policy: policy, Review: reviewNames[v.review]})
	return now
}

// fields lists the names of the fields set, in order; set[i] says whether
// names[i] is set.
func fields(names []string, set ...bool) []string {
	var out []string
	first := -1
	for i, s := range set {
		switch {
		case !s:
		case first < 0:
			first = i
		default:
			if out == nil {
				out = append(out, names[first])
			}
			out = append(out, names[i])
		}
	}
	if out == nil && first >= 0 {
		return names[first : first+1 : first+1] // one field: no allocation
	}
	return out
}

// The names of each patch's fields, as a trace's Changed lists them.
var (
	runFields      = []string{"state"}
	requestFields  = []string{"system", "messages", "model", "tools", "toolChoice", "settings"}
	responseFields = []string{"text", "toolCalls", "reasoning"}
	callFields     = []string{"arguments"}
	resultFields   = []string{"text", "isError", "value"}
)

// changedOr is the verdict of a patch that only changed fields: changed,
// or no opinion when it set none.
func changedOr(changed []string) verdict {
	if changed == nil {
		return noOpinion
	}
	return verdict{decision: DecisionChanged, changed: changed}
}
