package genkit

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync/atomic"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// Hooks is genkit's middleware (ai.Middleware, given with ai.WithUse) that
// runs a Generate under the hooks of the run in its context: every model
// call through the model hooks, streamed chunk by chunk through the stream
// hooks, and every tool call, of any tool, through the tool hooks with
// the call's ID. One value does what Middleware and DefineTool do
// together; it holds no state of a call, so one value serves any number
// of Generates at once.
type Hooks struct {
	m *middleware
}

var _ ai.Middleware = Hooks{}

// Use returns the Hooks middleware. model and g are as for Middleware:
// the model the Generate calls (genkit does not tell its middleware), and
// where a model a hook names instead is looked up (nil: a hook may not
// change the model).
//
//	resp, err := genkit.Generate(hooks.ContextWithRun(ctx, run), g,
//		ai.WithModel(model), ai.WithPrompt(prompt), ai.WithTools(shell),
//		ai.WithUse(hooksgenkit.Use(g, model)))
func Use(g *genkit.Genkit, model ai.ModelArg) Hooks {
	m := &middleware{g: g}
	if model != nil {
		m.model = model.Name()
	}
	return Hooks{m: m}
}

// Name is the middleware's name in genkit.
func (Hooks) Name() string { return "rienda-hooks" }

// New returns the hooks of one Generate.
func (h Hooks) New(context.Context) (*ai.Hooks, error) {
	m := h.m
	if m == nil {
		m = &middleware{}
	}
	return &ai.Hooks{
		WrapModel: func(ctx context.Context, p *ai.ModelParams, next ai.ModelNext) (*ai.ModelResponse, error) {
			return m.generate(ctx, p.Request, p.Callback, func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
				return next(ctx, &ai.ModelParams{Request: req, Callback: cb})
			})
		},
		WrapTool: wrapTool,
	}, nil
}

// hookedCall marks a tool call the Hooks middleware runs through the hooks,
// so that a tool made with DefineTool or WrapTool does not run them a
// second time. Only the wrapped function of the tool the call names takes
// the mark, once: a tool of another name (a plain tool that Generates in
// turn, with a DefineTool tool inside) still runs its own hooks.
type hookedCall struct {
	name  string
	taken atomic.Bool
}

type hookedKey struct{}

// alreadyHooked reports whether ctx carries an untaken mark for the tool
// name, and takes it.
func alreadyHooked(ctx context.Context, name string) bool {
	h, ok := ctx.Value(hookedKey{}).(*hookedCall)
	return ok && h.name == name && h.taken.CompareAndSwap(false, true)
}

// wrapTool runs one tool call through the tool hooks. The hooks see the
// input genkit decoded, as JSON; arguments a hook rewrote are given to the
// tool as JSON values (genkit decodes them into its input type). Only the
// tool's Output goes through the hooks: a multipart tool's extra Content
// goes to the model only when the hooks left the result as it was.
func wrapTool(ctx context.Context, p *ai.ToolParams, next ai.ToolNext) (*ai.MultipartToolResponse, error) {
	if p == nil || p.Request == nil {
		return nil, fmt.Errorf("hooks/genkit: tool: genkit gave no request")
	}
	name := p.Request.Name
	run, ok := hooks.RunFromContext(ctx)
	if !ok {
		return nil, fmt.Errorf("hooks/genkit: tool %q: %w", name, ErrNoRun)
	}
	raw, err := json.Marshal(p.Request.Input)
	if err != nil {
		return nil, fmt.Errorf("hooks/genkit: tool %q: its input does not encode as JSON: %w", name, err)
	}
	args := adapt.ParseArguments(raw)
	var out result
	var got *ai.MultipartToolResponse
	res, err := run.CallTool(ctx, hooks.ToolCall{ID: p.Request.Ref, Name: name, Arguments: args.Map()},
		func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
			given, refusal, err := args.ForTool(c, call)
			if err != nil {
				return hooks.ToolResult{}, fmt.Errorf("hooks/genkit: %w", err)
			}
			if refusal != nil {
				return *refusal, nil
			}
			params := p
			if string(given) != string(raw) {
				var input any
				if err := json.Unmarshal(given, &input); err != nil {
					return hooks.ToolResult{}, fmt.Errorf("hooks/genkit: tool %q: the hooks' arguments: %w", name, err)
				}
				req := *p.Request
				req.Input = input
				params = &ai.ToolParams{Request: &req, Tool: p.Tool}
			}
			if got, err = next(context.WithValue(c.Context, hookedKey{}, &hookedCall{name: name}), params); err != nil {
				return hooks.ToolResult{}, err
			}
			if got == nil {
				got = &ai.MultipartToolResponse{}
			}
			if out, err = newResult(got.Output); err != nil {
				return hooks.ToolResult{}, fmt.Errorf("hooks/genkit: tool %q: %w", name, err)
			}
			return out.toolResult(), nil
		})
	if err != nil {
		return nil, err
	}
	output, err := out.output(res)
	if err != nil {
		return nil, err
	}
	resp := &ai.MultipartToolResponse{Output: output}
	if got != nil && out.ran && res.Text == out.text && reflect.DeepEqual(res.Value, out.json) {
		resp.Content, resp.Metadata = got.Content, got.Metadata
	}
	return resp, nil
}
