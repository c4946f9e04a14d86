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

// agentType is the agent_type of c's run, a subagent's.
func (s *set) agentType(c *hooks.Context) string {
	v, _ := s.agents.Load(c.RunID())
	t, _ := v.(string)
	return t
}

// subagentStart runs the set's SubagentStart handlers at the BeforeRun
// of a child run (a subagent), which Claude Code fires when it spawns
// one: what they add (additionalContext) goes to the System of every
// model request of the child; "continue": false ends the child at its
// first model request. The parent's SessionStart handlers do not run for
// a child, as Claude Code starts no session for a subagent.
func (h *hook) subagentStart(c *hooks.Context, _ hooks.RunStart) {
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
