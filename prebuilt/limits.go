package prebuilt

import (
	"errors"
	"fmt"
	"sort"

	"github.com/rienda/hooks"
)

// ToolCallLimitConfig configures ToolCallLimit.
type ToolCallLimitConfig struct {
	Name string // "": "toolCallLimit"
	// Run is the most tool calls, of any tools, one run may make; 0 means
	// no run-wide limit.
	Run int
	// PerTool is the most calls one run may make of a tool, by tool name
	// (an entry of 0 allows none). A name matches a call's exactly; a
	// call of a tool no entry names, but one does in another case ("Shell"
	// set, "shell" called), gets that entry, with a Diagnostic; an entry
	// naming no tool of the run (the agent's tools, a model request's) is a
	// Diagnostic with the closest name.
	PerTool map[string]int
	// OnLimit is what a call past a limit gets: Refuse (the default), EndRun
	// or ErrorRun (LangChain's exit_behavior "continue", "end", "error").
	OnLimit Action
	// PerChild gives each child run (hooks.Run.Child, a subagent) limits
	// of its own, counted apart from its parent's. Without it a child's
	// calls count against its root run's limits, as the parent's own do:
	// a subagent is no way past a limit. With it, each child may make Run
	// calls more: a way to more calls in all, to set knowingly.
	PerChild bool
}

func (cfg ToolCallLimitConfig) check() error {
	if cfg.Run < 0 {
		return fmt.Errorf("field Run is %d: a limit cannot be negative (0 means none)", cfg.Run)
	}
	if cfg.Run == 0 && len(cfg.PerTool) == 0 {
		return fmt.Errorf("neither Run nor PerTool is set: the limit limits nothing (set Run, the run's tool calls, or PerTool, a tool's)")
	}
	for _, name := range sortedKeys(cfg.PerTool) {
		if name == "" {
			return errors.New("field PerTool has an entry for the empty name: no tool has it")
		}
		if p := toolNameProblem(name); p != "" {
			return fmt.Errorf("field PerTool has an entry %q: %s", name, p)
		}
		if n := cfg.PerTool[name]; n < 0 {
			return fmt.Errorf("field PerTool[%q] is %d: a limit cannot be negative", name, n)
		}
	}
	return cfg.OnLimit.check("OnLimit")
}

// ToolCallLimit returns a hook that limits the tool calls of a run: across
// all tools (Run) and per tool name (PerTool). A call counts when this hook
// lets it through (list it after the guards whose refusals should not
// count); a call past a limit is refused with a reason the model can act
// on ("do not call X again"); with OnLimit EndRun the run then ends at
// its next model request, and with ErrorRun the call fails with a
// *LimitError naming the counts (the hook's error, under its policy: the
// default FailRun fails the run), and the run ends at its next model
// request whatever the policy did with the error. Parallel calls are counted under one lock, so a
// limit of n lets exactly n through; the counts are the run state, kept
// across Snapshot and Resume.
func ToolCallLimit(cfg ToolCallLimitConfig) hooks.Hook {
	mustValid("ToolCallLimit", cfg.check())
	h := &toolCallLimit{name: orName(cfg.Name, "toolCallLimit"), run: cfg.Run, onLimit: cfg.OnLimit}
	h.state.apart = cfg.PerChild
	if len(cfg.PerTool) > 0 {
		h.perTool = make(map[string]int, len(cfg.PerTool))
		for k, v := range cfg.PerTool {
			h.perTool[k] = v
		}
		h.names = newToolNames("PerTool", sortedKeys(cfg.PerTool))
	}
	return h
}

type toolCallLimit struct {
	name    string
	run     int
	perTool map[string]int
	names   *toolNames // PerTool's names, as matched to calls
	onLimit Action
	state   keeper[callCounts]
}

