// Package adk runs a whole ADK app (google.golang.org/adk/v2) under a
// hooks chain: one plugin.Plugin, given to the runner, puts every
// invocation, model call and tool call of every agent through the hooks.
//
//	p, err := hooksadk.Plugin(chain, hooksadk.Options{})
//	r, err := runner.New(runner.Config{Agent: root, SessionService: sessions,
//		PluginConfig: runner.PluginConfig{Plugins: []*plugin.Plugin{p}}})
//
// # How the hooks map
//
//   - BeforeRun / AfterRun: an invocation is a run. When the context given
//     to runner.Run carries a run (hooks.ContextWithRun), the plugin uses
//     it and the host ends it; else the plugin starts one (Input: the
//     user's text, RunID: the invocation ID) and ends it when the
//     invocation ends, with the last final reply as Output. RunOf finds
//     the run of an invocation.
//   - BeforeModelRequest / AfterModelResponse: ADK's model request is the
//     genai SDK's (model, contents, config), converted both ways as
//     adapters/genai does: system instruction, messages, model, tools
//     (function declarations), call IDs, usage and stop reason. A hook that
//     narrows the tools or switches the model changes what ADK sends.
//   - BeforeToolExecute / AfterToolExecute with the call's ID
//     (agent.Context.FunctionCallID). A refusal does not run the tool: the
//     model reads {"error": reason}. A result whose only field is a string
//     "result" or "output" is shown as Text, any other as Value; a tool's
//     error is an error result the after-hooks may redact.
//   - End stops the invocation (EndInvocation): the End's output is the
//     last reply. A hook's canned answer (Respond) is the model's reply.
//   - Continue on a final reply calls the model again with the reply and
//     a user message saying Continue's text. ADK's flow stops at a reply
//     without function calls, so the reply carries a call of the plugin's
//     own tool, "hooks_continue" (never declared to the model), whose
//     response is the message; the plugin turns that call and response
//     back into the user message before the next model call. The app's
//     events show that call and response; the hooks and the model never
//     see them. At most 20 Continues per invocation; past that a Continue
//     is ignored.
//   - A hook failing under FailRun is the error ADK's runner yields.
//     Model errors are ADK's (OnModelError is left to the app).
//
// # Streaming and request fields
//
//   - Streaming (StreamingModeSSE): with a stream hook (hooks.StreamHook)
//     in the chain, each partial response's text (and thoughts, as
//     reasoning) goes through the stream hooks as it comes, and the
//     partial event carries what they let through; the final response is
//     the reply after AfterModelResponse. ADK splits a model call across
//     its callbacks, so the call's hooks.Run.StreamModel runs on a
//     goroutine of its own, fed by the after-model callbacks, from the
//     before-model callback to the final response (or the invocation's
//     end). Without a stream hook, partial text is held back (a partial
//     event carries none) and only the final response goes through the
//     hooks, so a redaction in AfterModelResponse alone reaches no event
//     either. ADK's own streaming tools bypass every tool callback
//     (adk-go issue 1515): no hook sees their calls; do not offer them
//     under a guard.
//   - Tool choice and settings are what LLMRequest.Config carries (its
//     function calling config, temperature, topP, maxOutputTokens, stop
//     sequences), read and written as adapters/genai does; thought parts
//     are the reply's Reasoning.
package adk

import (
	"context"
	"errors"
	"sync"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/plugin"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/genai"

	"github.com/rienda/hooks"
)

// Options configures Plugin.
type Options struct {
	// Name is the plugin's name; "" is "hooks".
	Name string
	// Host is the host of the runs the plugin starts (Session.ID, when
	// empty, is the ADK session's ID).
	Host hooks.Host
}

// Hooks is the state of one Plugin: the run of each invocation.
type Hooks struct {
	chain   *hooks.Chain
	host    hooks.Host
	mu      sync.Mutex
	runs    map[string]*invocation // by invocation ID
	cont    tool.Tool              // continueTool
	streams bool                   // the chain has stream hooks: partial responses go through them
}

