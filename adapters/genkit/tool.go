package genkit

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// DefineTool defines a genkit tool (genkit.DefineTool) whose calls go
// through the BeforeToolExecute and AfterToolExecute hooks of the run in
// their context. Its output is any: a refusal reaches the model as the
// reason's text, where the tool's own output would have been.
func DefineTool[In, Out any](g *genkit.Genkit, name, description string, fn ai.ToolFunc[In, Out], opts ...ai.ToolOption) *ai.ToolDef[In, any] {
	return genkit.DefineTool(g, name, description, WrapTool(name, fn), opts...)
}

// NewTool is DefineTool for a tool passed to one Generate (ai.NewTool),
// not registered.
func NewTool[In, Out any](name, description string, fn ai.ToolFunc[In, Out], opts ...ai.ToolOption) *ai.ToolDef[In, any] {
	return ai.NewTool(name, description, WrapTool(name, fn), opts...)
}

// WrapTool returns fn with its calls going through the hooks, for a tool
// defined by other means; name must be the name the tool is defined with
// (genkit does not tell a tool's function its name).
//
// The hooks see the input fn would get, encoded as JSON, as the call's
// arguments. An input that is not a JSON object (a tool of a string)
// cannot be read by a guard: the tool does not run, and the model reads
// why, unless a hook replaced the arguments. Arguments a hook rewrote are
// decoded into a new In; unchanged, fn gets genkit's own value.
func WrapTool[In, Out any](name string, fn ai.ToolFunc[In, Out]) ai.ToolFunc[In, any] {
	return func(tc *ai.ToolContext, input In) (any, error) {
		if alreadyHooked(tc, name) { // the Hooks middleware ran this call through the hooks
			return fn(tc, input)
		}
		run, ok := hooks.RunFromContext(tc)
		if !ok {
			return nil, fmt.Errorf("hooks/genkit: tool %q: %w", name, ErrNoRun)
		}
		raw, err := json.Marshal(input)
		if err != nil {
			return nil, fmt.Errorf("hooks/genkit: tool %q: its input does not encode as JSON: %w", name, err)
		}
		args := adapt.ParseArguments(raw)
		var out result // what the tool returned; zero when it did not run
		id := takeCallID[In](run, name, raw)
		res, err := run.CallTool(tc, hooks.ToolCall{ID: id, Name: name, Arguments: args.Map()},
			func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
				given, refusal, err := args.ForTool(c, call)
				if err != nil {
					return hooks.ToolResult{}, fmt.Errorf("hooks/genkit: %w", err)
				}
				if refusal != nil {
					return *refusal, nil
				}
				in := input
				if string(given) != string(raw) {
					var fresh In
					if err := json.Unmarshal(given, &fresh); err != nil {
						return hooks.ToolResult{}, fmt.Errorf("hooks/genkit: tool %q: the hooks' arguments do not decode into %T: %w", name, fresh, err)
					}
					in = fresh
				}
				o, err := fn(tc, in)
				if err != nil {
					return hooks.ToolResult{}, err
				}
				if out, err = newResult(o); err != nil {
					return hooks.ToolResult{}, fmt.Errorf("hooks/genkit: tool %q: %w", name, err)
				}
				return out.toolResult(), nil
			})
		if err != nil {
			return nil, err
		}
		return out.output(res)
	}
}

// result is a tool's output and what the hooks were shown of it.
type result struct {
	ran   bool
	value any    // the tool's output as it returned it
	text  string // as the hooks read it: a string as it is, else its JSON
	json  any    // a non-string output decoded as JSON types (the hooks' Value)
}

func newResult(o any) (result, error) {
	r := result{ran: true, value: o}
	if s, ok := o.(string); ok {
		r.text = s
		return r, nil
	}
	b, err := json.Marshal(o)
	if err != nil {
		return r, fmt.Errorf("its output does not encode as JSON: %w", err)
	}
	r.text = string(b)
	if err := json.Unmarshal(b, &r.json); err != nil {
		return r, fmt.Errorf("its output does not decode as JSON: %w", err)
	}
	return r, nil
}

// toolResult is the result as the after-hooks read it: Text, and Value
// for an output that is not a string.
func (r result) toolResult() hooks.ToolResult {
	return hooks.ToolResult{Text: r.text, Value: r.json}
}

// output is what genkit sends the model for res, the result the hooks
// left: the tool's own output when they changed nothing; a Value they
// changed; else a Text they changed (decoded when the output was JSON and
// the text still is, so that a structured output stays structured). A
// result the tool did not give (a refusal, a hook's answer) is its Value,
// or else its Text.
func (r result) output(res hooks.ToolResult) (any, error) {
	if !r.ran {
		if res.Value != nil {
			return res.Value, nil
		}
		return res.Text, nil
	}
	if res.Value != nil && !reflect.DeepEqual(res.Value, r.json) {
		return res.Value, nil
	}
	if res.Text == r.text {
		return r.value, nil
	}
	if r.json != nil {
		var v any
		if json.Unmarshal([]byte(res.Text), &v) == nil {
			return v, nil
		}
	}
	return res.Text, nil
}
