package genkit_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/rienda/hooks"
	hooksgenkit "github.com/rienda/hooks/adapters/genkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryScenarioThroughUse runs the model and tool scenarios again with
// the Hooks middleware (ai.WithUse) in place of Middleware: the tools made
// with DefineTool run through the hooks once, in the middleware.
func TestEveryScenarioThroughUse(t *testing.T) {
	viaUse = true
	defer func() { viaUse = false }()
	for name, test := range map[string]func(*testing.T){
		"redaction":            TestRedactionHookRewritesTheReply,
		"streamed redaction":   TestStreamedReplyCarriesNoSecretInAnyChunk,
		"streamed tool calls":  TestStreamedToolCallsStillRunThroughTheHooks,
		"payload fields":       TestPayloadFields,
		"narrow tools, model":  TestHookNarrowsToolsAndChangesModel,
		"unchanged request":    TestUnchangedRequestIsSentAsGenkitBuiltIt,
		"system and messages":  TestHookRewritesSystemAndMessages,
		"respond":              TestRespondWithToolCallsWithoutIDs,
		"end":                  TestEndStopsTheGenerate,
		"continue":             TestContinueSendsTheRunOnWithTheExchange,
		"hook error":           TestHookErrorFailsTheGenerate,
		"guard":                TestGuardRefusesToolAndTheModelReadsWhy,
		"rewritten arguments":  TestAllowedToolRunsWithTheArgumentsAHookWrote,
		"structured redaction": TestRedactionReachesStructuredToolOutput,
		"unreadable arguments": TestArgumentsAGuardCannotReadNeverReachTheTool,
		"interrupt":            TestInterruptPassesThroughTheWrapper,
		"call ids":             TestToolHooksSeeTheCallID,
	} {
		t.Run(name, test)
	}
}

// TestUseGuardsAPlainGenkitToolOnceWithItsCallID: a tool genkit defined
// itself (not DefineTool) is refused and redacted by the Hooks middleware,
// and a DefineTool tool's hooks run once, not twice.
func TestUseGuardsAPlainGenkitToolOnceWithItsCallID(t *testing.T) {
	viaUse = true
	defer func() { viaUse = false }()
	f := newFakeAPI(t, toolReply(call{"call_1", "shell", `{"command":"rm -rf /"}`}, call{"call_2", "cat", `{"command":"key"}`},
		call{"call_3", "ours", `{"command":"ls"}`}), textReply("done"))
	shell := &shellLog{}
	plain := genkit.DefineTool(f.g, "shell", "runs a command", shell.run)
	cat := genkit.DefineTool(f.g, "cat", "prints", func(*ai.ToolContext, shellArgs) (string, error) { return "the key is sk-SECRET", nil })
	ours := hooksgenkit.DefineTool(f.g, "ours", "runs a command", (&shellLog{}).run)
	var mu sync.Mutex
	seen := map[string]int{}
	count := hooks.Funcs{HookName: "count", AfterToolExecute: func(_ *hooks.Context, call hooks.ToolCall, _ hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		mu.Lock()
		defer mu.Unlock()
		seen[call.ID+" "+call.Name]++
		return nil, nil
	}}

	_, err := generate(t, f, []hooks.Hook{guard(), redact("sk-SECRET"), count}, ai.WithTools(plain, cat, ours))

	require.NoError(t, err)
	assert.Empty(t, shell.commands(), "a refused call never reaches genkit's own tool")
	sent := f.body(1)["messages"]
	assert.NotContains(t, fmt.Sprint(sent), "sk-SECRET", "a plain tool's output is redacted")
	assert.Contains(t, fmt.Sprint(sent), "deleting files is not allowed")
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, map[string]int{"call_2 cat": 1, "call_3 ours": 1}, seen,
		"each call's hooks run once, with the model's call ID (a refused call has no AfterToolExecute)")
}

// TestUseStreamsTheFirstChunkBeforeTheModelsLast: the model sends its
// first chunk and then waits until the test's callback has it; a stream
// held back until the reply is complete would never get there. A
// redaction holds back the secret's length less one byte: the first
// chunk is longer than that.
func TestUseStreamsTheFirstChunkBeforeTheModelsLast(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // a failure guard, not a wait
	defer cancel()
	g := genkit.Init(ctx)
	seen := make(chan struct{})
	m := genkit.DefineModel(g, "test/slow", &ai.ModelOptions{Supports: &ai.ModelSupports{Multiturn: true}},
		func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			if err := cb(ctx, &ai.ModelResponseChunk{Content: []*ai.Part{ai.NewTextPart("Hello, this is the first chunk; ")}}); err != nil {
				return nil, err
			}
			select {
			case <-seen:
			case <-ctx.Done():
				return nil, fmt.Errorf("the first chunk never reached the caller: %w", ctx.Err())
			}
			if err := cb(ctx, &ai.ModelResponseChunk{Content: []*ai.Part{ai.NewTextPart("world")}}); err != nil {
				return nil, err
			}
			return &ai.ModelResponse{Message: ai.NewModelTextMessage("Hello, this is the first chunk; world"), FinishReason: ai.FinishReasonStop, Request: req}, nil
		})
	chain, err := hooks.NewChain([]hooks.Hook{streamRedactor{secret: "sk-SECRET"}})
	require.NoError(t, err)
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	defer run.End(ctx, hooks.RunEnd{})
	var chunks []string
	resp, err := genkit.Generate(hooks.ContextWithRun(ctx, run), g, ai.WithModel(m), ai.WithPrompt("hi"),
		ai.WithUse(hooksgenkit.Use(g, m)),
		ai.WithStreaming(func(_ context.Context, c *ai.ModelResponseChunk) error {
			chunks = append(chunks, c.Text())
			if len(chunks) == 1 {
				close(seen)
			}
			return nil
		}))
	require.NoError(t, err)
	assert.Equal(t, "Hello, this is the first chunk; world", resp.Text())
	assert.Equal(t, "Hello, this is the first chunk; world", strings.Join(chunks, ""))
	assert.GreaterOrEqual(t, len(chunks), 2, "the text arrives in more than one chunk")
}

// TestAToolInsideAPlainToolStillRunsItsHooks: a plain genkit tool that
// Generates in turn, without Use, with a DefineTool tool of another name:
// the inner tool's hooks still run (the outer call's mark is not its).
func TestAToolInsideAPlainToolStillRunsItsHooks(t *testing.T) {
	viaUse = true
	defer func() { viaUse = false }()
	f := newFakeAPI(t, toolReply(call{"call_1", "outer", `{"command":"go"}`}),
		toolReply(call{"call_2", "shell", `{"command":"rm -rf /"}`}), textReply("inner done"), textReply("done"))
	shell := &shellLog{}
	inner := hooksgenkit.DefineTool(f.g, "shell", "runs a command", shell.run)
	outer := genkit.DefineTool(f.g, "outer", "generates", func(tc *ai.ToolContext, _ shellArgs) (string, error) {
		resp, err := genkit.Generate(tc, f.g, ai.WithModel(f.model), ai.WithPrompt("inner"), ai.WithTools(inner))
		if err != nil {
			return "", err
		}
		return resp.Text(), nil
	})
	_, err := generate(t, f, []hooks.Hook{guard()}, ai.WithTools(outer))
	require.NoError(t, err)
	assert.Empty(t, shell.commands(), "the inner tool's guard ran")
}
