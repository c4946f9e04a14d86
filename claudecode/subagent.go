package claudecode

import (
	"context"
	"strings"

	"github.com/rienda/hooks"
)

// agentTypeKey is the context key of AgentType.
type agentTypeKey struct{}

// AgentType returns a copy of ctx that names the type of the subagent a
// child run started with it is ("Explore", "general-purpose", a custom
// agent's name): run.Child(claudecode.AgentType(ctx, "Explore"), start).
// SubagentStart and SubagentStop matchers match it, and every handler
// that runs in the child reads it as agent_type (its agent_id is the
// child run's id). A child started without it has agent_type "".
func AgentType(ctx context.Context, agentType string) context.Context {
	return context.WithValue(ctx, agentTypeKey{}, agentType)
}

// agentType is the agent_type of c's run, a subagent's: as its
// SubagentStart kept it, or, in a child rehydrated from a snapshot
// (which runs no BeforeRun), as the running hook's state keeps it.
func (s *set) agentType(c *hooks.Context) string {
	if v, ok := s.agents.Load(c.RunID()); ok {
		return v.(string)
	}
	return load(c).AgentType
}

// keepAgentType keeps a new child's agent_type (AgentType) in the
// running hook's run state, which a snapshot of the parent carries; a
// resumed child's comes from there, never from the resuming context.
func (h *hook) keepAgentType(c *hooks.Context, start hooks.RunStart) {
	if start.Resumed || c.Context == nil {
		return
	}
	if t, _ := c.Context.Value(agentTypeKey{}).(string); t != "" {
		h.set.update(c, func(st *runState) { st.AgentType = t })
	}
}

// subagentStart runs the set's SubagentStart handlers at the BeforeRun
// of a child run (a subagent), which Claude Code fires when it spawns
// one: what they add (additionalContext) goes to the System of every
// model request of the child; "continue": false ends the child at its
// first model request. The parent's SessionStart handlers do not run for
// a child, as Claude Code starts no session for a subagent; a child
// resumed with its parent does not start again.
func (h *hook) subagentStart(c *hooks.Context, start hooks.RunStart) {
	if start.Resumed {
		// Resumed from the parent's snapshot: its type and what its
		// SubagentStart added are in the run state; the subagent is not
		// started again.
		h.set.agents.Store(c.RunID(), load(c).AgentType)
		return
	}
	var agentType string
	if c.Context != nil {
		agentType, _ = c.Context.Value(agentTypeKey{}).(string)
	}
	h.set.agents.Store(c.RunID(), agentType)
	handlers := h.set.fired["SubagentStart"]
	if len(handlers) == 0 {
		return
	}
	scope := &hook{Base: h.Base, event: "SubagentStart", set: h.set, handlers: handlers}
	st := load(c)
	var added []string
	for _, hd := range handlers {
		if !scope.takes(c, hd, "subagent:"+c.RunID(), nil, agentType) {
			continue
		}
		in := input{HookEventName: scope.event}
		if hd.async {
			scope.spawn(c, hd, in)
			continue
		}
		r, err := hd.run(c, in)
		if err != nil || !scope.settle(c, &r) {
			continue
		}
		scope.advise(c, hd, &r)
		if reason, stop := r.stops(hd.where); stop {
			st.End = &reason
		}
		if r.out != nil && r.out.HookSpecificOutput.AdditionalContext != "" {
			added = append(added, cut(r.out.HookSpecificOutput.AdditionalContext))
		}
	}
	st.AgentContext = strings.Join(added, "\n\n")
	save(c, st)
}

// subagentStop runs the set's SubagentStop handlers on a child run's
// reply without tool calls (the subagent is about to finish), as Stop's
// run on the parent's: a block (exit 2, "decision": "block") sends the
// subagent on with the reason, bounded as Stop is (StopContinuations);
// "continue": false ends the child. The input carries
// stop_hook_active, last_assistant_message, agent_id, agent_type and
// agent_transcript_path (the child's transcript).
func (h *hook) subagentStop(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	handlers := h.set.fired["SubagentStop"]
	if len(handlers) == 0 {
		return nil, nil
	}
	scope := &hook{Base: h.Base, event: "SubagentStop", set: h.set, handlers: handlers}
	return scope.stop(c, resp, []string{h.set.agentType(c)})
}
