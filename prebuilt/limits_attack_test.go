package prebuilt_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gate is a hook listed after a limit: each request the limit lets
// through waits in it until every request has been decided, so that
// parallel requests read the count before any is counted.
type gate struct {
	events  chan struct{}
	release chan struct{}
}

func (g *gate) Name() string { return "gate" }

func (g *gate) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	g.events <- struct{}{}
	<-g.release
	return nil, nil
}

// Parallel model requests of one run race the model-call count: each
// reads the count before any is counted. A limit of n lets n through.
func TestModelCallLimitLetsExactlyTheLimitThroughParallelRequests(t *testing.T) {
	const limit, calls = 3, 16
	g := &gate{events: make(chan struct{}), release: make(chan struct{})}
	_, run := start(t, prebuilt.ModelCallLimit(prebuilt.ModelCallLimitConfig{Run: limit}), g)
	var ran atomic.Int64
	var wg sync.WaitGroup
	for range calls {
		wg.Go(func() {
			reply, err := run.CallModel(context.Background(), hooks.ModelRequest{}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
				ran.Add(1)
				return hooks.ModelResponse{Text: "r"}, nil
			})
			assert.NoError(t, err)
			if reply.End != nil {
				g.events <- struct{}{} // ended by the limit, without reaching the gate
			}
		})
	}
	for range calls {
		<-g.events
	}
	close(g.release)
	wg.Wait()
	assert.EqualValues(t, limit, ran.Load())
}

// Two model calls of one run in flight at once, to models of different
// prices: each is priced as its own model.
func TestBudgetPricesParallelCallsEachByItsModel(t *testing.T) {
	b := prebuilt.Budget(prebuilt.BudgetConfig{MaxCost: 1000, WarnAt: -1, Prices: map[string]prebuilt.Price{
		"cheap": {Input: 0, Output: 0}, "dear": {Input: 1e6, Output: 0}}})
	_, run := start(t, b)
	dearIn, cheapIn := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	call := func(model string, entered, wait chan struct{}) {
		defer wg.Done()
		_, err := run.CallModel(context.Background(), hooks.ModelRequest{Model: model}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
			close(entered)
			<-wait
			return hooks.ModelResponse{Text: "r", Usage: hooks.Usage{InputTokens: 1}}, nil
		})
		assert.NoError(t, err)
	}
	wg.Add(2)
	go call("dear", dearIn, cheapIn) // dear answers once cheap has entered
	<-dearIn
	done := make(chan struct{})
	close(done)
	go call("cheap", cheapIn, done)
	wg.Wait()
	// A cost of 1 (one dear input token at 1e6 per million) is what was spent.
	snap, err := run.Snapshot()
	require.NoError(t, err)
	assert.Contains(t, stateOf(t, snap, "budget"), `"cost":1`)
}

// A provider error after tokens were spent (a stream cut mid-way whose
// error carries the Usage) counts; and once the budget is passed, a retry
// makes no more attempts.
func TestBudgetCountsFailedAttemptsAndARetryCannotSpendPastIt(t *testing.T) {
	attempts := 0
	failing := func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		attempts++
		return hooks.ModelResponse{Usage: hooks.Usage{InputTokens: 60}}, errors.New("stream cut")
	}
	_, run := start(t, prebuilt.ModelRetry(prebuilt.ModelRetryConfig{MaxAttempts: 5, Backoff: fast}),
		prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 100, WarnAt: -1}))
	_, err := run.CallModel(context.Background(), hooks.ModelRequest{}, failing)
	require.Error(t, err)
	assert.Equal(t, 2, attempts, "the second attempt passed the budget: no third")
	assert.Contains(t, err.Error(), "budget exceeded: 120 of 100 tokens")
	reply, err := run.CallModel(context.Background(), hooks.ModelRequest{}, failing)
	require.NoError(t, err)
	assert.NotNil(t, reply.End, "the next request ends the run")
	assert.Equal(t, 2, attempts)
}

func model(text string) hooks.ModelFunc {
	return func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{Text: text}, nil
	}
}

