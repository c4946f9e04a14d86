package otel

import (
	"fmt"

	"github.com/rienda/hooks"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
)

// hook opens and closes the spans of the runs of a chain. It has no
// opinion anywhere: every method returns nil.
type hook struct{ t *Telemetry }

// Name returns the name WithHookName gave ("otel" by default).
func (h hook) Name() string { return h.t.name }

// Handles says the hook handles the six run points and, unless
// WithoutWraps was given, the two wrap points.
func (h hook) Handles(p hooks.Point) bool {
	switch p {
	case hooks.WrapToolCall, hooks.WrapModelCall:
		return h.t.wraps
	case hooks.BeforeTrustDecision:
		return false
	}
	return true
}

// BeforeRun opens the run's span under the span of the context the host
// passed to Chain.Start; a child run's (hooks.Run.Child) under its
// parent's tool-call span when it was started from that call's context,
// else under its parent run's span.
func (h hook) BeforeRun(c *hooks.Context, start hooks.RunStart) (*hooks.RunPatch, error) {
	if start.RunID == "" {
		start.RunID = c.RunID()
	}
	h.t.startRun(c.Context, c, start)
	return nil, nil
}

// AfterRun ends the run's span, with its outcome, and forgets the run.
func (h hook) AfterRun(c *hooks.Context, end hooks.RunEnd) error {
	id := end.RunID
	if id == "" {
		id = c.RunID()
	}
	h.t.endRun(id, end)
	return nil
}

// BeforeModelRequest opens a chat span.
func (h hook) BeforeModelRequest(c *hooks.Context, _ hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	if run := h.t.run(c.RunID()); run != nil {
		h.t.startModel(c.Context, run)
	}
	return nil, nil
}

// AfterModelResponse ends the latest chat span of the run.
func (h hook) AfterModelResponse(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	if run := h.t.run(c.RunID()); run != nil {
		run.endCall(call{model: true}, codes.Unset, "", "",
			attribute.Int("hooks.response.tool_calls", len(resp.ToolCalls)))
	}
	return nil, nil
}

// BeforeToolExecute opens an execute_tool span. A call a person edited
// is asked about again (a second look by the hooks listed before the
// one that asked): that is the same call, whose span is open already
// (Rewritten, and a span of its id is open), so no second one opens.
func (h hook) BeforeToolExecute(c *hooks.Context, tc hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	run := h.t.run(c.RunID())
	if run == nil || (c.Rewritten() && run.callSpan(call{id: tc.ID}, false) != nil) {
		return nil, nil
	}
	h.t.startTool(c.Context, run, tc)
	return nil, nil
}

// AfterToolExecute ends the call's execute_tool span: with status Error
// when the result the model reads is an error result.
func (h hook) AfterToolExecute(c *hooks.Context, tc hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
	run := h.t.run(c.RunID())
	if run == nil {
		return nil, nil
	}
	var set []attribute.KeyValue
	if c.Rewritten() {
		set = append(set, attribute.Bool("hooks.tool.rewritten", true))
	}
	if res.IsError {
		run.endCall(call{id: tc.ID}, codes.Error, errToolResult, "the tool's result is an error", set...)
		return nil, nil
	}
	run.endCall(call{id: tc.ID}, codes.Unset, "", "", set...)
	return nil, nil
}

// WrapTool runs the tool (and the inner wraps) with the execute_tool span
// in the context, so that the tool's own spans are its children, and ends
// the span when the call fails: no after-hook runs then.
func (h hook) WrapTool(c *hooks.Context, tc hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
	run := h.t.run(c.RunID())
	if run == nil {
		return next(c, tc)
	}
	id := call{id: tc.ID}
	inner := c
	if span := run.callSpan(id, false); span != nil {
		inner = c.WithContext(trace.ContextWithSpan(c.Context, span))
	}
	res, err := next(inner, tc)
	if err != nil {
		run.failCall(id, err)
	}
	return res, err
}

// WrapModel runs the model (and the inner wraps) with the chat span in the
// context, and ends the span when the call fails.
func (h hook) WrapModel(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
	run := h.t.run(c.RunID())
	if run == nil {
		return next(c, req)
	}
	id := call{model: true}
	inner := c
	if span := run.callSpan(id, false); span != nil {
		inner = c.WithContext(trace.ContextWithSpan(c.Context, span))
	}
	resp, err := next(inner, req)
	if err != nil {
		run.failCall(id, err)
	}
	return resp, err
}

// failCall ends the span of a call that returned err, recording err.
func (r *runSpans) failCall(c call, err error) {
	s := r.callSpan(c, true)
	if s == nil {
		return // a hook's failure already ended it
	}
	s.AddEvent("exception", trace.WithAttributes(semconv.ExceptionTypeKey.String(fmt.Sprintf("%T", err)),
		semconv.ExceptionMessageKey.String(errorText(err))))
	endSpan(s, codes.Error, errCall, errorText(err))
}
