package otel

import (
	"context"
	"fmt"
	"sync"

	"github.com/rienda/hooks"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
)

// runSpans is what a Telemetry keeps of one run while it lasts: its span
// and the spans of its open calls. Everything goes at AfterRun.
type runSpans struct {
	id    string
	seq   uint64
	span  trace.Span
	model string // the agent's model, for the chat spans

	mu     sync.Mutex
	tools  map[string][]trace.Span // open execute_tool spans by call id, the latest last
	models []trace.Span            // open chat spans, the latest last
	open   int                     // len(models) + the spans in tools
}

// The values of error.type this package sets (the conventions ask
// instrumentations to list theirs).
const (
	errRefused    = "refused"     // a hook refused the tool call, or blocked it (policy Block)
	errHook       = "hook_failed" // a hook failed under policy FailRun: the call failed
	errCall       = "call_failed" // the tool or the model (or a wrap around it) returned an error
	errToolResult = "tool_error"  // the tool's result is an error result (IsError)
	errUnfinished = "unfinished"  // the run ended, or was evicted, before the call did
)

// startRun opens the span of a run that starts, as a child of the span in
// ctx (the host's, if any), and follows the run from now on.
func (t *Telemetry) startRun(ctx context.Context, c *hooks.Context, start hooks.RunStart) {
	name, attrs := "invoke_agent", []attribute.KeyValue{semconv.GenAIOperationNameInvokeAgent,
		attribute.String("hooks.run.id", start.RunID)}
	model := ""
	if a := c.Agent; a != nil {
		if a.Name != "" {
			name += " " + a.Name
			attrs = append(attrs, semconv.GenAIAgentName(a.Name))
		}
		model = a.Model
	}
	if c.Session.ID != "" {
		attrs = append(attrs, semconv.GenAIConversationID(c.Session.ID))
	}
	if start.Resumed {
		attrs = append(attrs, attribute.Bool("hooks.run.resumed", true))
	}
	if start.ParentRunID != "" {
		attrs = append(attrs, attribute.String("hooks.run.parent_id", start.ParentRunID))
		ctx = t.parentSpan(ctx, start.ParentRunID)
	}
	_, span := t.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	run := &runSpans{id: start.RunID, span: span, model: model, tools: make(map[string][]trace.Span)}

	t.mu.Lock()
	old := t.runs[start.RunID]
	var evicted *runSpans
	if old == nil && len(t.runs) >= t.maxOpenRuns {
		evicted = t.oldestLocked()
		delete(t.runs, evicted.id)
	}
	t.seq++
	run.seq = t.seq
	t.runs[start.RunID] = run
	t.mu.Unlock()

	if old != nil { // a run of this id that never ended: a host that reuses ids
		old.end(codes.Error, errUnfinished, "another run started with the same id")
	}
	if evicted != nil {
		evicted.end(codes.Error, errUnfinished, fmt.Sprintf("evicted: more than %d runs open at once", t.maxOpenRuns))
	}
}

// oldestLocked returns the run that started first; t.mu is held.
func (t *Telemetry) oldestLocked() *runSpans {
	var oldest *runSpans
	for _, r := range t.runs {
		if oldest == nil || r.seq < oldest.seq {
			oldest = r
		}
	}
	return oldest
}

// endRun ends the span of a run and forgets the run: its outcome decides
// the status, and a call still open is ended as unfinished.
func (t *Telemetry) endRun(id string, end hooks.RunEnd) {
	t.mu.Lock()
	run := t.runs[id]
	delete(t.runs, id)
	t.mu.Unlock()
	if run == nil {
		return
	}
	run.span.SetAttributes(attribute.String("hooks.run.outcome", string(end.Outcome)))
	switch end.Outcome {
	case hooks.Failed, hooks.Interrupted:
		run.end(codes.Error, string(end.Outcome), end.Reason)
	default:
		run.end(codes.Unset, "", "")
	}
}

// end ends the run's open calls as unfinished, then the run's span with
// status code (and, for an error, errorType and description).
func (r *runSpans) end(code codes.Code, errorType, description string) {
	r.mu.Lock()
	open := r.models
	for _, spans := range r.tools {
		open = append(open, spans...)
	}
	r.tools, r.models, r.open = nil, nil, 0
	r.mu.Unlock()
	for _, s := range open {
		endSpan(s, codes.Error, errUnfinished, "the run ended before the call did")
	}
	endSpan(r.span, code, errorType, description)
}

