package anthropic

import (
	"context"
	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// AsTool returns a Handler that runs l as a subagent: a tool of another
// Loop (put it in that Loop's Handlers, under the name params offers it)
// whose call is a whole conversation of its own, with l's model and
// tools. params builds that conversation's sdk.MessageNewParams from the call (its
// system prompt, and a user message made from call.Arguments, say).
//
// The conversation runs on a child run of the calling loop's run
// (hooks.Context.Subagent, Run.Child), started with call.Arguments as its
// input, within the call. So its model and tool calls pass the parent
// run's hooks, its guards first; they count against the parent's limits
// and Budget (the prebuilt limits count a child's calls with its root
// run's unless PerChild); its TraceEvents carry the parent's run id
// (ParentRunID), and its OTel span is the tool call span's child. The
// child has ended when the Handler returns (its AfterRun hooks have run),
// and its End never ends the parent.
//
// The call's result is the conversation's output (the final reply's text,
// or the output of an End a hook returned in the child). Its error (the
// model's, a hook's, ErrMaxTurns, params') is the tool's error: the
// parent's model reads it, as it reads any tool's, and the parent goes
// on. The subagent runs with Run, never streamed.
func (l *Loop) AsTool(params func(c *hooks.Context, call Call) (sdk.MessageNewParams, error)) Handler {
	return adapt.AsTool("anthropic", params, func(ctx context.Context, child *hooks.Run, p sdk.MessageNewParams) (string, error) {
		res, err := l.Run(ctx, child, p)
		return res.Output, err
	})
}
