package genai_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rienda/hooks"
	hooksgenai "github.com/rienda/hooks/adapters/genai"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSubagentToolRunsAsAChildRunUnderTheParentsGuard(t *testing.T) {
	api := newFakeAPI(t,
		toolReply(call{"c1", "research", `{"topic":"tides"}`}),
		toolReply(call{"c2", "search", `{"command":"` + adapttest.Dangerous + `"}`}),
		textReply("The moon."),
		textReply("The moon moves the tides."))
	var starts []hooks.RunStart
	var ends []hooks.RunEnd
	audit := hooks.Funcs{HookName: "audit",
		BeforeRun: func(_ *hooks.Context, s hooks.RunStart) (*hooks.RunPatch, error) {
			starts = append(starts, s)
			return nil, nil
		},
		AfterRun: func(_ *hooks.Context, e hooks.RunEnd) error { ends = append(ends, e); return nil }}
	chain, err := hooks.NewChain([]hooks.Hook{audit, adapttest.NaiveGuard()})
	require.NoError(t, err)
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)

	search := &toolLog{result: hooks.ToolResult{Text: "deleted"}}
	sub := &hooksgenai.Loop{Models: api.client.Models, Tools: map[string]hooksgenai.Tool{"search": search.tool}}
	researcher := sub.AsTool(func(_ *hooks.Context, call hooksgenai.Call) (hooksgenai.Params, error) {
		var args struct{ Topic string }
		err := json.Unmarshal(call.Arguments, &args)
		return userParams("Research "+args.Topic, "search"), err
	})
	parent := hooksgenai.Loop{Models: api.client.Models, Handlers: map[string]hooksgenai.Handler{"research": researcher}}
	res, err := parent.Run(ctx, run, userParams("What moves the tides?", "research"))
	run.End(ctx, hooks.RunEnd{Output: res.Output, Err: err})

	require.NoError(t, err)
	assert.Equal(t, "The moon moves the tides.", res.Output)
	assert.Empty(t, search.calls, "the parent's guard refused the subagent's call")
	require.Len(t, starts, 2)
	assert.Equal(t, run.ID(), starts[1].ParentRunID)
	require.Len(t, ends, 2, "the child's End did not end the parent")
	assert.Equal(t, "The moon.", ends[0].Output)
	refused, err := json.Marshal(functionResponse(t, api.part(2, 2, 0)))
	require.NoError(t, err)
	assert.Contains(t, string(refused), "rm is not allowed")
	answer, err := json.Marshal(functionResponse(t, api.part(3, 2, 0)))
	require.NoError(t, err)
	assert.Contains(t, string(answer), "The moon.")
}
