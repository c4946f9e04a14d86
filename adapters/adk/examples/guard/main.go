// Command guard runs an ADK app (an llmagent under a runner) with one
// hooks plugin: a guard refuses a shell call that would rm -rf, with the
// reason the model reads, and a redactor hides a key from the tool's
// result before the model sees it. The model is scripted (no network, no
// keys); the program prints what each step did.
//
//	go run ./examples/guard
package main

import (
	"context"
	"fmt"
	"io"
	"iter"
	"os"
	"strings"

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

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "guard:", err)
		os.Exit(1)
	}
}

// out is where the story goes (a test reads it).
var out io.Writer = os.Stdout

// script is the model: two calls, then an answer that quotes what it read.
type script struct{}

func (script) Name() string { return "scripted" }

func (script) GenerateContent(_ context.Context, req *model.LLMRequest, _ bool) iter.Seq2[*model.LLMResponse, error] {
	return func(yield func(*model.LLMResponse, error) bool) {
		var read []string
		for _, c := range req.Contents {
			for _, p := range c.Parts {
				if r := p.FunctionResponse; r != nil {
					read = append(read, fmt.Sprintf("%s: %v", r.Name, r.Response))
				}
			}
		}
		content := &genai.Content{Role: genai.RoleModel, Parts: []*genai.Part{
			{FunctionCall: &genai.FunctionCall{Name: "read", Args: map[string]any{"path": ".env"}}},
			{FunctionCall: &genai.FunctionCall{Name: "shell", Args: map[string]any{"command": "rm -rf build"}}}}}
		if len(read) > 0 {
			content = genai.NewContentFromText("I read "+strings.Join(read, "; "), genai.RoleModel)
		}
		yield(&model.LLMResponse{Content: content, TurnComplete: true, FinishReason: genai.FinishReasonStop}, nil)
	}
}

func run(ctx context.Context) error {
	guard := hooks.Funcs{HookName: "guard", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		if cmd, _ := call.Arguments["command"].(string); strings.Contains(cmd, "rm -rf") {
			return hooks.Refuse("rm -rf is not allowed here"), nil
		}
		return nil, nil
	}}
	redact := hooks.Funcs{HookName: "redact", AfterToolExecute: func(_ *hooks.Context, _ hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		text := strings.ReplaceAll(res.Text, "sk-demo-123", "[REDACTED]")
		return &hooks.ToolResultPatch{Text: &text}, nil
	}}
	chain, err := hooks.NewChain([]hooks.Hook{guard, redact})
	if err != nil {
		return err
	}
	p, err := hooksadk.Plugin(chain, hooksadk.Options{})
	if err != nil {
		return err
	}
	tools := []tool.Tool{}
	for name, result := range map[string]string{"read": "API_KEY=sk-demo-123", "shell": "done"} {
		t, err := functiontool.New(functiontool.Config{Name: name, Description: "the " + name + " tool"},
			func(_ agent.Context, args map[string]any) (map[string]any, error) {
				fmt.Fprintf(out, "%s runs with %v\n", name, args)
				return map[string]any{"result": result}, nil
			})
		if err != nil {
			return err
		}
		tools = append(tools, t)
	}
	root, err := llmagent.New(llmagent.Config{Name: "root", Model: script{}, Tools: tools})
	if err != nil {
		return err
	}
	r, err := runner.New(runner.Config{AppName: "guard", Agent: root, SessionService: session.InMemoryService(),
		AutoCreateSession: true, PluginConfig: runner.PluginConfig{Plugins: []*plugin.Plugin{p}}})
	if err != nil {
		return err
	}
	for ev, err := range r.Run(ctx, "user", "demo", genai.NewContentFromText("clean up", genai.RoleUser), agent.RunConfig{}) {
		if err != nil {
			return err
		}
		if ev.Content != nil && !ev.Partial {
			for _, part := range ev.Content.Parts {
				if part.Text != "" {
					fmt.Fprintf(out, "model: %s\n", part.Text)
				}
			}
		}
	}
	return nil
}
