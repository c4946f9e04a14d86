package eino

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
)

// AgentMiddleware is eino's ChatModelAgentMiddleware running a
// ChatModelAgent's model calls and tool calls (invokable, streamable and
// enhanced) through the hooks of the run in their context. One value does
// what WrapModel and ToolMiddleware do together; give it to
// ChatModelAgentConfig.Handlers. It holds no state: one value serves any
// number of agents and runs at once.
type AgentMiddleware struct {
	*adk.BaseChatModelAgentMiddleware
}

var _ adk.ChatModelAgentMiddleware = (*AgentMiddleware)(nil)

// Middleware returns the AgentMiddleware. Place it first in Handlers (the
// outermost wrapper) so that the hooks see what the model really said after
// every other handler, and eino's events (sent outside every handler) show
// what the hooks left.
func Middleware() *AgentMiddleware {
	return &AgentMiddleware{BaseChatModelAgentMiddleware: &adk.BaseChatModelAgentMiddleware{}}
}

// BeforeAgent fails the agent's run before any model call when its context
// carries no hooks.Run, rather than at the first call.
func (*AgentMiddleware) BeforeAgent(ctx context.Context, rc *adk.ChatModelAgentContext) (context.Context, *adk.ChatModelAgentContext, error) {
	if _, ok := hooks.RunFromContext(ctx); !ok {
		return ctx, rc, fmt.Errorf("hooks/eino: agent: %w", ErrNoRun)
	}
	return ctx, rc, nil
}

// WrapModel returns m with its calls going through the BeforeModelRequest,
// stream and AfterModelResponse hooks, offered the tools eino gives.
func (*AgentMiddleware) WrapModel(_ context.Context, m model.BaseChatModel, mc *adk.ModelContext) (model.BaseChatModel, error) {
	if m == nil {
		return nil, errNilModel
	}
	w := &ChatModel{inner: m}
	if mc != nil {
		// eino still fills ModelContext.Tools with the tools this call is
		// offered; the state's ToolInfos would take a BeforeModelRewriteState
		// per call to hand over.
		//lint:ignore SA1019 see above
		w.tools = mc.Tools
	}
	return w, nil
}

// WrapInvokableToolCall runs a string tool's calls through the tool hooks.
func (*AgentMiddleware) WrapInvokableToolCall(_ context.Context, next adk.InvokableToolCallEndpoint, tc *adk.ToolContext) (adk.InvokableToolCallEndpoint, error) {
	call := invokable(func(ctx context.Context, in *compose.ToolInput) (*compose.ToolOutput, error) {
		out, err := next(ctx, in.Arguments, in.CallOptions...)
		return &compose.ToolOutput{Result: out}, err
	})
	return func(ctx context.Context, args string, opts ...tool.Option) (string, error) {
		out, err := call(ctx, toolInput(tc, args, opts))
		if err != nil {
			return "", err
		}
		return out.Result, nil
	}, nil
}

// WrapStreamableToolCall runs a streaming tool's calls through the tool
// hooks: its stream is read to its end, the AfterToolExecute hooks see all
// of it (a redaction cannot miss a secret split across chunks), and eino
// receives what they left as one chunk.
func (*AgentMiddleware) WrapStreamableToolCall(_ context.Context, next adk.StreamableToolCallEndpoint, tc *adk.ToolContext) (adk.StreamableToolCallEndpoint, error) {
	call := streamable(func(ctx context.Context, in *compose.ToolInput) (*compose.StreamToolOutput, error) {
		out, err := next(ctx, in.Arguments, in.CallOptions...)
		return &compose.StreamToolOutput{Result: out}, err
	})
	return func(ctx context.Context, args string, opts ...tool.Option) (*schema.StreamReader[string], error) {
		out, err := call(ctx, toolInput(tc, args, opts))
		if err != nil {
			return nil, err
		}
		return out.Result, nil
	}, nil
}

// WrapEnhancedInvokableToolCall runs a structured tool's calls through the
// tool hooks (Text: its text parts; Value: all of it).
func (*AgentMiddleware) WrapEnhancedInvokableToolCall(_ context.Context, next adk.EnhancedInvokableToolCallEndpoint, tc *adk.ToolContext) (adk.EnhancedInvokableToolCallEndpoint, error) {
	call := enhancedInvokable(func(ctx context.Context, in *compose.ToolInput) (*compose.EnhancedInvokableToolOutput, error) {
		out, err := next(ctx, &schema.ToolArgument{Text: in.Arguments}, in.CallOptions...)
		return &compose.EnhancedInvokableToolOutput{Result: out}, err
	})
	return func(ctx context.Context, arg *schema.ToolArgument, opts ...tool.Option) (*schema.ToolResult, error) {
		out, err := call(ctx, toolInput(tc, argumentText(arg), opts))
		if err != nil {
			return nil, err
		}
		return out.Result, nil
	}, nil
}

// WrapEnhancedStreamableToolCall runs a structured streaming tool's calls
// through the tool hooks, collected as WrapStreamableToolCall does.
func (*AgentMiddleware) WrapEnhancedStreamableToolCall(_ context.Context, next adk.EnhancedStreamableToolCallEndpoint, tc *adk.ToolContext) (adk.EnhancedStreamableToolCallEndpoint, error) {
	call := enhancedStreamable(func(ctx context.Context, in *compose.ToolInput) (*compose.EnhancedStreamableToolOutput, error) {
		out, err := next(ctx, &schema.ToolArgument{Text: in.Arguments}, in.CallOptions...)
		return &compose.EnhancedStreamableToolOutput{Result: out}, err
	})
	return func(ctx context.Context, arg *schema.ToolArgument, opts ...tool.Option) (*schema.StreamReader[*schema.ToolResult], error) {
		out, err := call(ctx, toolInput(tc, argumentText(arg), opts))
		if err != nil {
			return nil, err
		}
		return out.Result, nil
	}, nil
}

func toolInput(tc *adk.ToolContext, args string, opts []tool.Option) *compose.ToolInput {
	in := &compose.ToolInput{Arguments: args, CallOptions: opts}
	if tc != nil {
		in.Name, in.CallID = tc.Name, tc.CallID
	}
	return in
}

func argumentText(arg *schema.ToolArgument) string {
	if arg == nil {
		return ""
	}
	return arg.Text
}
