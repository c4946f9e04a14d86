package hooks_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/rienda/hooks"
)

// A hook that forces a tool call: when the user asks to read a file, the
// model must call read_file (Gemini CLI's mode ANY, OpenAI's and
// Anthropic's tool_choice). A name the request does not offer would be
// the hook's error, never sent to the provider.
func ExampleModelRequestPatch_toolChoice() {
	force := hooks.Funcs{HookName: "force-read", BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		last := req.Messages[len(req.Messages)-1]
		if !strings.Contains(last.Text, "read") {
			return nil, nil
		}
		return &hooks.ModelRequestPatch{ToolChoice: &hooks.ToolChoice{Name: "read_file"}}, nil
	}}
	chain, _ := hooks.NewChain([]hooks.Hook{force})
	run, _ := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})

	model := func(_ *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		fmt.Printf("the model must call: %s %q\n", req.ToolChoice.Mode, req.ToolChoice.Name)
		return hooks.ModelResponse{ToolCalls: []hooks.ToolCall{{ID: "1", Name: req.ToolChoice.Name}}}, nil
	}
	req := hooks.ModelRequest{
		Messages: []hooks.Message{{Role: "user", Text: "read go.mod"}},
		Tools:    []hooks.ToolSpec{{Name: "shell"}, {Name: "read_file"}},
	}
	_, _ = run.CallModel(context.Background(), req, model)

	req.Tools = []hooks.ToolSpec{{Name: "shell"}} // read_file not offered
	_, err := run.CallModel(context.Background(), req, model)
	fmt.Println(err)
	// Output:
	// the model must call: required "read_file"
	// hooks: hook "force-read" failed at beforeModelRequest: toolChoice names tool "read_file", which the request does not offer (names match exactly: offered ["shell"])
}

// A hook that caps the reply's length: it keeps the request's other
// settings (a patch replaces them whole) and lowers MaxTokens to 256.
func ExampleModelRequestPatch_settings() {
	capTokens := hooks.Funcs{HookName: "cap-tokens", BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		var s hooks.ModelSettings
		if req.Settings != nil {
			s = *req.Settings
		}
		if s.MaxTokens != nil && *s.MaxTokens <= 256 {
			return nil, nil
		}
		capped := 256
		s.MaxTokens = &capped
		return &hooks.ModelRequestPatch{Settings: &s}, nil
	}}
	chain, _ := hooks.NewChain([]hooks.Hook{capTokens})
	run, _ := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})

	temperature, asked := 0.2, 8000
	req := hooks.ModelRequest{Settings: &hooks.ModelSettings{Temperature: &temperature, MaxTokens: &asked}}
	_, _ = run.CallModel(context.Background(), req, func(_ *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		fmt.Printf("temperature %v, at most %d tokens\n", *req.Settings.Temperature, *req.Settings.MaxTokens)
		return hooks.ModelResponse{Text: "ok"}, nil
	})
	// Output:
	// temperature 0.2, at most 256 tokens
}