// invocation is one ADK invocation under a run.
type invocation struct {
	run       *hooks.Run
	owned     bool // the plugin started run and ends it
	mu        sync.Mutex
	models    map[string][]hooks.ModelStep // BeforeModel's steps not yet after-ed, oldest first, by agent and branch
	tools     map[string]*hooks.ToolStep   // by call ID
	output    string                       // the last final reply
	continues int                          // the Continues honoured so far
	streaming bool                         // the invocation streams (StreamingModeSSE)
	bridges   map[string][]*bridge         // streamed model calls under way, by agent and branch
	ended     *hooks.End                   // a hook ended the run
	err       error                        // a hook failed the run
}

// Plugin is an ADK plugin that runs every invocation of the app under
// chain. It fails on a nil chain.
func Plugin(chain *hooks.Chain, opts Options) (*plugin.Plugin, error) {
	p, _, err := New(chain, opts)
	return p, err
}

// New is Plugin, also returning its state (RunOf).
func New(chain *hooks.Chain, opts Options) (*plugin.Plugin, *Hooks, error) {
	if chain == nil {
		return nil, nil, errors.New("adk: Plugin needs a chain")
	}
	cont, err := newContinueTool()
	if err != nil {
		return nil, nil, err
	}
	h := &Hooks{chain: chain, host: opts.Host, runs: map[string]*invocation{}, cont: cont, streams: streams(chain)}
	name := opts.Name
	if name == "" {
		name = "hooks"
	}
	p, err := plugin.New(plugin.Config{Name: name,
		BeforeRunCallback: h.beforeRun, AfterRunCallback: h.afterRun,
		BeforeModelCallback: h.beforeModel, AfterModelCallback: h.afterModel,
		BeforeToolCallback: h.beforeTool, AfterToolCallback: h.afterTool})
	return p, h, err
}

// RunOf is the run of the invocation ctx belongs to; nil outside one.
func (h *Hooks) RunOf(ctx agent.ReadonlyContext) *hooks.Run {
	if inv := h.get(ctx.InvocationID()); inv != nil {
		return inv.run
	}
	return nil
}

func (h *Hooks) get(id string) *invocation {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.runs[id]
}

// beforeRun starts the invocation's run, or takes the one the context
// carries.
func (h *Hooks) beforeRun(ctx agent.InvocationContext) (*genai.Content, error) {
	inv := &invocation{tools: map[string]*hooks.ToolStep{}, models: map[string][]hooks.ModelStep{}, bridges: map[string][]*bridge{}}
	if rc := ctx.RunConfig(); rc != nil {
		inv.streaming = rc.StreamingMode == agent.StreamingModeSSE
	}
	if run, ok := hooks.RunFromContext(ctx); ok && run != nil {
		inv.run = run
	} else {
		host := h.host
		if host.Session.ID == "" && ctx.Session() != nil {
			host.Session.ID = ctx.Session().ID()
		}
		run, err := h.chain.Start(context.WithoutCancel(ctx), host, hooks.RunStart{RunID: ctx.InvocationID(), Input: contentText(ctx.UserContent())})
		if err != nil {
			return nil, err
		}
		inv.run, inv.owned = run, true
	}
	h.mu.Lock()
	h.runs[ctx.InvocationID()] = inv
	h.mu.Unlock()
	return nil, nil
}

// afterRun ends a run the plugin started.
func (h *Hooks) afterRun(ctx agent.InvocationContext) {
	h.mu.Lock()
	inv := h.runs[ctx.InvocationID()]
	delete(h.runs, ctx.InvocationID())
	h.mu.Unlock()
	if inv == nil {
		return
	}
	inv.stopBridges()
	if !inv.owned {
		return
	}
	inv.mu.Lock()
	end := hooks.RunEnd{Output: inv.output, Err: inv.err}
	if inv.ended != nil {
		end.Output = inv.ended.Output
	}
	inv.mu.Unlock()
	inv.run.End(context.WithoutCancel(ctx), end)
}

// contentText is the text of a content's text parts.
func contentText(c *genai.Content) string {
	if c == nil {
		return ""
	}
	var s string
	for _, p := range c.Parts {
		if p != nil && !p.Thought {
			s += p.Text
		}
	}
	return s
}
