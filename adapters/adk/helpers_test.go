package adk_test

import (
	"context"
	"iter"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/model"
	"google.golang.org/adk/v2/plugin"
	"google.golang.org/adk/v2/runner"
	"google.golang.org/adk/v2/session"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/functiontool"
	"google.golang.org/genai"

	"github.com/rienda/hooks"
	hooksadk "github.com/rienda/hooks/adapters/adk"
)

// fakeModel is an ADK model answering with its replies in turn and
// recording each request it got (a copy).
type fakeModel struct {
	mu       sync.Mutex
	replies  []*genai.Content
	requests []model.LLMRequest
}

func (m *fakeModel) Name() string { return "fake-model" }

func (m *fakeModel) GenerateContent(_ context.Context, req *model.LLMRequest, _ bool) iter.Seq2[*model.LLMResponse, error] {
	return func(yield func(*model.LLMResponse, error) bool) {
		m.mu.Lock()
		n := len(m.requests)
		m.requests = append(m.requests, model.LLMRequest{Model: req.Model, Contents: req.Contents, Config: req.Config})
		m.mu.Unlock()
		if n >= len(m.replies) {
			yield(&model.LLMResponse{Content: genai.NewContentFromText("out of replies", genai.RoleModel), TurnComplete: true}, nil)
			return
		}
		yield(&model.LLMResponse{Content: m.replies[n], TurnComplete: true, FinishReason: genai.FinishReasonStop,
			UsageMetadata: &genai.GenerateContentResponseUsageMetadata{PromptTokenCount: 5, CandidatesTokenCount: 3}}, nil)
	}
}

func (m *fakeModel) request(t *testing.T, i int) model.LLMRequest {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	require.Greater(t, len(m.requests), i, "the model got no request %d", i+1)
	return m.requests[i]
}

func (m *fakeModel) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.requests)
}

// callReply is a model content asking for one call.
func callReply(name string, args map[string]any) *genai.Content {
	return &genai.Content{Role: genai.RoleModel, Parts: []*genai.Part{{FunctionCall: &genai.FunctionCall{Name: name, Args: args}}}}
}

func textReply(text string) *genai.Content { return genai.NewContentFromText(text, genai.RoleModel) }

// toolLog records the calls of a tool.
type toolLog struct {
	mu    sync.Mutex
	calls []map[string]any
	ctxs  []agent.Context
	out   map[string]any
	err   error
}

func (l *toolLog) tool(t *testing.T, name string) tool.Tool {
	t.Helper()
	tl, err := functiontool.New(functiontool.Config{Name: name, Description: "the " + name + " tool"},
		func(ctx agent.Context, args map[string]any) (map[string]any, error) {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.calls = append(l.calls, args)
			l.ctxs = append(l.ctxs, ctx)
			return l.out, l.err
		})
	require.NoError(t, err)
	return tl
}

// app is an llmagent under a runner with the hooks' plugin.
type app struct {
	runner *runner.Runner
	hooks  *hooksadk.Hooks
	ends   []hooks.RunEnd
}

func newApp(t *testing.T, m model.LLM, tools []tool.Tool, hs ...hooks.Hook) *app {
	t.Helper()
	return newAppConfig(t, m, tools, nil, hs...)
}

// newAppConfig is newApp with the agent's generate content config.
func newAppConfig(t *testing.T, m model.LLM, tools []tool.Tool, gen *genai.GenerateContentConfig, hs ...hooks.Hook) *app {
	t.Helper()
	a := &app{}
	audit := hooks.Funcs{HookName: "audit", AfterRun: func(_ *hooks.Context, end hooks.RunEnd) error {
		a.ends = append(a.ends, end)
		return nil
	}}
	chain, err := hooks.NewChain(append([]hooks.Hook{audit}, hs...),
		hooks.WithDiagnostics(func(d hooks.Diagnostic) { t.Logf("diagnostic: %s at %s: %v", d.Hook, d.Point, d.Err) }))
	require.NoError(t, err)
	p, h, err := hooksadk.New(chain, hooksadk.Options{})
	require.NoError(t, err)
	a.hooks = h
	root, err := llmagent.New(llmagent.Config{Name: "root", Model: m, Tools: tools, Instruction: "Be terse.", GenerateContentConfig: gen})
	require.NoError(t, err)
	a.runner, err = runner.New(runner.Config{AppName: "test", Agent: root, SessionService: session.InMemoryService(),
		AutoCreateSession: true, PluginConfig: runner.PluginConfig{Plugins: []*plugin.Plugin{p}}})
	require.NoError(t, err)
	return a
}

// run sends text and collects the events; err is the first error.
func (a *app) run(ctx context.Context, text string) ([]*session.Event, error) {
	var evs []*session.Event
	for ev, err := range a.runner.Run(ctx, "user", "s1", genai.NewContentFromText(text, genai.RoleUser), agent.RunConfig{}) {
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

// functionResponses are the functionResponse parts of contents.
func functionResponses(contents []*genai.Content) []*genai.FunctionResponse {
	var out []*genai.FunctionResponse
	for _, c := range contents {
		for _, p := range c.Parts {
			if p.FunctionResponse != nil {
				out = append(out, p.FunctionResponse)
			}
		}
	}
	return out
}

// toolNames are the function declarations of a request.
func toolNames(req model.LLMRequest) []string {
	var names []string
	if req.Config == nil {
		return nil
	}
	for _, t := range req.Config.Tools {
		for _, d := range t.FunctionDeclarations {
			names = append(names, d.Name)
		}
	}
	return names
}
