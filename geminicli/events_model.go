package geminicli

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/rienda/hooks"
)

// requestInput is req as the llm_request of a handler's input.
func (s *set) requestInput(req hooks.ModelRequest) json.RawMessage {
	view, _ := hookRequest(req)
	view.ToolConfig = s.hookToolConfig(req.ToolChoice)
	data, err := encodeJSON(view)
	if err != nil { // text that JSON cannot carry: a request without it
		data = []byte(`{"model":"","messages":[],"config":{}}`)
	}
	return data
}

// foldRequest gives the next handler of a sequential BeforeModel the
// request as the last one changed it: its llm_request's keys over the
// current ones, as the runner spreads them.
func foldRequest(in *input, o *output) {
	if !isObject(o.spec.LLMRequest) {
		return
	}
	var cur, partial map[string]json.RawMessage
	if json.Unmarshal(in.LLMRequest, &cur) != nil || json.Unmarshal(o.spec.LLMRequest, &partial) != nil {
		return
	}
	for k, v := range partial {
		cur[k] = v
	}
	if data, err := json.Marshal(cur); err == nil {
		in.LLMRequest = data
	}
}

// beforeModel runs BeforeModel handlers and applies their merged output
// as the runner does: "continue": false ends the run; a deny answers with
// hookSpecificOutput.llm_response when it gives one (the model is not
// called), else ends the run with the reason; otherwise llm_request
// rewrites the request's model and messages.
func (h *hook) beforeModel(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	results, err := h.fire(c, input{LLMRequest: h.set.requestInput(req)}, foldRequest)
	if err != nil {
		return nil, err
	}
	m := mergeReplace(outputs(results))
	switch {
	case m == nil:
		return nil, nil
	case m.stops():
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: m.effectiveReason()}}, nil
	case m.blocking():
		if m.spec.LLMResponse != nil {
			if resp, ok := readResponse(m.spec.LLMResponse, false); ok {
				return &hooks.ModelRequestPatch{Respond: &resp}, nil
			}
			c.Diagnose(errors.New("a Gemini CLI BeforeModel hook denied with an llm_response that has no candidates list: the run ends with the reason"))
		}
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: m.effectiveReason()}}, nil
	}
	if m.spec.LLMResponse != nil {
		c.Diagnose(errors.New(`a Gemini CLI BeforeModel hook gave an llm_response without "decision": "deny": Gemini CLI's runner uses it only with a deny, and neither does this library`))
	}
	if m.spec.LLMRequest == nil {
		return nil, nil
	}
	model, msgs, settings := requestChange(c, m.spec.LLMRequest, req)
	if model == nil && msgs == nil && settings == nil {
		return nil, nil
	}
	return &hooks.ModelRequestPatch{Model: model, Messages: msgs, Settings: settings}, nil
}

// toolConfig is hookSpecificOutput.toolConfig, and LLMRequest.toolConfig.
type toolConfig struct {
	Mode                 string   `json:"mode,omitempty"`
	AllowedFunctionNames []string `json:"allowedFunctionNames,omitempty"`
}

// beforeToolSelection runs BeforeToolSelection handlers and applies their
// toolConfig as the runner merges it (see toolChoice): any "NONE" calls
// no tool; otherwise "ANY" over "AUTO", and the union of every
// allowedFunctionNames narrows the tools offered (none given: every tool).
func (h *hook) beforeToolSelection(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	results, err := h.fire(c, input{LLMRequest: h.set.requestInput(req)}, nil)
	if err != nil {
		return nil, err
	}
	mode := ""
	names := map[string]bool{}
	for _, o := range outputs(results) {
		if o.blocking() || o.stops() {
			c.Diagnose(errors.New(`a Gemini CLI BeforeToolSelection hook printed "decision" or "continue", which Gemini CLI ignores for this event, and so does this library`))
		}
		var tc toolConfig
		if o.spec.ToolConfig == nil || json.Unmarshal(o.spec.ToolConfig, &tc) != nil {
			continue
		}
		if mode == "" {
			mode = modeAuto // a toolConfig without "NONE" or "ANY" merges to "AUTO", as Gemini CLI's aggregator has it
		}
		switch {
		case tc.Mode == modeNone || mode == modeNone:
			mode = modeNone
		case tc.Mode == modeAny || mode == modeAny:
			mode = modeAny
		case tc.Mode == modeAuto:
			mode = modeAuto
		case tc.Mode != "":
			c.Diagnose(fmt.Errorf(`a Gemini CLI BeforeToolSelection hook set toolConfig.mode %q, which is none of "AUTO", "ANY", "NONE": it reads as "AUTO", as in Gemini CLI`, tc.Mode))
		}
		for _, n := range tc.AllowedFunctionNames {
			names[n] = true
		}
	}
	return h.toolChoice(c, req, mode, names), nil
}

// sortedKeys are m's keys, sorted.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// keepRequest remembers, for AfterModel, the request as it goes to the
// model (AfterModel's input holds it).
func (h *hook) keepRequest(c *hooks.Context, req hooks.ModelRequest, st runState) {
	st.Request = h.set.requestInput(req)
	save(c, st)
}

// afterModel runs AfterModel handlers on a reply, once (the chain sees a
// whole reply, where Gemini CLI fires for each streamed chunk), and applies
// their merged output: "continue": false or a deny ends the run with the
// reason (the reply is discarded); an llm_response whose first candidate
// has parts replaces the reply's text.
func (h *hook) afterModel(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	st := load(c)
	req := st.Request
	if req == nil {
		req = h.set.requestInput(hooks.ModelRequest{})
	}
	st.Request = nil
	save(c, st)
	view, err := encodeJSON(hookResponse(resp))
	if err != nil {
		c.Diagnose(fmt.Errorf("the reply cannot be sent to Gemini CLI AfterModel hooks as JSON: %w", err))
		return nil, nil
	}
	results, err := h.fire(c, input{LLMRequest: req, LLMResponse: view}, nil)
	if err != nil {
		return nil, err
	}
	m := mergeReplace(outputs(results))
	switch {
	case m == nil:
		return nil, nil
	case m.stops(), m.blocking():
		return &hooks.ModelResponsePatch{End: &hooks.End{Output: m.effectiveReason()}}, nil
	case m.spec.LLMResponse != nil:
		if changed, ok := readResponse(m.spec.LLMResponse, true); ok && changed.Text != resp.Text {
			return &hooks.ModelResponsePatch{Text: &changed.Text}, nil
		}
	}
	return nil, nil
}
