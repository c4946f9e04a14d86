package geminicli

import (
	"sync"
	"sync/atomic"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// set is what the hooks of one Hooks call share: the options, and which
// tool calls a BeforeTool hook rewrote (until their result is read).
// Everything a run must keep across points is in each hook's run state
// (runState), never here.
type set struct {
	opts *dialect.Options
	// matchers are the set's BeforeTool and AfterTool matchers, and
	// toolsChecked whether they were checked against a run's tools
	// (names.go).
	matchers     []matcher
	toolsChecked atomic.Bool
	rewritten    sync.Map // rewriteKey -> struct{}: calls whose arguments a BeforeTool hook replaced
}

// rewriteKey names one tool call of one run.
type rewriteKey struct{ run, call string }

// hook runs the handlers of one event of one settings file.
type hook struct {
	dialect.Base // its name, "<prefix><event>", and policy Report
	event        string
	point        hooks.Point
	handlers     []*handler
	set          *set
}

// Handles reports the event's point, and the points where a hook keeps its
// run state: BeforeModelRequest (an end a tool event asked for, the
// context SessionStart and BeforeAgent add to every request, the start of
// AfterAgent's turn), AfterModelResponse for AfterAgent (the text of every
// reply of the turn), AfterToolExecute for BeforeTool (the note that
// hooks rewrote the call's arguments).
func (h *hook) Handles(p hooks.Point) bool {
	switch p {
	case h.point:
		return true
	case hooks.BeforeModelRequest:
		return h.event != evSessionEnd
	case hooks.AfterToolExecute:
		return h.event == evBeforeTool
	case hooks.AfterRun:
		return h.event == evBeforeTool // it forgets the run's rewritten calls
	}
	return false
}

// geminiName is the Gemini CLI name of a host tool.
func (s *set) geminiName(host string) string {
	return s.opts.Tools.Exact(host)
}

// BeforeRun runs SessionStart handlers.
func (h *hook) BeforeRun(c *hooks.Context, start hooks.RunStart) (*hooks.RunPatch, error) {
	if h.event != evSessionStart {
		return nil, nil
	}
	return nil, h.sessionStart(c, start)
}

// AfterRun runs SessionEnd handlers; BeforeTool forgets the run's calls.
func (h *hook) AfterRun(c *hooks.Context, end hooks.RunEnd) error {
	switch h.event {
	case evSessionEnd:
		return h.sessionEnd(c, end)
	case evBeforeTool:
		h.set.rewritten.Range(func(k, _ any) bool {
			if k.(rewriteKey).run == c.RunID() {
				h.set.rewritten.Delete(k)
			}
			return true
		})
	}
	return nil
}

// BeforeModelRequest ends the run when a tool event asked to ("continue":
// false), then runs the event's part of a model request.
func (h *hook) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	dialect.CheckOnce(c, &h.set.toolsChecked, req.Tools, h.set.toolProblems)
	st := load(c)
	if st.End != nil {
		end := *st.End
		st.End = nil
		save(c, st)
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: end}}, nil
	}
	switch h.event {
	case evSessionStart:
		return withContexts(req, st), nil
	case evBeforeAgent:
		return h.beforeAgent(c, req, st)
	case evAfterAgent:
		h.afterAgentTurn(c, req, st)
	case evBeforeModel:
		return h.beforeModel(c, req)
	case evBeforeToolSelection:
		return h.beforeToolSelection(c, req)
	case evAfterModel:
		h.keepRequest(c, req, st)
	}
	return nil, nil
}

// AfterModelResponse runs AfterModel, or AfterAgent, handlers.
func (h *hook) AfterModelResponse(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	switch h.event {
	case evAfterModel:
		return h.afterModel(c, resp)
	case evAfterAgent:
		return h.afterAgent(c, resp)
	}
	return nil, nil
}

// BeforeToolExecute runs BeforeTool handlers.
func (h *hook) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	if h.event != evBeforeTool {
		return nil, nil
	}
	return h.beforeTool(c, call)
}

// AfterToolExecute runs AfterTool handlers; BeforeTool adds its note on a
// call it rewrote.
func (h *hook) AfterToolExecute(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
	switch h.event {
	case evAfterTool:
		return h.afterTool(c, call, res)
	case evBeforeTool:
		return h.rewriteNote(c, call, res), nil
	}
	return nil, nil
}
