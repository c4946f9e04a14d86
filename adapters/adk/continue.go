package adk

import (
	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/functiontool"
	"google.golang.org/genai"

	"github.com/rienda/hooks/internal/adapt"
)

// A hook's Continue on a final reply: ADK's flow stops at a reply without
// function calls, and a callback cannot add a turn. So the plugin turns the
// reply into one that calls continueTool, a tool it adds to every model
// request's tool set (not to the declarations: the model never sees it
// offered). ADK runs it, its response carries the Continue message, and
// the flow calls the model again. Before that call the plugin rewrites the
// request's contents: the call leaves the reply and its response becomes a
// user text, so that the model reads the reply and then the Continue
// message, as the other adapters send it.
const continueTool = "hooks_continue"

// maxContinues bounds the Continues of one invocation: past it a Continue
// is ignored (the reply is final), so a hook that always continues cannot
// keep an app calling its model forever.
const maxContinues = 20

// continueArgs are continueTool's arguments.
type continueArgs struct {
	Message string `json:"message"`
}

// newContinueTool is the tool that answers a continue call with its
// message.
func newContinueTool() (tool.Tool, error) {
	return functiontool.New(functiontool.Config{Name: continueTool,
		Description: "Internal to the hooks plugin: carries a hook's Continue message."},
		func(_ agent.Context, a continueArgs) (map[string]any, error) {
			return map[string]any{"message": a.Message}, nil
		})
}

// continueCall is the function call part that makes ADK go on with
// message.
func continueCall(message string) *genai.Part {
	return &genai.Part{FunctionCall: &genai.FunctionCall{ID: adapt.NewCallID("adk_hooks_"), Name: continueTool,
		Args: map[string]any{"message": message}}}
}

// unwrapContinues is contents with each continue call removed and each
// continue response a user text saying its message; contents and their
// parts are not modified. A content left without parts is dropped.
func unwrapContinues(contents []*genai.Content) []*genai.Content {
	if !hasContinue(contents) {
		return contents
	}
	out := make([]*genai.Content, 0, len(contents))
	for _, c := range contents {
		if c == nil {
			out = append(out, c)
			continue
		}
		parts := make([]*genai.Part, 0, len(c.Parts))
		for _, p := range c.Parts {
			switch {
			case p != nil && p.FunctionCall != nil && p.FunctionCall.Name == continueTool:
			case p != nil && p.FunctionResponse != nil && p.FunctionResponse.Name == continueTool:
				msg, _ := p.FunctionResponse.Response["message"].(string)
				parts = append(parts, &genai.Part{Text: msg})
			default:
				parts = append(parts, p)
			}
		}
		if len(parts) > 0 {
			out = append(out, &genai.Content{Role: c.Role, Parts: parts})
		}
	}
	return out
}

func hasContinue(contents []*genai.Content) bool {
	for _, c := range contents {
		if c == nil {
			continue
		}
		for _, p := range c.Parts {
			if p != nil && ((p.FunctionCall != nil && p.FunctionCall.Name == continueTool) ||
				(p.FunctionResponse != nil && p.FunctionResponse.Name == continueTool)) {
				return true
			}
		}
	}
	return false
}
