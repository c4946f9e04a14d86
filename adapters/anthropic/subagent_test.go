package anthropic_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/rienda/hooks"
	hooksanthropic "github.com/rienda/hooks/adapters/anthropic"
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
	searches []string
	events   []hooks.TraceEvent
	starts   []hooks.RunStart
	ends     []hooks.RunEnd // the child's first
	res      hooksanthropic.Result
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
	sub := &hooksanthropic.Loop{Messages: s.api.messages(), Tools: map[string]hooksanthropic.Tool{"search": search}}
	researcher := sub.AsTool(func(_ *hooks.Context, call hooksanthropic.Call) (sdk.MessageNewParams, error) {
		var args struct{ Topic string }
		if err := json.Unmarshal(call.Arguments, &args); err != nil {
			return sdk.MessageNewParams{}, err
		}
		p := userParams("Research " + args.Topic)
		p.Tools = []sdk.ToolUnionParam{{OfTool: &sdk.ToolParam{Name: "search", InputSchema: sdk.ToolInputSchemaParam{}}}}
		return p, nil
	})
	parent := hooksanthropic.Loop{Messages: s.api.messages(), Handlers: map[string]hooksanthropic.Handler{"research": researcher}}
	params := userParams("What moves the tides?")
	params.Tools = []sdk.ToolUnionParam{{OfTool: &sdk.ToolParam{Name: "research", InputSchema: sdk.ToolInputSchemaParam{}}}}
	s.res, s.err = parent.Run(ctx, run, params)
	run.End(ctx, hooks.RunEnd{Output: s.res.Output, Err: s.err})
	return s
}

// toolResult is the text of the tool_result block of request i answering id.
func (s *subagentRun) toolResult(t *testing.T, i int, id string) string {
	t.Helper()
	for j := range s.api.sentMessages(i) {
		content, _ := s.api.sent(i, j)["content"].([]any)
		for _, b := range content {
			if b, _ := b.(map[string]any); b["type"] == "tool_result" && b["tool_use_id"] == id {
				return resultText(t, b)
			}
		}
	}
	t.Fatalf("request %d answers no call %s", i+1, id)
	return ""
}

func TestSubagentToolRunsAsAChildRunUnderTheParentsHooks(t *testing.T) {
	seen := hooks.Funcs{HookName: "seen", BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		return nil, nil
	}}
	s := runSubagent(t, []string{
		toolReply(call{"toolu_p1", "research", `{"topic":"tides"}`}),
		toolReply(call{"toolu_c1", "search", `{"q":"tides"}`}),
		textReply("The moon."),
		textReply("The moon moves the tides."),
	}, seen)
	require.NoError(t, s.err)
	assert.Equal(t, "The moon moves the tides.", s.res.Output)
	assert.Equal(t, []string{`{"q":"tides"}`}, s.searches)
	assert.Equal(t, "The moon.", s.toolResult(t, 3, "toolu_p1"))

	require.Len(t, s.starts, 2)
	assert.Equal(t, s.runID, s.starts[1].ParentRunID)
	require.Len(t, s.ends, 2, "the child's End did not end the parent")
	assert.Equal(t, "The moon.", s.ends[0].Output)
	assert.Equal(t, "The moon moves the tides.", s.ends[1].Output)

	calls := map[string]hooks.TraceEvent{}
	for _, ev := range s.events {
		if ev.Hook == "seen" {
			calls[ev.CallID] = ev
		}
	}
	require.Contains(t, calls, "toolu_c1")
	assert.Equal(t, s.runID, calls["toolu_c1"].ParentRunID, "the subagent's trace names the parent")
	assert.Empty(t, calls["toolu_p1"].ParentRunID)
}

func TestSubagentCallsCountAgainstTheParentsToolCallLimit(t *testing.T) {
	limit := prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 2})
	s := runSubagent(t, []string{
		toolReply(call{"toolu_p1", "research", `{"topic":"tides"}`}),
		toolReply(call{"toolu_c1", "search", `{"q":"tides"}`}),
		toolReply(call{"toolu_c2", "search", `{"q":"moon"}`}),
		textReply("The moon."),
		textReply("done"),
	}, limit)
	require.NoError(t, s.err)
	assert.Equal(t, []string{`{"q":"tides"}`}, s.searches, "the subagent's calls count with the parent's")
	assert.Contains(t, s.toolResult(t, 3, "toolu_c2"), "Tool call limit reached")
}

func TestGuardRefusesASubagentsToolCall(t *testing.T) {
	s := runSubagent(t, []string{
		toolReply(call{"toolu_p1", "research", `{"topic":"tides"}`}),
		toolReply(call{"toolu_c1", "search", `{"command":"` + adapttest.Dangerous + `"}`}),
		textReply("I may not."),
		textReply("done"),
	}, adapttest.NaiveGuard())
	require.NoError(t, s.err)
	assert.Empty(t, s.searches, "the parent's guard refused the subagent's call")
	assert.Contains(t, s.toolResult(t, 2, "toolu_c1"), "rm is not allowed")
	assert.Equal(t, "I may not.", s.toolResult(t, 3, "toolu_p1"))
}
