package prebuilt

import (
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
	// (an entry of 0 allows none).
	PerTool map[string]int
	// OnLimit is what a call past a limit gets: Refuse (the default), or
	// EndRun.
	OnLimit Action
}

func (cfg ToolCallLimitConfig) check() error {
	if cfg.Run < 0 {
		return fmt.Errorf("field Run is %d: a limit cannot be negative (0 means none)", cfg.Run)
	}
	for _, name := range sortedKeys(cfg.PerTool) {
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
// on ("do not call X again"), and with OnLimit EndRun the run then ends at
// its next model request. Parallel calls are counted under one lock, so a
// limit of n lets exactly n through; the counts are the run state, kept
// across Snapshot and Resume.
func ToolCallLimit(cfg ToolCallLimitConfig) hooks.Hook {
	mustValid("ToolCallLimit", cfg.check())
	h := &toolCallLimit{name: orName(cfg.Name, "toolCallLimit"), run: cfg.Run, onLimit: cfg.OnLimit}
	if len(cfg.PerTool) > 0 {
		h.perTool = make(map[string]int, len(cfg.PerTool))
		for k, v := range cfg.PerTool {
			h.perTool[k] = v
		}
	}
	return h
}

type toolCallLimit struct {
	name    string
	run     int
	perTool map[string]int
	onLimit Action
	state   keeper[callCounts]
}

// callCounts is ToolCallLimit's run state.
type callCounts struct {
	Total   int            `json:"total"`
	PerTool map[string]int `json:"perTool,omitempty"`
	End     string         `json:"end,omitempty"` // set: the run ends at its next model request
}

func (h *toolCallLimit) Name() string { return h.name }

// Handles says BeforeModelRequest only when the hook may end the run there.
func (h *toolCallLimit) Handles(p hooks.Point) bool {
	return p == hooks.BeforeToolExecute || (p == hooks.BeforeModelRequest && h.onLimit == EndRun)
}

func (h *toolCallLimit) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	s, err := h.state.get(c)
	if err != nil {
		return nil, err
	}
	limit, limited := h.perTool[call.Name]
	s.mu.Lock()
	defer s.mu.Unlock()
	var reason string
	switch {
	case limited && s.v.PerTool[call.Name] >= limit:
		reason = fmt.Sprintf("Tool call limit reached: %q may be called %d times in this run, and it has been. Do not call %q again in this run; go on without it.",
			call.Name, limit, call.Name)
	case h.run > 0 && s.v.Total >= h.run:
		reason = fmt.Sprintf("Tool call limit reached: this run may make %d tool calls, and it has. Do not call any more tools; answer with what you have.", h.run)
	}
	if reason != "" {
		if h.onLimit == EndRun && s.v.End == "" {
			s.v.End = "Run ended: " + reason
		}
		return hooks.Refuse(reason), nil
	}
	s.v.Total++
	if limited {
		if s.v.PerTool == nil {
			s.v.PerTool = make(map[string]int)
		}
		s.v.PerTool[call.Name]++
	}
	return nil, nil
}

func (h *toolCallLimit) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	return endIfMarked(c, &h.state, func(v *callCounts) string { return v.End })
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
}

func (cfg ModelCallLimitConfig) check() error {
	if cfg.Run <= 0 {
		return fmt.Errorf("field Run is %d: the limit must be positive", cfg.Run)
	}
	return nil
}

// ModelCallLimit returns a hook that ends the run, with a reason as its
// output, at the model request that would go past Run calls. It counts as
// the run does (Context.ModelCalls: requests let through to the model, a
// retried or fallen-back call once), which a snapshot keeps, so it needs
// no state of its own.
func ModelCallLimit(cfg ModelCallLimitConfig) hooks.Hook {
	mustValid("ModelCallLimit", cfg.check())
	msg := cfg.Message
	if msg == "" {
		msg = fmt.Sprintf("Run ended: model call limit reached (%d calls in this run).", cfg.Run)
	}
	return &modelCallLimit{name: orName(cfg.Name, "modelCallLimit"), run: cfg.Run, end: &hooks.End{Output: msg}}
}

type modelCallLimit struct {
	name string
	run  int
	end  *hooks.End
}

func (h *modelCallLimit) Name() string { return h.name }

func (h *modelCallLimit) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	if c.ModelCalls() < h.run {
		return nil, nil
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
