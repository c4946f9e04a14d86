package genkit_test

import (
	"context"
	"maps"
	"math"
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

// fieldsModel is an in-process genkit model that keeps the requests it
// was sent and answers with reasoning holding a secret.
type fieldsModel struct {
	mu   sync.Mutex
	reqs []*ai.ModelRequest
}

func (f *fieldsModel) define(g *genkit.Genkit) ai.Model {
	return genkit.DefineModel(g, "test/fields", &ai.ModelOptions{Supports: &ai.ModelSupports{Multiturn: true, Tools: true, ToolChoice: true}},
		func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			f.mu.Lock()
			f.reqs = append(f.reqs, req)
			f.mu.Unlock()
			msg := &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{ai.NewReasoningPart("I must not say sk-SECRET", nil), ai.NewTextPart("done")}}
			if cb != nil {
				if err := cb(ctx, &ai.ModelResponseChunk{Content: msg.Content}); err != nil {
					return nil, err
				}
			}
			return &ai.ModelResponse{Message: msg, FinishReason: ai.FinishReasonStop, Request: req}, nil
		})
}

func (f *fieldsModel) last() *ai.ModelRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.reqs) == 0 {
		return nil
	}
	return f.reqs[len(f.reqs)-1]
}

// modelWrap is a WrapModelHook changing the request and the reply (the
// core's patches of these fields come with the root's own work; a wrap
// reaches the adapter either way).
type modelWrap struct {
	wrap func(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error)
}

func (modelWrap) Name() string { return "wrap" }

func (w modelWrap) WrapModel(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
	return w.wrap(c, req, next)
}

func fieldsGenerate(t *testing.T, h hooks.Hook, stream bool, opts ...ai.GenerateOption) (*fieldsModel, *ai.ModelResponse, []*ai.ModelResponseChunk, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // genkit.Init watches for signals until its context ends
	g := genkit.Init(ctx)
	f := &fieldsModel{}
	m := f.define(g)
	shell := genkit.DefineTool(g, "shell", "runs", func(*ai.ToolContext, shellArgs) (string, error) { return "ok", nil })
	read := genkit.DefineTool(g, "read", "reads", func(*ai.ToolContext, shellArgs) (string, error) { return "ok", nil })
	chain, err := hooks.NewChain([]hooks.Hook{h})
	require.NoError(t, err)
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	defer run.End(ctx, hooks.RunEnd{})
	var chunks []*ai.ModelResponseChunk
	opts = append([]ai.GenerateOption{ai.WithModel(m), ai.WithPrompt("hi"), ai.WithTools(shell, read), ai.WithUse(hooksgenkit.Use(g, m))}, opts...)
	if stream {
		opts = append(opts, ai.WithStreaming(func(_ context.Context, c *ai.ModelResponseChunk) error {
			chunks = append(chunks, c)
			return nil
		}))
	}
	resp, err := genkit.Generate(hooks.ContextWithRun(ctx, run), g, opts...)
	return f, resp, chunks, err
}

func TestHooksSeeAndChangeToolChoiceSettingsAndReasoning(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(map[bool]string{false: "generate", true: "stream"}[stream], func(t *testing.T) {
			var seen hooks.ModelRequest
			var reasoning string
			h := modelWrap{wrap: func(c *hooks.Context, r hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
				seen = r
				temp, max := 0.2, 64
				s := *r.Settings
				s.Temperature, s.MaxTokens, s.Stop = &temp, &max, []string{"END"}
				r.ToolChoice, r.Settings = &hooks.ToolChoice{Name: "read"}, &s
				resp, err := next(c, r)
				reasoning = resp.Reasoning
				resp.Reasoning = strings.ReplaceAll(resp.Reasoning, "sk-SECRET", "[redacted]")
				return resp, err
			}}
			f, resp, chunks, err := fieldsGenerate(t, h, stream, ai.WithToolChoice(ai.ToolChoiceAuto),
				ai.WithConfig(&ai.GenerationCommonConfig{Temperature: 0.7, TopP: 0.9, MaxOutputTokens: 10}))

			require.NoError(t, err)
			assert.Equal(t, &hooks.ToolChoice{Mode: hooks.ToolChoiceAuto}, seen.ToolChoice)
			require.NotNil(t, seen.Settings)
			assert.Equal(t, 0.7, *seen.Settings.Temperature)
			assert.Equal(t, 0.9, *seen.Settings.TopP)
			assert.Equal(t, 10, *seen.Settings.MaxTokens)
			assert.Equal(t, "I must not say sk-SECRET", reasoning, "the hooks read the reasoning parts")

			sent := f.last()
			require.NotNil(t, sent)
			assert.Equal(t, ai.ToolChoiceRequired, sent.ToolChoice, "a named tool is a required call")
			require.Len(t, sent.Tools, 1, "with only that tool offered")
			assert.Equal(t, "read", sent.Tools[0].Name)
			config, ok := sent.Config.(*ai.GenerationCommonConfig)
			require.True(t, ok, "config %T", sent.Config)
			assert.Equal(t, 0.2, config.Temperature)
			assert.Equal(t, 0.9, config.TopP, "a setting no hook changed stays")
			assert.Equal(t, 64, config.MaxOutputTokens)
			assert.Equal(t, []string{"END"}, config.StopSequences)

			assert.Equal(t, "done", resp.Text())
			assert.Contains(t, resp.Reasoning(), "[redacted]", "genkit holds the reasoning the hooks left")
			assert.NotContains(t, resp.Reasoning(), "sk-SECRET")
			for _, c := range chunks {
				for _, p := range c.Content {
					assert.NotContains(t, p.Text, "sk-SECRET", "no chunk carries the secret")
				}
			}
		})
	}
}

