package genkit_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/rienda/hooks"
	hooksgenkit "github.com/rienda/hooks/adapters/genkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// generate runs one genkit.Generate of prompt on f's model through a run
// of hs and an auditing hook, ends the run as a host would (twice: the
// second End must do nothing), and checks that AfterRun ran exactly once.
func generate(t *testing.T, f *fakeAPI, hs []hooks.Hook, opts ...ai.GenerateOption) (*ai.ModelResponse, error) {
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

	//lint:ignore SA1019 the v1.4 entry point is tested too (viaUse: Use)
	mw := ai.GenerateOption(ai.WithMiddleware(hooksgenkit.Middleware(f.g, f.model)))
	if viaUse {
		mw = ai.WithUse(hooksgenkit.Use(f.g, f.model))
	}
	opts = append([]ai.GenerateOption{ai.WithModel(f.model), ai.WithPrompt("hello"), mw}, opts...)
	resp, err := genkit.Generate(hooks.ContextWithRun(ctx, run), f.g, opts...)
	var out string
	if resp != nil {
		out = resp.Text()
	}
	run.End(ctx, hooks.RunEnd{Output: out, Err: err})
	run.End(ctx, hooks.RunEnd{Output: "ended twice"})
	require.Len(t, ends, 1, "AfterRun runs exactly once")
	assert.Equal(t, out, ends[0].Output)
	return resp, err
}

// viaUse makes generate give genkit hooksgenkit.Use (ai.WithUse) instead
// of hooksgenkit.Middleware: TestEveryScenarioThroughUse sets it.
var viaUse bool

// shellArgs is the input of the shell tool.
type shellArgs struct {
	Command string `json:"command"`
}

// shellLog is a shell tool that records the commands it ran.
type shellLog struct {
	mu   sync.Mutex
	ran  []string
	echo string // the output, "" for "ran <command>"
}

func (l *shellLog) run(_ *ai.ToolContext, in shellArgs) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ran = append(l.ran, in.Command)
	if l.echo != "" {
		return l.echo, nil
	}
	return "ran " + in.Command, nil
}

func (l *shellLog) commands() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.ran...)
}

// guard refuses any command containing rm.
func guard() hooks.Hook {
	return hooks.Funcs{HookName: "guard",
		BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if cmd, _ := call.Arguments["command"].(string); strings.Contains(cmd, "rm") {
				return hooks.Refuse("deleting files is not allowed"), nil
			}
			return nil, nil
		}}
}

// redact replaces the secret in model replies (streamed too) and tool
// results.
func redact(secret string) hooks.Hook {
	clean := func(s string) string { return strings.ReplaceAll(s, secret, "[redacted]") }
	return hooks.Funcs{HookName: "redact",
		AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			text := clean(resp.Text)
			return &hooks.ModelResponsePatch{Text: &text}, nil
		},
		AfterToolExecute: func(_ *hooks.Context, _ hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
			return hooks.RewriteStrings(res, clean), nil
		}}
}

// streamRedactor redacts the streamed text as well: a chunk may carry the
// start of the secret, so it holds back one byte less than the secret.
type streamRedactor struct{ secret string }

func (streamRedactor) Name() string { return "stream-redact" }

func (r streamRedactor) HoldBack() int { return len(r.secret) - 1 }

func (r streamRedactor) StreamText(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
	out := strings.ReplaceAll(text, r.secret, "[redacted]")
	return &hooks.StreamPatch{Text: &out}, nil
}

// toolMessage is the content of the first tool message request i sent.
func toolMessage(t *testing.T, f *fakeAPI, i int) string {
	t.Helper()
	for _, m := range f.messages(i) {
		if m["role"] == "tool" {
			s, _ := m["content"].(string)
			return s
		}
	}
	t.Fatalf("request %d has no tool message", i+1)
	return ""
}