// A resumed run keeps its counts; a second run of the same chain starts
// from none (counts are per run, never the chain's).
func TestLimitCountsArePerRunAndSurviveResume(t *testing.T) {
	mlimit := prebuilt.ModelCallLimit(prebuilt.ModelCallLimitConfig{Run: 2})
	tlimit := prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{"shell": 1}})
	chain, run := start(t, mlimit, tlimit)
	reply, err := run.CallModel(context.Background(), hooks.ModelRequest{}, model("1"))
	require.NoError(t, err)
	require.Nil(t, reply.End)
	callTool(t, run, "shell", nil)
	snap, err := run.Snapshot()
	require.NoError(t, err)

	resumed, err := chain.Resume(context.Background(), hooks.Host{}, snap)
	require.NoError(t, err)
	defer resumed.End(context.Background(), hooks.RunEnd{})
	assert.True(t, callTool(t, resumed, "shell", nil).IsError, "the resumed run has called shell once already")
	reply, err = resumed.CallModel(context.Background(), hooks.ModelRequest{}, model("2"))
	require.NoError(t, err)
	require.Nil(t, reply.End)
	reply, err = resumed.CallModel(context.Background(), hooks.ModelRequest{}, model("3"))
	require.NoError(t, err)
	assert.NotNil(t, reply.End, "the third model call of the run, across the resume")

	second, err := chain.Start(context.Background(), hooks.Host{Env: map[string]string{}}, hooks.RunStart{RunID: "r2"})
	require.NoError(t, err)
	defer second.End(context.Background(), hooks.RunEnd{})
	assert.False(t, callTool(t, second, "shell", nil).IsError, "another run counts its own calls")
	reply, err = second.CallModel(context.Background(), hooks.ModelRequest{}, model("1"))
	require.NoError(t, err)
	assert.Nil(t, reply.End)
}

// A tool name no tool can have, in PerTool or Tools, is a config error
// naming it: it would match nothing, and the limit or retry would be off.
func TestToolNamesNoToolCanHaveAreRefused(t *testing.T) {
	for name, want := range map[string]string{
		" shell":         `a tool's name has no space around it (did you mean "shell"?)`,
		"shell\t":        `a tool's name has no space around it (did you mean "shell"?)`,
		"mcp__github__*": "names match exactly, not as patterns: name each tool",
		"shel?":          "names match exactly, not as patterns: name each tool",
		"ѕhell":          `it mixes Latin letters with 'ѕ' (U+0455), a look-alike of a Latin letter`,
		"sh\u200bell":    "it holds the invisible character U+200B",
		"ｓhell":          "it holds the full-width 'ｓ', a look-alike of 's'",
		"ſhell":          "it holds 'ſ' (U+017F), which folds to a Latin letter: a look-alike",
		"\u212Aill":      "it holds '\u212A' (U+212A), which folds to a Latin letter: a look-alike",
	} {
		assert.Contains(t, panicText(func() { prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{name: 1}}) }),
			fmt.Sprintf("prebuilt.ToolCallLimit: field PerTool has an entry %q: %s", name, want), name)
		assert.Contains(t, panicText(func() { prebuilt.ToolRetry(prebuilt.ToolRetryConfig{Tools: []string{name}}) }),
			fmt.Sprintf("prebuilt.ToolRetry: field Tools[0] is %q: %s", name, want), name)
		assert.Contains(t, panicText(func() { prebuilt.ToolErrors(prebuilt.ToolErrorsConfig{Tools: []string{"x", name}}) }),
			fmt.Sprintf("prebuilt.ToolErrors: field Tools[1] is %q: %s", name, want), name)
	}
	_, err := prebuilt.FromSpec("toolCallLimit", settingsOf(t, `{perTool: {"mcp__github__*": 1}}`))
	assert.ErrorContains(t, err, `field PerTool has an entry "mcp__github__*"`)
	// Names tools do have: MCP's, dotted, with a space inside, another script alone.
	for _, name := range []string{"mcp__github__create_issue", "fs.read", "ns:tool", "Write File", "поиск", "検索"} {
		assert.NotPanics(t, func() { prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{name: 1}}) }, name)
	}
}

// mcp__server__tool names are names like any: matched exactly, folded
// in case only, and a call of another server's tool is not limited.
func TestToolCallLimitMCPNames(t *testing.T) {
	h := hooktest.New(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{"mcp__github__create_issue": 1}}))
	h.Tool("mcp__github__create_issue", nil).RequireAllowed(t)
	assert.False(t, h.Tool("mcp__github__create_issue", nil).Ran)
	assert.False(t, h.Tool("MCP__GitHub__Create_Issue", nil).Ran, "another case of the same name")
	h.Tool("mcp__gitlab__create_issue", nil).RequireAllowed(t)
}

