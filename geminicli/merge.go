package geminicli

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// plan returns the handlers that run for one firing of the event, as
// Gemini CLI's planner chooses them: those whose matcher takes one of
// subjects, each command (name and command) once, and whether they run
// one after another (any of their groups says "sequential": true).
func (h *hook) plan(c *hooks.Context, subjects ...string) ([]*handler, bool) {
	var out []*handler
	seen := map[string]bool{}
	sequential := false
	tool := h.event == evBeforeTool || h.event == evAfterTool
	for _, hd := range h.handlers {
		if seen[hd.key] || !hd.matcher.matches(subjects...) && (!tool || !hd.matcher.takesFolded(c, subjects...)) {
			continue
		}
		seen[hd.key] = true
		sequential = sequential || hd.sequential
		out = append(out, hd)
	}
	return out, sequential
}

// runAll runs the handlers with in: at once, or one after another with
// each success's output folded into the next one's input by fold (nil:
// none). The results come in the handlers' order, however the runs
// interleaved. The error is a cancellation.
func runAll(c *hooks.Context, hs []*handler, sequential bool, in input, fold func(*input, *output)) ([]result, error) {
	results := make([]result, len(hs))
	if sequential || len(hs) == 1 {
		for i, hd := range hs {
			r, err := hd.run(c, in)
			if err != nil {
				return nil, err
			}
			results[i] = r
			if fold != nil && r.success && r.out != nil {
				fold(&in, r.out)
			}
		}
		return results, nil
	}
	errs := make([]error, len(hs))
	var wg sync.WaitGroup
	for i, hd := range hs {
		wg.Go(func() { results[i], errs[i] = hd.run(c, in) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}

// outputs are the outputs of results, in order.
func outputs(results []result) []*output {
	var out []*output
	for _, r := range results {
		if r.out != nil {
			out = append(out, r.out)
		}
	}
	return out
}

// mergeOr merges outputs as the runner does for BeforeTool, AfterTool,
// BeforeAgent, AfterAgent and SessionStart: any "continue": false stops
// (their stopReasons joined), any deny or block blocks, else any ask
// asks, else the decision is "allow"; reasons, system messages and
// additional contexts are joined with newlines; clearContext is true if
// any says so; other hookSpecificOutput keys take the last value given.
// Nil when there is no output.
func mergeOr(outs []*output) *output {
	if len(outs) == 0 {
		return nil
	}
	m := &output{CommonOutput: dialect.CommonOutput{Continue: json.RawMessage("true")}}
	var stops, reasons, messages, contexts []string
	blocked, asked := false, false
	for _, o := range outs {
		if o.stops() {
			m.Continue = json.RawMessage("false")
			if truthy(o.StopReason) {
				stops = append(stops, str(o.StopReason))
			}
		}
		switch {
		case o.blocking():
			blocked, m.Decision = true, o.Decision
		case o.decision() == "ask":
			asked = true
			if !blocked {
				m.Decision = o.Decision
			}
		}
		if truthy(o.Reason) {
			reasons = append(reasons, str(o.Reason))
		}
		if truthy(o.SystemMessage) {
			messages = append(messages, str(o.SystemMessage))
		}
		if truthy(o.SuppressOutput) {
			m.SuppressOutput = json.RawMessage("true")
		}
		if is(o.spec.ClearContext, "true") {
			m.spec.ClearContext = json.RawMessage("true")
		}
		overlay(&m.spec, o.spec, false)
		if s, ok := isString(o.spec.AdditionalContext); ok {
			contexts = append(contexts, s)
		}
	}
	if !blocked && !asked && !m.stops() {
		m.Decision = json.RawMessage(`"allow"`)
	}
	m.StopReason = joined(stops)
	m.Reason = joined(reasons)
	m.SystemMessage = joined(messages)
	m.spec.AdditionalContext = joined(contexts)
	return m
}

// joined is texts joined with newlines, as a JSON string (nil: none).
func joined(texts []string) json.RawMessage {
	if len(texts) == 0 {
		return nil
	}
	return jsonString(strings.Join(texts, "\n"))
}

// mergeReplace merges outputs as the runner does for BeforeModel and
// AfterModel: each key takes the last value given, in hookSpecificOutput
// too (so a later handler's "allow" overrides an earlier one's "deny").
func mergeReplace(outs []*output) *output {
	if len(outs) == 0 {
		return nil
	}
	m := &output{}
	for _, o := range outs {
		for _, f := range []struct{ dst, src *json.RawMessage }{
			{&m.Continue, &o.Continue}, {&m.StopReason, &o.StopReason}, {&m.SuppressOutput, &o.SuppressOutput},
			{&m.SystemMessage, &o.SystemMessage}, {&m.Decision, &o.Decision}, {&m.Reason, &o.Reason},
		} {
			if *f.src != nil {
				*f.dst = *f.src
			}
		}
		overlay(&m.spec, o.spec, true)
	}
	return m
}

// overlay sets each field of src that is given over dst's; clearContext
// only when withClear (mergeOr decides it itself).
func overlay(dst *specific, src specific, withClear bool) {
	for _, f := range []struct{ dst, src *json.RawMessage }{
		{&dst.HookEventName, &src.HookEventName}, {&dst.ToolInput, &src.ToolInput},
		{&dst.LLMRequest, &src.LLMRequest}, {&dst.LLMResponse, &src.LLMResponse},
		{&dst.ToolConfig, &src.ToolConfig}, {&dst.TailToolCallRequest, &src.TailToolCallRequest},
		{&dst.AdditionalContext, &src.AdditionalContext},
	} {
		if *f.src != nil {
			*f.dst = *f.src
		}
	}
	if withClear && src.ClearContext != nil {
		dst.ClearContext = src.ClearContext
	}
}

// fire runs the event's handlers for subjects with in, diagnoses what
// they printed, and returns the results. The error is a cancellation.
func (h *hook) fire(c *hooks.Context, in input, fold func(*input, *output), subjects ...string) ([]result, error) {
	hs, sequential := h.plan(c, subjects...)
	if len(hs) == 0 {
		return nil, nil
	}
	in.HookEventName = h.event
	results, err := runAll(c, hs, sequential, in, fold)
	if err != nil {
		return nil, err
	}
	h.diagnose(c, results)
	return results, nil
}