// callCounts is ToolCallLimit's run state.
type callCounts struct {
	Total   int            `json:"total"`
	PerTool map[string]int `json:"perTool,omitempty"`
	End     string         `json:"end,omitempty"` // set: the run ends at its next model request
}

// valid refuses counts no run can have made.
func (v *callCounts) valid() error {
	if v.Total < 0 {
		return fmt.Errorf("total is %d", v.Total)
	}
	for _, k := range sortedKeys(v.PerTool) {
		if v.PerTool[k] < 0 {
			return fmt.Errorf("perTool[%q] is %d", k, v.PerTool[k])
		}
	}
	return nil
}

func (h *toolCallLimit) Name() string { return h.name }

// Handles says BeforeModelRequest when the hook may end the run there, or
// has tool names to check against the tools a request offers.
func (h *toolCallLimit) Handles(p hooks.Point) bool {
	return p == hooks.BeforeToolExecute || (p == hooks.BeforeModelRequest && (h.onLimit != Refuse || h.names != nil))
}

func (h *toolCallLimit) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	s, err := h.state.get(c)
	if err != nil {
		return nil, err
	}
	h.names.checkCall(c)
	key, limited := h.names.match(c, call.Name)
	if !limited {
		for _, n := range h.names.ambiguous(c, call.Name) { // the strictest of the entries it may be
			if !limited || h.perTool[n] < h.perTool[key] {
				key, limited = n, true
			}
		}
	}
	limit := h.perTool[key]
	s.mu.Lock()
	defer s.mu.Unlock()
	var reason string
	var lerr *LimitError
	switch {
	case limited && s.v.PerTool[key] >= limit:
		reason = fmt.Sprintf("Tool call limit reached: %q may be called %d times in this run, and it has been. Do not call %q again in this run; go on without it.",
			call.Name, limit, call.Name)
		lerr = &LimitError{Hook: h.name, Tool: call.Name, Count: s.v.PerTool[key], Limit: limit}
	case h.run > 0 && s.v.Total >= h.run:
		reason = fmt.Sprintf("Tool call limit reached: this run may make %d tool calls, and it has. Do not call any more tools; answer with what you have.", h.run)
		lerr = &LimitError{Hook: h.name, Count: s.v.Total, Limit: h.run}
	}
	if reason != "" {
		if h.onLimit != Refuse && s.v.End == "" {
			s.v.End = "Run ended: " + reason
		}
		if h.onLimit == ErrorRun {
			return nil, lerr
		}
		return hooks.Refuse(reason), nil
	}
	s.v.Total++
	if limited {
		if s.v.PerTool == nil {
			s.v.PerTool = make(map[string]int)
		}
		s.v.PerTool[key]++
	}
	return nil, nil
}

func (h *toolCallLimit) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	h.names.checkRequest(c, req)
	if h.onLimit == Refuse {
		return nil, nil
	}
	return endIfMarked(c, &h.state, func(v *callCounts) string { return v.End })
}

// LimitError is the error of a limit whose action is ErrorRun (LangChain's
// ToolCallLimitExceededError and ModelCallLimitExceededError): which
// limit, and the counts.
type LimitError struct {
	Hook  string // the hook's name
	Model bool   // a model-call limit; else a tool-call limit
	Tool  string // the tool of a per-tool limit; "" for a run-wide one
	Count int    // the calls the run has made against the limit
	Limit int    // the limit
}

// Error reads "toolCallLimit: tool call limit exceeded: "shell" called 3
// times in this run, limit 3".
func (e *LimitError) Error() string {
	switch {
	case e.Model:
		return fmt.Sprintf("%s: model call limit exceeded: %d model calls in this run, limit %d", e.Hook, e.Count, e.Limit)
	case e.Tool != "":
		return fmt.Sprintf("%s: tool call limit exceeded: %q called %d times in this run, limit %d", e.Hook, e.Tool, e.Count, e.Limit)
	}
	return fmt.Sprintf("%s: tool call limit exceeded: %d tool calls in this run, limit %d", e.Hook, e.Count, e.Limit)
}