// Settings an agent file gives with no value, or keys that are not
// names, are errors: "run:" left empty would be no run-wide limit.
func TestFromSpecEmptyValuesAndNonStringKeysAreErrors(t *testing.T) {
	for src, want := range map[string]string{
		`{run: ~, perTool: {shell: 1}}`: `setting "run": want a number, got no value (null)`,
		`{run: , perTool: {shell: 1}}`:  `setting "run": want a number, got no value (null)`,
		`{perTool: {shell: ~}}`:         `in "perTool": setting "shell": want a number, got no value (null)`,
		`{perTool: {shell: "0"}}`:       `in "perTool": setting "shell": want a number, got the string "0"`,
		`{perTool: {true: 1}}`:          `setting "perTool": the key true (bool) is not a name`,
		`{perTool: {~: 1}}`:             `setting "perTool": a key is empty (null)`,
		`{run: .inf}`:                   `setting "run": want a whole number of at most 2147483647`,
		`{run: -1}`:                     `field Run is -1`,
		`{run: 1.5}`:                    `setting "run": want a whole number, got 1.5`,
	} {
		_, err := prebuilt.FromSpec("toolCallLimit", settingsOf(t, src))
		assert.ErrorContains(t, err, want, src)
	}
	_, err := prebuilt.FromSpec("budget", settingsOf(t, `{maxTokens: ~, maxCost: 1, prices: {m: {input: 1}}}`))
	assert.ErrorContains(t, err, `setting "maxTokens": want a number, got no value (null)`)
	for _, src := range []string{`{run: 1e3}`, `{run: 0x10}`, `{run: 5.0}`, `{<<: {run: 1}, perTool: {shell: 1}}`} {
		_, err := prebuilt.FromSpec("toolCallLimit", settingsOf(t, src))
		assert.NoError(t, err, src)
	}
}

// panicText is what f panics with, as text; "" when it does not.
func panicText(f func()) (text string) {
	defer func() {
		if r := recover(); r != nil {
			text = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// The same call spelt otherwise, as the tool's decoder reads it the same
// (argument keys in another case, the tool's name in another case), is
// the same call: a model cannot step around the loop guard by spelling.
func TestLoopGuardSeesTheCallAsTheToolReadsIt(t *testing.T) {
	h := hooktest.New(t, prebuilt.LoopGuard(prebuilt.LoopGuardConfig{Repeats: 3}))
	h.Tool("search", map[string]any{"query": "x"}).RequireAllowed(t)
	h.Tool("search", map[string]any{"Query": "x"}).RequireAllowed(t)
	assert.False(t, h.Tool("Search", map[string]any{"QUERY": "x"}).Ran, "the third identical call, spelt three ways")

	h = hooktest.New(t, prebuilt.LoopGuard(prebuilt.LoopGuardConfig{Repeats: 2}))
	h.Tool("fetch", map[string]any{"opts": map[string]any{"URL": "u"}}).RequireAllowed(t)
	assert.False(t, h.Tool("fetch", map[string]any{"Opts": map[string]any{"url": "u"}}).Ran, "nested keys too")
	// Different values are different calls.
	h.Tool("fetch", map[string]any{"opts": map[string]any{"url": "v"}}).RequireAllowed(t)
}

// A tool call a wrap retried is one call against a limit (the guards are
// asked once, before the wraps), a model call a retry or a fallback made
// again is one model call, and a call a hook listed before the limit
// answered from a cache (Respond) never reached the limit.
func TestLimitsCountARetriedOrFallenBackCallOnce(t *testing.T) {
	attempts := 0
	flaky := func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		attempts++
		if attempts%3 != 0 {
			return hooks.ToolResult{}, errors.New("flaky")
		}
		return hooks.ToolResult{Text: "ok"}, nil
	}
	_, run := start(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 2}), prebuilt.ToolRetry(prebuilt.ToolRetryConfig{MaxAttempts: 3, Backoff: fast}))
	for i := range 2 {
		res, err := run.CallTool(context.Background(), hooks.ToolCall{ID: fmt.Sprint(i), Name: "fetch"}, flaky)
		require.NoError(t, err)
		assert.Equal(t, "ok", res.Text)
	}
	assert.Equal(t, 6, attempts)
	res, err := run.CallTool(context.Background(), hooks.ToolCall{ID: "3", Name: "fetch"}, flaky)
	require.NoError(t, err)
	assert.True(t, res.IsError, "the third call is past the limit of 2")
	assert.Equal(t, 6, attempts)

	models := []string{}
	failFirst := func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		models = append(models, req.Model)
		if req.Model == "a" {
			return hooks.ModelResponse{}, errors.New("overloaded")
		}
		return hooks.ModelResponse{Text: "r"}, nil
	}
	_, run = start(t, prebuilt.ModelCallLimit(prebuilt.ModelCallLimitConfig{Run: 2}),
		prebuilt.ModelFallback(prebuilt.ModelFallbackConfig{Models: []string{"b"}}), prebuilt.ModelRetry(prebuilt.ModelRetryConfig{MaxAttempts: 2, Backoff: fast}))
	for range 2 {
		reply, err := run.CallModel(context.Background(), hooks.ModelRequest{Model: "a"}, failFirst)
		require.NoError(t, err)
		require.Nil(t, reply.End)
	}
	assert.Equal(t, []string{"a", "a", "b", "a", "a", "b"}, models)
	reply, err := run.CallModel(context.Background(), hooks.ModelRequest{Model: "a"}, failFirst)
	require.NoError(t, err)
	assert.NotNil(t, reply.End, "the third model call of the run")
}

