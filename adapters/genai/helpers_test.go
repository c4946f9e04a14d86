package genai_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	hooksgenai "github.com/rienda/hooks/adapters/genai"
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

// secret is an API key that must reach no chunk.
const secret = "sk-live-0123456789abcdefghijABCDEF"

var keyPattern = regexp.MustCompile(`sk-live-[A-Za-z0-9]{26}`)

// redactor redacts keys of secret's shape in the stream and in the reply.
type redactor struct{}

func (redactor) Name() string  { return "redact" }
func (redactor) HoldBack() int { return len(secret) - 1 }
func (redactor) StreamText(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
	if !keyPattern.MatchString(text) {
		return nil, nil
	}
	out := keyPattern.ReplaceAllString(text, "[REDACTED]")
	return &hooks.StreamPatch{Text: &out}, nil
}
func (redactor) AfterModelResponse(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	out := keyPattern.ReplaceAllString(resp.Text, "[REDACTED]")
	return &hooks.ModelResponsePatch{Text: &out}, nil
}

// received is what deliver got.
type received struct {
	mu     sync.Mutex
	chunks []hooks.Chunk
	text   strings.Builder
}

func (r *received) deliver(ch hooks.Chunk) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.chunks = append(r.chunks, ch)
	r.text.WriteString(ch.Text)
	return nil
}

func startRun(t *testing.T, hs ...hooks.Hook) *hooks.Run {
	t.Helper()
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(func(d hooks.Diagnostic) { t.Errorf("diagnostic: %s at %s: %v", d.Hook, d.Point, d.Err) }))
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{Input: "test"})
	require.NoError(t, err)
	return run
}

// split cuts s into pieces of n bytes.
func split(s string, n int) []string {
	var out []string
	for i := 0; i < len(s); i += n {
		out = append(out, s[i:min(i+n, len(s))])
	}
	return out
}
