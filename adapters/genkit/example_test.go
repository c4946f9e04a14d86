package genkit_test

import (
	"context"
	"fmt"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/rienda/hooks"
	hooksgenkit "github.com/rienda/hooks/adapters/genkit"
)

// A Generate whose model asks to delete a file: the guard refuses, and the
// model reads the reason as the tool's output.
func Example() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // genkit.Init watches for signals until its context ends
	g := genkit.Init(ctx)
	model := scriptedModel(g, // stands for a real model
		ai.NewModelMessage(ai.NewToolRequestPart(&ai.ToolRequest{Ref: "c1", Name: "delete", Input: map[string]any{"path": "/"}})),
		ai.NewModelTextMessage("I may not delete files."))
	deleteTool := genkit.DefineTool(g, "delete", "deletes a file", // a plain genkit tool: Use guards it
		func(_ *ai.ToolContext, in struct {
			Path string `json:"path"`
		}) (string, error) {
			return "deleted " + in.Path, nil
		})

	guard := hooks.Funcs{HookName: "guard", BeforeToolExecute: func(_ *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		if call.Name == "delete" {
			return hooks.Refuse("deleting files is not allowed"), nil
		}
		return nil, nil
	}}
	chain, err := hooks.NewChain([]hooks.Hook{guard})
	if err != nil {
		panic(err)
	}
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: "clean up"})
	if err != nil {
		panic(err)
	}

	resp, err := genkit.Generate(hooks.ContextWithRun(ctx, run), g,
		ai.WithModel(model), ai.WithPrompt("clean up"), ai.WithTools(deleteTool),
		ai.WithUse(hooksgenkit.Use(g, model))) // the model and every tool under the hooks
	var out string
	if resp != nil {
		out = resp.Text()
		for _, m := range resp.History() {
			for _, p := range m.Content {
				if p.IsToolResponse() {
					fmt.Printf("%s: %v\n", p.ToolResponse.Name, p.ToolResponse.Output)
				}
			}
		}
	}
	run.End(ctx, hooks.RunEnd{Output: out, Err: err})
	fmt.Println(out)
	// Output:
	// delete: deleting files is not allowed
	// I may not delete files.
}

// scriptedModel is a model answering with replies in turn.
func scriptedModel(g *genkit.Genkit, replies ...*ai.Message) ai.Model {
	n := 0
	return genkit.DefineModel(g, "script/model", &ai.ModelOptions{Supports: &ai.ModelSupports{Multiturn: true, Tools: true}},
		func(_ context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			msg := replies[n%len(replies)]
			n++
			return &ai.ModelResponse{Message: msg, FinishReason: ai.FinishReasonStop, Request: req}, nil
		})
}
