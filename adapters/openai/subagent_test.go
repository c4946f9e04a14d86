package openai_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/rienda/hooks"
	hooksopenai "github.com/rienda/hooks/adapters/openai"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// subagentRun is a parent Loop with one tool, "research", that is a whole
// sub-loop (Loop.AsTool) with one tool, "search", on one fake API: the
// parent's and the subagent's model calls take its replies in turn.
type subagentRun struct {
	api      *fakeAPI
	searches []string // the arguments search ran with
	events   []hooks.TraceEvent
	ends     []hooks.RunEnd // every AfterRun, the child's first
	starts   []hooks.RunStart
	res      hooksopenai.Result
	err      error
	runID    string
}

func runSubagent(t *testing.T, replies []string, hs ...hooks.Hook) *subagentRun {
	t.Helper()
	s := &subagentRun{api: newFakeAPI(t, replies...)}
	var mu sync.Mutex
	audit := hooks.Funcs{HookName: "audit",
		BeforeRun: func(_ *hooks.Context, start hooks.RunStart) (*hooks.RunPatch, error) {
			mu.Lock()
			defer mu.Unlock()
			s.starts = append(s.starts, start)
			return nil, nil
		},
		AfterRun: func(_ *hooks.Context, end hooks.RunEnd) error {
			mu.Lock()
			defer mu.Unlock()
			s.ends = append(s.ends, end)
			return nil
		}}
	chain, err := hooks.NewChain(append([]hooks.Hook{audit}, hs...), hooks.WithTrace(func(ev hooks.TraceEvent) {
		mu.Lock()
		defer mu.Unlock()
		s.events = append(s.events, ev)
	}))
	require.NoError(t, err)
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: "research tides"})
	require.NoError(t, err)
	s.runID = run.ID()

	search := func(_ context.Context, args json.RawMessage) (hooks.ToolResult, error) {
		s.searches = append(s.searches, string(args))
		return hooks.ToolResult{Text: "tides follow the moon"}, nil
	}
	sub := &hooksopenai.Loop{Completions: s.api.completions(), Tools: map[string]hooksopenai.Tool{"search": search}}
	researcher := sub.AsTool(func(_ *hooks.Context, call hooksopenai.Call) (oai.ChatCompletionNewParams, error) {
		var args struct{ Topic string }
		if err := json.Unmarshal(call.Arguments, &args); err != nil {
			return oai.ChatCompletionNewParams{}, err
		}
		p := userParams("Research " + args.Topic)
		p.Tools = []oai.ChatCompletionToolUnionParam{functionTool("search")}
		return p, nil
	})
	parent := hooksopenai.Loop{Completions: s.api.completions(), Handlers: map[string]hooksopenai.Handler{"research": researcher}}
	params := userParams("What moves the tides?")
	params.Tools = []oai.ChatCompletionToolUnionParam{functionTool("research")}
	s.res, s.err = parent.Run(ctx, run, params)
	run.End(ctx, hooks.RunEnd{Output: s.res.Output, Err: s.err})
	return s
}

func functionTool(name string) oai.ChatCompletionToolUnionParam {
	return oai.ChatCompletionFunctionTool(oai.FunctionDefinitionParam{Name: name})
}

// toolMessage is the content of the tool message of request i answering id.
func (s *subagentRun) toolMessage(t *testing.T, i int, id string) string {
	t.Helper()
	for j := range s.api.sentMessages(i) {
		if m := s.api.sent(i, j); m["role"] == "tool" && m["tool_call_id"] == id {
			return m["content"].(string)
		}
	}
	t.Fatalf("request %d answers no call %s", i+1, id)
	return ""
}

func TestSubagentToolRunsAsAChildRunAndAnswersWithItsOutput(t *testing.T) {
	s := runSubagent(t, []string{
		toolReply(call{"call_p1", "research", `{"topic":"tides"}`}),
		toolReply(call{"call_c1", "search", `{"q":"tides"}`}),
		textReply("The moon."),
		textReply("The moon moves the tides."),
	})
	require.NoError(t, s.err)
	assert.Equal(t, "The moon moves the tides.", s.res.Output)
	assert.Equal(t, []string{`{"q":"tides"}`}, s.searches)
	assert.Equal(t, "Research tides", s.api.sent(1, 0)["content"], "the subagent's own conversation")
	assert.Equal(t, "The moon.", s.toolMessage(t, 3, "call_p1"), "the parent's model reads the subagent's output")

	require.Len(t, s.starts, 2)
	assert.Equal(t, s.runID, s.starts[1].ParentRunID)
	assert.Equal(t, `{"topic":"tides"}`, s.starts[1].Input)
	require.Len(t, s.ends, 2, "the child ended once, the parent once: the child's End did not end it")
	assert.Equal(t, "The moon.", s.ends[0].Output)
	assert.Equal(t, hooks.Completed, s.ends[1].Outcome)
	assert.Equal(t, "The moon moves the tides.", s.ends[1].Output)
	assert.Equal(t, 4, len(s.api.requests()))
}

