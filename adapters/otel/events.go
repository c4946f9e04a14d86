package otel

import (
	"fmt"

	"github.com/rienda/hooks"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
)

// The attributes of a hook decision's event, and of the metrics.
const (
	attrHook     = attribute.Key("hooks.hook")
	attrPoint    = attribute.Key("hooks.point")
	attrDecision = attribute.Key("hooks.decision")
	attrDuration = attribute.Key("hooks.duration_ms")
	attrChanged  = attribute.Key("hooks.changed")
	attrReason   = attribute.Key("hooks.reason")
	attrError    = attribute.Key("hooks.error")
	attrPolicy   = attribute.Key("hooks.policy")
	// attrReview is what the person a hook asked decided (approved,
	// edited, rejected, answered): the kind of verdict, never the edited
	// arguments, message or answer, which may hold what a span must not.
	attrReview = attribute.Key("hooks.review")
)

// record adds one hook decision as an event to the span of its call, or
// to the run's span for run points (and for a call without an open span),
// and ends the call's span when the decision ended the call.
func (r *runSpans) record(e hooks.TraceEvent, noOpinion bool) {
	c, isCall := callOf(e)
	ending, code, errorType, description := ends(e)
	var span trace.Span
	if isCall {
		span = r.callSpan(c, ending)
	}
	onCall := span != nil
	if !onCall {
		span, ending = r.span, false
	}
	// A person's verdict is an event even when the hook that asked had no
	// opinion (a yes): who approved what is what an audit looks for.
	if e.Decision != hooks.DecisionNoOpinion || noOpinion || ending || e.Review != "" {
		span.AddEvent(string(e.Decision), trace.WithAttributes(eventAttributes(e, !onCall)...))
	}
	if ending {
		endSpan(span, code, errorType, description)
	}
}

// ends says whether decision e ended its call, and with which status: a
// refusal in BeforeToolExecute (a failure under Block is one too), a failure under
// FailRun in a call's point, or a model call a hook ended the run in.
func ends(e hooks.TraceEvent) (ending bool, code codes.Code, errorType, description string) {
	switch {
	case e.Point == hooks.BeforeToolExecute && e.Decision == hooks.DecisionRefused:
		return true, codes.Error, errRefused, e.Reason
	case e.Decision == hooks.DecisionErrored && e.Policy == hooks.FailRun:
		return true, codes.Error, errHook, fmt.Sprintf("hook %s failed in %s: %s", e.Hook, e.Point, errorText(e.Err))
	case e.Point == hooks.BeforeModelRequest && e.Decision == hooks.DecisionEnded:
		return true, codes.Unset, "", ""
	}
	return false, codes.Unset, "", ""
}

// eventAttributes describes decision e; withCallID adds the tool call's id
// for an event that lands on the run's span.
func eventAttributes(e hooks.TraceEvent, withCallID bool) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 9)
	attrs = append(attrs, attrHook.String(e.Hook), attrPoint.String(string(e.Point)),
		attrDecision.String(string(e.Decision)), attrDuration.Float64(float64(e.Duration.Nanoseconds())/1e6))
	if len(e.Changed) > 0 {
		attrs = append(attrs, attrChanged.StringSlice(e.Changed))
	}
	if e.Reason != "" {
		attrs = append(attrs, attrReason.String(e.Reason))
	}
	if e.Err != nil {
		attrs = append(attrs, attrError.String(errorText(e.Err)), attrPolicy.String(e.Policy.String()))
	}
	if e.Review != "" {
		attrs = append(attrs, attrReview.String(e.Review))
	}
	if withCallID && e.CallID != "" {
		attrs = append(attrs, semconv.GenAIToolCallID(e.CallID))
	}
	return attrs
}

// errorText is err's message, even when its Error method panics: a hook's
// error is the hook's, and may be hostile.
func errorText(err error) (text string) {
	defer func() {
		if x := recover(); x != nil {
			text = fmt.Sprintf("%T whose Error method panicked: %v", err, x)
		}
	}()
	return err.Error()
}