// endSpan sets a span's status and ends it.
func endSpan(s trace.Span, code codes.Code, errorType, description string) {
	if code == codes.Error {
		s.SetAttributes(semconv.ErrorTypeKey.String(errorType))
		s.SetStatus(codes.Error, description)
	}
	s.End()
}

// startTool opens the span of a tool call, as a child of the run's span.
func (t *Telemetry) startTool(ctx context.Context, run *runSpans, call hooks.ToolCall) {
	run.mu.Lock()
	defer run.mu.Unlock()
	if run.open >= maxOpenCalls || run.tools == nil {
		return // past the bound, or the run has ended: the decisions go on the run's span
	}
	_, span := t.tracer.Start(trace.ContextWithSpan(ctx, run.span), "execute_tool "+call.Name,
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(semconv.GenAIOperationNameExecuteTool,
			semconv.GenAIToolName(call.Name), semconv.GenAIToolCallID(call.ID), semconv.GenAIToolType("function")))
	run.tools[call.ID] = append(run.tools[call.ID], span)
	run.open++
}

// startModel opens the span of a model call, as a child of the run's span.
func (t *Telemetry) startModel(ctx context.Context, run *runSpans) {
	run.mu.Lock()
	defer run.mu.Unlock()
	if run.open >= maxOpenCalls || run.tools == nil {
		return
	}
	name, attrs := "chat", []attribute.KeyValue{semconv.GenAIOperationNameChat}
	if run.model != "" {
		name += " " + run.model
		attrs = append(attrs, semconv.GenAIRequestModel(run.model))
	}
	if t.provider != "" {
		attrs = append(attrs, semconv.GenAIProviderNameKey.String(t.provider))
	}
	_, span := t.tracer.Start(trace.ContextWithSpan(ctx, run.span), name,
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	run.models = append(run.models, span)
	run.open++
}

// A call names the open span of one call: a tool call by its id, or the
// run's latest model call.
type call struct {
	model bool
	id    string
}

// callOf returns the call a trace event belongs to, and false for the run
// points.
func callOf(e hooks.TraceEvent) (call, bool) {
	switch e.Point {
	case hooks.BeforeToolExecute, hooks.AfterToolExecute, hooks.WrapToolCall:
		return call{id: e.CallID}, true
	case hooks.BeforeModelRequest, hooks.AfterModelResponse, hooks.WrapModelCall:
		return call{model: true}, true
	}
	return call{}, false
}

// callSpan returns the open span of c, or nil; take also forgets it, for the
// caller to end.
func (r *runSpans) callSpan(c call, take bool) trace.Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	list := r.models
	if !c.model {
		list = r.tools[c.id]
	}
	if len(list) == 0 {
		return nil
	}
	s := list[len(list)-1]
	if take {
		list[len(list)-1] = nil
		list = list[:len(list)-1]
		r.open--
		switch {
		case c.model:
			r.models = list
		case len(list) == 0:
			delete(r.tools, c.id)
		default:
			r.tools[c.id] = list
		}
	}
	return s
}

// endCall ends the open span of c, if any, with status code; set adds
// attributes first.
func (r *runSpans) endCall(c call, code codes.Code, errorType, description string, set ...attribute.KeyValue) {
	s := r.callSpan(c, true)
	if s == nil {
		return
	}
	if len(set) > 0 {
		s.SetAttributes(set...)
	}
	endSpan(s, code, errorType, description)
}

// parentSpan returns ctx for the span of a child run (hooks.Run.Child):
// as it is when it holds a span of the parent's run (the child was started
// from a tool call's context: the execute_tool span, or a span the tool
// made under it), else with the parent run's span, so that a subagent's
// span is always in its parent's tree.
func (t *Telemetry) parentSpan(ctx context.Context, parentID string) context.Context {
	parent := t.run(parentID)
	if parent == nil {
		return ctx
	}
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() && sc.TraceID() == parent.span.SpanContext().TraceID() {
		return ctx
	}
	return trace.ContextWithSpan(ctx, parent.span)
}
