package adapt

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/rienda/hooks"
)

// Lookup finds a tool of a loop by name: in tools (functions of the
// arguments, given the call's context.Context) or in handlers (given the
// call's *hooks.Context and the call: ID, name, arguments).
func Lookup[T ~func(context.Context, json.RawMessage) (hooks.ToolResult, error),
	C ~struct {
		ID        string
		Name      string
		Arguments json.RawMessage
	},
	H ~func(*hooks.Context, C) (hooks.ToolResult, error)](tools map[string]T, handlers map[string]H) func(string) (ToolRunner, bool) {
	return func(name string) (ToolRunner, bool) {
		if t, ok := tools[name]; ok {
			return func(c *hooks.Context, _ string, args json.RawMessage) (hooks.ToolResult, error) {
				return t(c.Context, args) // c.Context, never c: the tool may keep it
			}, true
		}
		if h, ok := handlers[name]; ok {
			return func(c *hooks.Context, id string, args json.RawMessage) (hooks.ToolResult, error) {
				return h(c, C{ID: id, Name: name, Arguments: args})
			}, true
		}
		return nil, false
	}
}

// CheckTools says which name is both a tool and a handler, or which tool
// offered to the model (by name) has neither: the model could call it and
// nothing would run it.
func CheckTools[T, H any](adapter string, tools map[string]T, handlers map[string]H, offered []string) error {
	for name := range handlers {
		if _, ok := tools[name]; ok {
			return fmt.Errorf("%s: tool %q is in both Loop.Tools and Loop.Handlers", adapter, name)
		}
	}
	for _, name := range offered {
		_, isTool := tools[name]
		_, isHandler := handlers[name]
		if !isTool && !isHandler {
			return fmt.Errorf("%s: params.Tools offers %q, which neither Loop.Tools nor Loop.Handlers has", adapter, name)
		}
	}
	return nil
}