func TestWhatGenkitsConfigCannotSayIsAnError(t *testing.T) {
	for name, change := range map[string]func(*hooks.ModelRequest){
		"unknown mode":       func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Mode: "any"} },
		"tool not offered":   func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Name: "rm"} },
		"named, mode none":   func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Mode: "none", Name: "read"} },
		"provider options":   func(r *hooks.ModelRequest) { r.Settings = &hooks.ModelSettings{Provider: map[string]any{"seed": 1}} },
		"zero temperature":   func(r *hooks.ModelRequest) { z := 0.0; r.Settings = &hooks.ModelSettings{Temperature: &z} },
		"NaN topP":           func(r *hooks.ModelRequest) { n := math.NaN(); r.Settings = &hooks.ModelSettings{TopP: &n} },
		"negative maxTokens": func(r *hooks.ModelRequest) { n := -1; r.Settings = &hooks.ModelSettings{MaxTokens: &n} },
	} {
		t.Run(name, func(t *testing.T) {
			h := modelWrap{wrap: func(c *hooks.Context, r hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
				change(&r)
				return next(c, r)
			}}
			f, _, _, err := fieldsGenerate(t, h, false, ai.WithConfig(&ai.GenerationCommonConfig{Temperature: 0.5}))
			require.Error(t, err)
			assert.Nil(t, f.last(), "the model is not called otherwise than the hooks asked")
		})
	}
}

func TestAMapConfigIsSeenWholeAndTakesZeroAndProviderKeys(t *testing.T) {
	var seen *hooks.ModelSettings
	h := modelWrap{wrap: func(c *hooks.Context, r hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
		seen = r.Settings
		s := *r.Settings
		zero := 0.0
		s.Temperature = &zero
		s.Provider = maps.Clone(s.Provider)
		s.Provider["seed"] = 7
		r.Settings = &s
		return next(c, r)
	}}
	f, _, _, err := fieldsGenerate(t, h, false, ai.WithConfig(map[string]any{
		"temperature": 0.5, "topK": 3, "maxOutputTokens": "many", "stopSequences": []any{"a", "b"}}))
	require.NoError(t, err)
	require.NotNil(t, seen)
	assert.Equal(t, 0.5, *seen.Temperature)
	assert.Equal(t, []string{"a", "b"}, seen.Stop)
	assert.Nil(t, seen.MaxTokens, "a value the adapter cannot read is not a setting…")
	assert.Equal(t, map[string]any{"topK": 3, "maxOutputTokens": "many"}, seen.Provider, "…but the hooks see it, with every other key")
	// A wrap's changed settings reach the model as the core checked them:
	// provider options as their JSON, numbers as float64 (docs/semantics.md).
	assert.Equal(t, map[string]any{"temperature": 0.0, "topK": 3.0, "maxOutputTokens": "many", "stopSequences": []string{"a", "b"}, "seed": 7.0},
		f.last().Config)
}

func TestAProviderKeyNamingASettingIsAnError(t *testing.T) {
	h := modelWrap{wrap: func(c *hooks.Context, r hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
		one := 1.0
		r.Settings = &hooks.ModelSettings{Temperature: &one, Provider: map[string]any{"temperature": 2}}
		return next(c, r)
	}}
	f, _, _, err := fieldsGenerate(t, h, false, ai.WithConfig(map[string]any{"temperature": 0.5}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"temperature"`)
	assert.Nil(t, f.last())
}

// pluginConfig stands for a plugin's own config type.
type pluginConfig struct {
	Temperature float64 `json:"temperature"`
	Seed        int     `json:"seed"`
}

func TestAPluginsConfigIsShownAsProviderAndCannotBeRewritten(t *testing.T) {
	var seen *hooks.ModelSettings
	look := modelWrap{wrap: func(c *hooks.Context, r hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
		seen = r.Settings
		return next(c, r)
	}}
	f, _, _, err := fieldsGenerate(t, look, false, ai.WithConfig(&pluginConfig{Temperature: 1.5, Seed: 4}))
	require.NoError(t, err)
	require.NotNil(t, seen)
	assert.Equal(t, map[string]any{"temperature": 1.5, "seed": float64(4)}, seen.Provider)
	assert.Equal(t, &pluginConfig{Temperature: 1.5, Seed: 4}, f.last().Config, "unchanged, genkit's own value is sent")

	lower := modelWrap{wrap: func(c *hooks.Context, r hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
		low := 0.1
		r.Settings = &hooks.ModelSettings{Temperature: &low}
		return next(c, r)
	}}
	f, _, _, err = fieldsGenerate(t, lower, false, ai.WithConfig(&pluginConfig{Temperature: 1.5}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "pluginConfig")
	assert.Nil(t, f.last(), "the model is not called with a temperature the hook lowered and the adapter cannot write")
}
