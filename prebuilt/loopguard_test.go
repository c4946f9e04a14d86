package prebuilt_test

import (
	"context"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sameCallRefusal = `Loop detected: "search" has been called 3 times in a row with the same arguments. Do not call it again with these arguments; change course or answer with what you have.`

func TestLoopGuardRefusesTheThirdIdenticalCallInARow(t *testing.T) {
	h := hooktest.New(t, prebuilt.LoopGuard(prebuilt.LoopGuardConfig{}))
	q := map[string]any{"q": "go", "page": 1}
	h.Tool("search", q).RequireAllowed(t)
	h.Tool("search", map[string]any{"page": 1, "q": "go"}).RequireAllowed(t) // the same arguments, another order
	h.Tool("search", q).RequireRefused(t, sameCallRefusal)
	h.Tool("search", q).RequireRefused(t, sameCallRefusal) // still looping
	h.Tool("search", map[string]any{"q": "go", "page": 2}).RequireAllowed(t)
	h.Tool("search", q).RequireAllowed(t) // the run was broken
}

func TestLoopGuardRefusesACycleOfTwo(t *testing.T) {
	h := hooktest.New(t, prebuilt.LoopGuard(prebuilt.LoopGuardConfig{Repeats: 2}))
	h.Tool("open", map[string]any{"p": "a"}).RequireAllowed(t)
	h.Tool("close", map[string]any{"p": "a"}).RequireAllowed(t)
	h.Tool("open", map[string]any{"p": "a"}).RequireAllowed(t)
	h.Tool("close", map[string]any{"p": "a"}).RequireRefused(t,
		`Loop detected: the same two tool calls have alternated 2 times (this call of "close" among them). Stop repeating them; change course or answer with what you have.`)
}

func TestLoopGuardEndRunEndsAtTheNextModelRequest(t *testing.T) {
	h := hooktest.New(t, prebuilt.LoopGuard(prebuilt.LoopGuardConfig{Repeats: 2, OnLoop: prebuilt.EndRun}))
	h.Tool("x", nil).RequireAllowed(t)
	h.Tool("x", nil).RequireRefused(t, `Loop detected: "x" has been called 2 times in a row with the same arguments. Do not call it again with these arguments; change course or answer with what you have.`)
	h.Model(hooks.ModelRequest{}, hooks.ModelResponse{}).RequireEnded(t,
		`Run ended: Loop detected: "x" has been called 2 times in a row with the same arguments. Do not call it again with these arguments; change course or answer with what you have.`)
}

func TestLoopGuardRecentCallsSurviveResume(t *testing.T) {
	chain, run := start(t, prebuilt.LoopGuard(prebuilt.LoopGuardConfig{}))
	callTool(t, run, "search", map[string]any{"q": "x"})
	callTool(t, run, "search", map[string]any{"q": "x"})
	snap, err := run.Snapshot()
	require.NoError(t, err)
	resumed, err := chain.Resume(context.Background(), hooks.Host{}, snap)
	require.NoError(t, err)
	defer resumed.End(context.Background(), hooks.RunEnd{})
	assert.True(t, callTool(t, resumed, "search", map[string]any{"q": "x"}).IsError)
}

func TestLoopGuardRefusesARepeatsOfOne(t *testing.T) {
	assert.PanicsWithValue(t, "prebuilt.LoopGuard: field Repeats is 1: it must be at least 2 (0 means 3)", func() {
		prebuilt.LoopGuard(prebuilt.LoopGuardConfig{Repeats: 1})
	})
}

func TestLoopGuardStillSeesALoopAfterALongRun(t *testing.T) {
	_, run := start(t, prebuilt.LoopGuard(prebuilt.LoopGuardConfig{}))
	for i := range 100 {
		require.False(t, callTool(t, run, "read", map[string]any{"n": i % 3}).IsError, "call %d", i)
	}
	callTool(t, run, "read", map[string]any{"n": "x"})
	callTool(t, run, "read", map[string]any{"n": "x"})
	assert.True(t, callTool(t, run, "read", map[string]any{"n": "x"}).IsError)
}
