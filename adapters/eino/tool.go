package eino

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// ToolMiddleware returns the eino tool middleware that runs every tool call
// through the BeforeToolExecute and AfterToolExecute hooks of the run in
// its context, whatever kind of tool it is (invokable, streamable, and
// their enhanced forms). Put it in ToolsNodeConfig.ToolCallMiddlewares (an
// adk.ChatModelAgent's ToolsConfig has one); an AgentMiddleware's
// WrapToolCall would miss the enhanced tools.
func ToolMiddleware() compose.ToolMiddleware {
	return compose.ToolMiddleware{
		Invokable:          invokable,
		Streamable:         streamable,
		EnhancedInvokable:  enhancedInvokable,
		EnhancedStreamable: enhancedStreamable,
	}
}

func invokable(next compose.InvokableToolEndpoint) compose.InvokableToolEndpoint {
	return func(ctx context.Context, in *compose.ToolInput) (*compose.ToolOutput, error) {
		res, err := callTool(ctx, in, func(in *compose.ToolInput) (hooks.ToolResult, error) {
			out, err := next(ctx, in)
			if err != nil {
				return hooks.ToolResult{}, err
			}
			return hooks.ToolResult{Text: out.Result}, nil
		})
		if err != nil {
			return nil, err
		}
		return &compose.ToolOutput{Result: res.Text}, nil
	}
}

// streamable collects the tool's stream, so that the after-hooks see the
// whole result, and replays it as one chunk.
func streamable(next compose.StreamableToolEndpoint) compose.StreamableToolEndpoint {
	return func(ctx context.Context, in *compose.ToolInput) (*compose.StreamToolOutput, error) {
		res, err := callTool(ctx, in, func(in *compose.ToolInput) (hooks.ToolResult, error) {
			out, err := next(ctx, in)
			if err != nil {
				return hooks.ToolResult{}, err
			}
			text, err := concatText(out.Result)
			return hooks.ToolResult{Text: text}, err
		})
		if err != nil {
			return nil, err
		}
		return &compose.StreamToolOutput{Result: schema.StreamReaderFromArray([]string{res.Text})}, nil
	}
}

func enhancedInvokable(next compose.EnhancedInvokableToolEndpoint) compose.EnhancedInvokableToolEndpoint {
	return func(ctx context.Context, in *compose.ToolInput) (*compose.EnhancedInvokableToolOutput, error) {
		res, err := callStructuredTool(ctx, in, func(in *compose.ToolInput) (*schema.ToolResult, error) {
			out, err := next(ctx, in)
			if err != nil {
				return nil, err
			}
			return out.Result, nil
		})
		if err != nil {
			return nil, err
		}
		return &compose.EnhancedInvokableToolOutput{Result: res}, nil
	}
}

func enhancedStreamable(next compose.EnhancedStreamableToolEndpoint) compose.EnhancedStreamableToolEndpoint {
	return func(ctx context.Context, in *compose.ToolInput) (*compose.EnhancedStreamableToolOutput, error) {
		res, err := callStructuredTool(ctx, in, func(in *compose.ToolInput) (*schema.ToolResult, error) {
			out, err := next(ctx, in)
			if err != nil {
				return nil, err
			}
			chunks, err := collect(out.Result)
			if err != nil {
				return nil, err
			}
			return schema.ConcatToolResults(chunks)
		})
		if err != nil {
			return nil, err
		}
		return &compose.EnhancedStreamableToolOutput{Result: schema.StreamReaderFromArray([]*schema.ToolResult{res})}, nil
	}
}

// callTool runs one eino tool call through the run in ctx. The tool gets
// eino's input as it was when it decodes to the arguments the hooks saw
// and left, else a copy carrying the hooks' arguments. Arguments the hooks
// could not read (see hooks.ParseArguments) never reach the tool: unless
// a hook replaced them, the model reads the refusal as the result
// (adapt.Arguments.ForTool decides, as in every adapter).
func callTool(ctx context.Context, in *compose.ToolInput, tool func(*compose.ToolInput) (hooks.ToolResult, error)) (hooks.ToolResult, error) {
	run, ok := hooks.RunFromContext(ctx)
	if !ok {
		return hooks.ToolResult{}, fmt.Errorf("hooks/eino: tool %q: %w", in.Name, ErrNoRun)
	}
	args := adapt.ParseArguments([]byte(in.Arguments))
	call := hooks.ToolCall{ID: in.CallID, Name: in.Name, Arguments: args.Map()}
	return run.CallTool(ctx, call, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		raw, refusal, err := args.ForTool(c, call)
		if err != nil {
			return hooks.ToolResult{}, fmt.Errorf("hooks/eino: %w", err)
		}
		if refusal != nil {
			return *refusal, nil
		}
		if string(raw) == in.Arguments {
			return tool(in)
		}
		rewritten := *in
		rewritten.Arguments = string(raw)
		return tool(&rewritten)
	})
}

// callStructuredTool runs a tool answering a *schema.ToolResult through the
// hooks: they see its text parts as Text and all of it as Value.
func callStructuredTool(ctx context.Context, in *compose.ToolInput, tool func(*compose.ToolInput) (*schema.ToolResult, error)) (*schema.ToolResult, error) {
	var given structured // what the hooks were given; zero when a hook answered
	res, err := callTool(ctx, in, func(in *compose.ToolInput) (hooks.ToolResult, error) {
		tr, err := tool(in)
		if err != nil {
			return hooks.ToolResult{}, err
		}
		if given, err = toStructured(tr); err != nil {
			return hooks.ToolResult{}, fmt.Errorf("hooks/eino: tool %q: %w", in.Name, err)
		}
		return given.result(), nil
	})
	if err != nil {
		return nil, err
	}
	tr, err := given.fromResult(res)
	if err != nil {
		return nil, fmt.Errorf("hooks/eino: tool %q: %w", in.Name, err)
	}
	return tr, nil
}

// concatText reads a tool's text stream to its end.
func concatText(sr *schema.StreamReader[string]) (string, error) {
	chunks, err := collect(sr)
	return strings.Join(chunks, ""), err
}

// collect reads a stream to its end, and closes it.
func collect[T any](sr *schema.StreamReader[T]) ([]T, error) {
	if sr == nil {
		return nil, nil
	}
	defer sr.Close()
	var chunks []T
	for {
		c, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			return chunks, nil
		}
		if err != nil {
			return nil, err
		}
		chunks = append(chunks, c)
	}
}