// A snapshot whose counts were set below zero (a store the agent could
// write) does not give calls back: the hook fails, naming its state.
func TestRestoredNegativeCountsAreRefused(t *testing.T) {
	for hook, state := range map[string]string{
		"toolCallLimit":  `{"total":-100}`,
		"modelCallLimit": `{"calls":-100}`,
		"budget":         `{"tokens":-1000000}`,
	} {
		var h hooks.Hook
		switch hook {
		case "toolCallLimit":
			h = prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 1})
		case "modelCallLimit":
			h = prebuilt.ModelCallLimit(prebuilt.ModelCallLimitConfig{Run: 1})
		default:
			h = prebuilt.Budget(prebuilt.BudgetConfig{MaxTokens: 10})
		}
		chain, run := start(t, h)
		callTool(t, run, "t", nil)
		_, err := run.CallModel(context.Background(), hooks.ModelRequest{}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
			return hooks.ModelResponse{Text: "r", Usage: hooks.Usage{InputTokens: 1}}, nil
		})
		require.NoError(t, err)
		snap, err := run.Snapshot()
		require.NoError(t, err)
		var doc map[string]any
		require.NoError(t, json.Unmarshal(snap, &doc))
		var st any
		require.NoError(t, json.Unmarshal([]byte(state), &st))
		doc["states"].(map[string]any)[hook] = st
		snap, err = json.Marshal(doc)
		require.NoError(t, err)
		resumed, err := chain.Resume(context.Background(), hooks.Host{}, snap)
		require.NoError(t, err)
		_, terr := resumed.CallTool(context.Background(), hooks.ToolCall{Name: "t"}, ok)
		_, merr := resumed.CallModel(context.Background(), hooks.ModelRequest{}, model("r"))
		err = errors.Join(terr, merr)
		require.Error(t, err, hook)
		assert.Contains(t, err.Error(), "its run state (from a snapshot) does not read back", hook)
		resumed.End(context.Background(), hooks.RunEnd{})
	}
}

// Parallel calls of one tool, spelt in several cases, against an entry
// in another case: exactly the limit runs.
func TestToolCallLimitParallelCallsInSeveralSpellings(t *testing.T) {
	const limit, calls = 5, 48
	_, run := start(t, prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{PerTool: map[string]int{"Shell": limit}, OnLimit: prebuilt.EndRun}))
	var ran atomic.Int64
	var wg sync.WaitGroup
	names := []string{"shell", "SHELL", "Shell", "sHeLl"}
	for i := range calls {
		wg.Go(func() {
			_, err := run.CallTool(context.Background(), hooks.ToolCall{ID: fmt.Sprint(i), Name: names[i%len(names)]}, func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
				ran.Add(1)
				return hooks.ToolResult{}, nil
			})
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	assert.EqualValues(t, limit, ran.Load())
	reply, err := run.CallModel(context.Background(), hooks.ModelRequest{}, model("r"))
	require.NoError(t, err)
	assert.NotNil(t, reply.End)
}