// endIfMarked ends the run when the hook's state says it must.
func endIfMarked[T any](c *hooks.Context, k *keeper[T], end func(*T) string) (*hooks.ModelRequestPatch, error) {
	s, err := k.get(c)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	out := end(&s.v)
	s.mu.Unlock()
	if out == "" {
		return nil, nil
	}
	return &hooks.ModelRequestPatch{End: &hooks.End{Output: out}}, nil
}

// ModelCallLimitConfig configures ModelCallLimit.
type ModelCallLimitConfig struct {
	Name string // "": "modelCallLimit"
	// Run is the most model calls one run may make; it must be positive.
	Run int
	// Message is the run's output when it ends at the limit; "" says the
	// limit was reached.
	Message string
	// OnLimit is what the request past the limit does: EndRun (the default;
	// Refuse, the zero value, means it too: a model call is not refused
	// but ended) or ErrorRun, which fails the request with a *LimitError
	// naming the counts (LangChain's exit_behavior "end" and "error"). Under
	// a policy that only reports that error, the request goes through and
	// the run ends at the next one.
	OnLimit Action
	// PerChild gives each child run (hooks.Run.Child) a limit of its own;
	// without it a child's model calls count against its root run's
	// limit (see ToolCallLimitConfig.PerChild).
	PerChild bool
}

func (cfg ModelCallLimitConfig) check() error {
	if cfg.Run <= 0 {
		return fmt.Errorf("field Run is %d: the limit must be positive", cfg.Run)
	}
	return cfg.OnLimit.check("OnLimit")
}

// ModelCallLimit returns a hook that ends the run, with a reason as its
// output, at the model request that would go past Run calls (with
// OnLimit ErrorRun: fails it with a *LimitError). A request counts when
// this hook lets it through (a retried or fallen-back call once; list it
// after a hook that answers from a cache, whose answers should not
// count), under one lock, so parallel requests of a run cannot all read
// the count before any is counted; the count is the run state, kept
// across Snapshot and Resume, and never below the run's own
// (Context.ModelCalls).
func ModelCallLimit(cfg ModelCallLimitConfig) hooks.Hook {
	mustValid("ModelCallLimit", cfg.check())
	msg := cfg.Message
	if msg == "" {
		msg = fmt.Sprintf("Run ended: model call limit reached (%d calls in this run).", cfg.Run)
	}
	h := &modelCallLimit{name: orName(cfg.Name, "modelCallLimit"), run: cfg.Run, end: &hooks.End{Output: msg}, fail: cfg.OnLimit == ErrorRun}
	h.state.apart = cfg.PerChild
	return h
}

type modelCallLimit struct {
	name  string
	run   int
	end   *hooks.End
	fail  bool // ErrorRun
	state keeper[modelCounts]
}

// modelCounts is ModelCallLimit's run state: the requests it let through.
type modelCounts struct {
	Calls int `json:"calls"`
}

// valid refuses a count no run can have made.
func (v *modelCounts) valid() error {
	if v.Calls < 0 {
		return fmt.Errorf("calls is %d", v.Calls)
	}
	return nil
}

func (h *modelCallLimit) Name() string { return h.name }

func (h *modelCallLimit) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	s, err := h.state.get(c)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	n := max(s.v.Calls, c.ModelCalls())
	if n < h.run {
		s.v.Calls = n + 1
	}
	s.mu.Unlock()
	if n < h.run {
		return nil, nil
	}
	// ErrorRun fails the first request past the limit. A call past it
	// that went through all the same (a policy that reports the error
	// instead of failing the run) ends the run at the next: the limit
	// holds whatever the policy.
	if h.fail && n == h.run {
		return nil, &LimitError{Hook: h.name, Model: true, Count: n, Limit: h.run}
	}
	end := *h.end
	return &hooks.ModelRequestPatch{End: &end}, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
