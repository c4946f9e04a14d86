package hooks

import (
	"time"
)

// Decision is what one hook invocation decided (TraceEvent.Decision).
type Decision string

// The decisions a trace reports.
const (
	NoOpinion Decision = "no opinion" // nil patch, or nothing set
	Changed   Decision = "changed"    // set fields (TraceEvent.Changed) and let the call go on
	Refused   Decision = "refused"    // refused the tool call (TraceEvent.Reason)
	Answered  Decision = "answered"   // answered: Result for a tool call, Respond for a model call
	Ended     Decision = "ended"      // ended the run (End)
	Continued Decision = "continued"  // declared the reply final and sent the run on (Continue)
	Errored   Decision = "error"      // failed (TraceEvent.Err), handled by TraceEvent.Policy
)

// TraceEvent describes one hook invocation.
type TraceEvent struct {
	RunID    string
	Hook     string
	Point    Point
	Duration time.Duration
	Decision Decision
	Changed  []string // the patch fields the hook set, by their JS names: "arguments", "system", ...
	Reason   string   // for Refused
	Err      error    // for Errored
	Policy   Policy   // the policy applied to Err
}

// WithTrace sends fn one TraceEvent per hook invocation, after it
// returns, from the goroutine of the call (so fn must be safe for
// concurrent use with parallel tool calls). Without it a chain measures
// nothing: tracing costs only when it is on. Trust decisions are not
// traced.
func WithTrace(fn func(TraceEvent)) Option {
	return optionFunc(func(o *options) { o.trace = fn })
}

// traceStart says whether tracing is on and, if so, when the first
// invocation of a point call begins.
func (r *Run) traceStart() (t0 time.Time, on bool) {
	if r.chain.opts.trace == nil {
		return time.Time{}, false
	}
	return time.Now(), true
}

// traced reports one invocation that began at t0, if tracing is on, and
// returns when it ended: the start of the next one (one clock read a hook).
func (r *Run) traced(t0 time.Time, p Point, e int, policy Policy, d Decision, changed []string, reason string, err error) time.Time {
	fn := r.chain.opts.trace
	if fn == nil {
		return t0
	}
	if err != nil {
		d = Errored
		if p == BeforeToolExecute {
			if msg, ok := toolRefusal(err); ok {
				d, reason, err = Refused, msg, nil
			}
		}
	}
	if d == Refused && reason == "" {
		reason = "refused by hook " + r.chain.names[e]
	}
	now := time.Now()
	fn(TraceEvent{RunID: r.id, Hook: r.chain.names[e], Point: p, Duration: now.Sub(t0),
		Decision: d, Changed: changed, Reason: reason, Err: err, Policy: policy})
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

var (
	runFields      = []string{"state"}
	requestFields  = []string{"system", "messages"}
	responseFields = []string{"text"}
	callFields     = []string{"arguments"}
	resultFields   = []string{"text", "isError", "value"}
)

func (p *RunPatch) decision() (Decision, []string) {
	if p == nil || p.State == nil {
		return NoOpinion, nil
	}
	return Changed, runFields
}

func (p *ModelRequestPatch) decision() (Decision, []string) {
	if p == nil {
		return NoOpinion, nil
	}
	changed := fields(requestFields, p.System != nil, p.Messages != nil)
	switch {
	case p.End != nil:
		return Ended, changed
	case p.Respond != nil:
		return Answered, changed
	case changed != nil:
		return Changed, changed
	}
	return NoOpinion, nil
}

func (p *ModelResponsePatch) decision() (Decision, []string) {
	if p == nil {
		return NoOpinion, nil
	}
	changed := fields(responseFields, p.Text != nil)
	switch {
	case p.End != nil:
		return Ended, changed
	case p.Continue != nil:
		return Continued, changed
	case changed != nil:
		return Changed, changed
	}
	return NoOpinion, nil
}

func (p *ToolCallPatch) decision() (Decision, []string, string) {
	if p == nil {
		return NoOpinion, nil, ""
	}
	changed := fields(callFields, p.Arguments != nil)
	switch {
	case p.Allow != nil && !*p.Allow:
		reason := ""
		if p.Reason != nil {
			reason = *p.Reason
		}
		return Refused, changed, reason
	case p.Result != nil:
		return Answered, changed, ""
	case changed != nil:
		return Changed, changed, ""
	}
	return NoOpinion, nil, ""
}

func (p *ToolResultPatch) decision() (Decision, []string) {
	if p == nil {
		return NoOpinion, nil
	}
	if changed := fields(resultFields, p.Text != nil, p.IsError != nil, p.Value != nil); changed != nil {
		return Changed, changed
	}
	return NoOpinion, nil
}