func TestSubagentTraceEventsNameTheParent(t *testing.T) {
	seen := hooks.Funcs{HookName: "seen", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return nil, nil
	}}
	s := runSubagent(t, []string{
		toolReply(call{"call_p1", "research", `{"topic":"tides"}`}),
		toolReply(call{"call_c1", "search", `{"q":"tides"}`}),
		textReply("The moon."),
		textReply("done"),
	}, seen)
	require.NoError(t, s.err)
	calls := map[string]hooks.TraceEvent{}
	for _, ev := range s.events {
		if ev.Hook == "seen" {
			calls[ev.CallID] = ev
		}
	}
	require.Contains(t, calls, "call_p1")
	require.Contains(t, calls, "call_c1")
	assert.Empty(t, calls["call_p1"].ParentRunID, "the parent's own call")
	assert.Equal(t, s.runID, calls["call_c1"].ParentRunID, "the subagent's call names the parent")
	assert.NotEqual(t, s.runID, calls["call_c1"].RunID)
}

func TestSubagentCallsCountAgainstTheParentsToolCallLimit(t *testing.T) {
	// The parent may make 2 tool calls: research is one, the subagent's
	// first search the other; its second search is refused.
	limit := prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 2})
	s := runSubagent(t, []string{
		toolReply(call{"call_p1", "research", `{"topic":"tides"}`}),
		toolReply(call{"call_c1", "search", `{"q":"tides"}`}),
		toolReply(call{"call_c2", "search", `{"q":"moon"}`}),
		textReply("The moon."),
		toolReply(call{"call_p2", "research", `{"topic":"moon"}`}),
		textReply("done"),
	}, limit)
	require.NoError(t, s.err)
	assert.Equal(t, []string{`{"q":"tides"}`}, s.searches, "the subagent's calls count with the parent's")
	assert.Contains(t, s.toolMessage(t, 3, "call_c2"), "Tool call limit reached")
	assert.Contains(t, s.toolMessage(t, 5, "call_p2"), "Tool call limit reached", "the parent's next call, too")
	assert.Len(t, s.api.requests(), 6, "a refused subagent makes no model call")
}

func TestGuardRefusesASubagentsToolCall(t *testing.T) {
	s := runSubagent(t, []string{
		toolReply(call{"call_p1", "research", `{"topic":"tides"}`}),
		toolReply(call{"call_c1", "search", `{"command":"` + adapttest.Dangerous + `"}`}),
		textReply("I may not."),
		textReply("done"),
	}, adapttest.NaiveGuard())
	require.NoError(t, s.err)
	assert.Empty(t, s.searches, "the parent's guard refused the subagent's call")
	assert.Equal(t, "Error: rm is not allowed", s.toolMessage(t, 2, "call_c1"))
}

func TestSubagentErrorIsTheToolsErrorAndTheParentGoesOn(t *testing.T) {
	chain, err := hooks.NewChain(nil)
	require.NoError(t, err)
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	defer run.End(ctx, hooks.RunEnd{})
	for _, tc := range []struct {
		name string
		tool hooksopenai.Handler
		want string
	}{
		{"no params function", (&hooksopenai.Loop{}).AsTool(nil), "no params function"},
		{"params fail", (&hooksopenai.Loop{}).AsTool(
			func(*hooks.Context, hooksopenai.Call) (oai.ChatCompletionNewParams, error) {
				return oai.ChatCompletionNewParams{}, assert.AnError
			}), assert.AnError.Error()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fresh := newFakeAPI(t, toolReply(call{"call_p1", "research", `{"topic":"tides"}`}), textReply("gave up"))
			parent := hooksopenai.Loop{Completions: fresh.completions(), Handlers: map[string]hooksopenai.Handler{"research": tc.tool}}
			res, err := parent.Run(ctx, run, userParams("tides?"))
			require.NoError(t, err)
			assert.Equal(t, "gave up", res.Output)
			msg := fresh.sent(1, 2)["content"].(string)
			assert.True(t, strings.HasPrefix(msg, "Error: "), msg)
			assert.Contains(t, msg, `subagent tool "research"`)
			assert.Contains(t, msg, tc.want)
		})
	}
}

func TestAHookEndingTheSubagentNeverEndsTheParent(t *testing.T) {
	endChild := hooks.Funcs{HookName: "end-child", BeforeModelRequest: func(c *hooks.Context, _ hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		if c.ParentRunID() != "" {
			return &hooks.ModelRequestPatch{End: &hooks.End{Output: "the subagent may not run"}}, nil
		}
		return nil, nil
	}}
	s := runSubagent(t, []string{
		toolReply(call{"call_p1", "research", `{"topic":"tides"}`}),
		textReply("answered without it"),
	}, endChild)
	require.NoError(t, s.err)
	assert.False(t, s.res.Ended)
	assert.Equal(t, "answered without it", s.res.Output)
	assert.Equal(t, "the subagent may not run", s.toolMessage(t, 1, "call_p1"))
	require.Len(t, s.ends, 2)
	assert.Equal(t, "the subagent may not run", s.ends[0].Output)
	assert.Equal(t, "answered without it", s.ends[1].Output)
}
