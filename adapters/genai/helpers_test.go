package genai_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	hooksgenai "github.com/rienda/hooks/adapters/genai"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdk "google.golang.org/genai"
)

// runLoop runs params through a Loop with hs and an auditing hook, ends
// the run as a host would (twice: the second End must do nothing), and
// checks that AfterRun ran exactly once, with the loop's outcome.
func runLoop(t *testing.T, api *fakeAPI, tools map[string]hooksgenai.Tool, params hooksgenai.Params,
	hs ...hooks.Hook) (hooksgenai.Result, hooks.RunEnd, error) {
	t.Helper()
	var ends []hooks.RunEnd
	audit := hooks.Funcs{HookName: "audit", AfterRun: func(_ *hooks.Context, end hooks.RunEnd) error {
		ends = append(ends, end)
		return nil
	}}
	chain, err := hooks.NewChain(append([]hooks.Hook{audit}, hs...),
		hooks.WithDiagnostics(func(d hooks.Diagnostic) { t.Logf("diagnostic: %s at %s: %v", d.Hook, d.Point, d.Err) }))
	require.NoError(t, err)
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: "test"})
	require.NoError(t, err)

	loop := hooksgenai.Loop{Models: api.client.Models, Tools: tools}
	res, err := loop.Run(ctx, run, params)
	run.End(ctx, hooks.RunEnd{Output: res.Output, Err: err})
	run.End(ctx, hooks.RunEnd{Output: "ended twice"})

	require.Len(t, ends, 1, "AfterRun runs exactly once")
	assert.Equal(t, res.Output, ends[0].Output)
	return res, ends[0], err
}

// userParams is a call of one user message, offering decls.
func userParams(text string, decls ...string) hooksgenai.Params {
	p := hooksgenai.Params{Model: "gemini-test", Contents: []*sdk.Content{sdk.NewContentFromText(text, sdk.RoleUser)}}
	if len(decls) > 0 {
		var fds []*sdk.FunctionDeclaration
		for _, d := range decls {
			fds = append(fds, &sdk.FunctionDeclaration{Name: d, Description: "the " + d + " tool",
				ParametersJsonSchema: map[string]any{"type": "object"}})
		}
		p.Config = &sdk.GenerateContentConfig{Tools: []*sdk.Tool{{FunctionDeclarations: fds}}}
	}
	return p
}

// toolLog is a tool that records the argument text it was called with.
type toolLog struct {
	mu     sync.Mutex
	calls  []string
	result hooks.ToolResult
}

func (l *toolLog) tool(_ context.Context, args json.RawMessage) (hooks.ToolResult, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, string(args))
	return l.result, nil
}

// decode is a JSON object decoded.
func decode(t *testing.T, raw string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(raw), &m))
	return m
}

// functionResponse is a sent part's functionResponse.
func functionResponse(t *testing.T, part map[string]any) map[string]any {
	t.Helper()
	r, ok := part["functionResponse"].(map[string]any)
	require.True(t, ok, "no functionResponse in %v", part)
	return r
}

const secret = adapttest.Secret

type (
	redactor = adapttest.Redactor
	received = adapttest.Received
)

var split = adapttest.Split

func startRun(t *testing.T, hs ...hooks.Hook) *hooks.Run { return adapttest.StartRun(t, hs...) }
