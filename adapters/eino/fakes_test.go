package eino_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
	"github.com/stretchr/testify/require"
)

// scriptedModel is a chat model answering from a script, one reply per
// call, and keeping what it was sent.
type scriptedModel struct {
	mu      sync.Mutex
	replies []*schema.Message
	inputs  [][]*schema.Message
}

var _ model.ToolCallingChatModel = (*scriptedModel)(nil)

func (m *scriptedModel) Generate(_ context.Context, input []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := len(m.inputs)
	m.inputs = append(m.inputs, slices.Clone(input))
	if n >= len(m.replies) {
		return nil, fmt.Errorf("scripted model: unscripted call %d", n+1)
	}
	return m.replies[n], nil
}

// Stream sends a reply without tool calls in two chunks, so that the
// wrapper has to put them together.
func (m *scriptedModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, input, opts...)
	if err != nil {
		return nil, err
	}
	if len(msg.ToolCalls) > 0 || len(msg.Content) < 2 {
		return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
	}
	half := len(msg.Content) / 2
	return schema.StreamReaderFromArray([]*schema.Message{
		schema.AssistantMessage(msg.Content[:half], nil), schema.AssistantMessage(msg.Content[half:], nil)}), nil
}

func (m *scriptedModel) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return m, nil
}

func (m *scriptedModel) sent() [][]*schema.Message {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.inputs)
}

// textTool is an eino tool answering text; it counts its calls and keeps
// the arguments it was given.
type textTool struct {
	name  string
	run   func(ctx context.Context, args string) (string, error)
	calls atomic.Int32
	args  atomic.Value // string
}

func (t *textTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: t.name, Desc: "test tool " + t.name}, nil
}

func (t *textTool) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	t.calls.Add(1)
	t.args.Store(args)
	return t.run(ctx, args)
}

func (t *textTool) gotArgs() string {
	s, _ := t.args.Load().(string)
	return s
}

// partsTool is an eino tool answering a structured result.
type partsTool struct {
	name   string
	result *schema.ToolResult
}

func (t *partsTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: t.name, Desc: "test tool " + t.name}, nil
}

func (t *partsTool) InvokableRun(context.Context, *schema.ToolArgument, ...tool.Option) (*schema.ToolResult, error) {
	return t.result, nil
}

func call(id, name, args string) schema.ToolCall {
	return schema.ToolCall{ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}}
}

// redact replaces secret wherever it is in v, a value of JSON types.
func redact(v any, secret string) any {
	switch v := v.(type) {
	case string:
		return strings.ReplaceAll(v, secret, "[redacted]")
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = redact(x, secret)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = redact(x, secret)
		}
		return out
	}
	return v
}

// afterRuns counts AfterRun calls and keeps the last end.
type afterRuns struct {
	n   atomic.Int32
	end atomic.Value // hooks.RunEnd
}

func (a *afterRuns) hook() hooks.Funcs {
	return hooks.Funcs{HookName: "audit", AfterRun: func(_ *hooks.Context, end hooks.RunEnd) error {
		a.n.Add(1)
		a.end.Store(end)
		return nil
	}}
}

func (a *afterRuns) last() hooks.RunEnd {
	end, _ := a.end.Load().(hooks.RunEnd)
	return end
}

// startRun starts a run of hs and returns it with a context carrying it.
func startRun(t testing.TB, hs ...hooks.Hook) (context.Context, *hooks.Run) {
	t.Helper()
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{Input: "test"})
	require.NoError(t, err)
	return hooks.ContextWithRun(context.Background(), run), run
}

// drain reads an agent's events to the end: the last assistant message,
// every tool message, and the last error.
func drain(t *testing.T, iter *adk.AsyncIterator[*adk.AgentEvent]) (final *schema.Message, tools []*schema.Message, err error) {
	t.Helper()
	for ev, ok := iter.Next(); ok; ev, ok = iter.Next() {
		if ev.Err != nil {
			err = ev.Err
			continue
		}
		if ev.Output == nil || ev.Output.MessageOutput == nil {
			continue
		}
		mv := ev.Output.MessageOutput
		msg := mv.Message
		if mv.IsStreaming {
			var cerr error
			msg, cerr = schema.ConcatMessageStream(mv.MessageStream)
			if cerr != nil && !errors.Is(cerr, io.EOF) {
				err = cerr
				continue
			}
		}
		if mv.Role == schema.Tool {
			tools = append(tools, msg)
		} else {
			final = msg
		}
	}
	return final, tools, err
}
