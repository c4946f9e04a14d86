// Package adapt holds what every framework adapter under adapters/ must
// decide the same way: which arguments a tool reads, the IDs of tool calls
// a hook made, how a tool result the hooks changed maps back, and the
// tool-calling loop of the model SDK adapters. One place decides, so that
// a fix reaches every adapter at once.
package adapt

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/rienda/hooks"
)

// Arguments are a tool call's arguments as the client or model sent them,
// decoded once for the hooks.
type Arguments struct {
	raw    []byte         // as sent; nil: no text (a call a hook made)
	parsed map[string]any // what the hooks are shown
	err    error          // why hooks.ParseArguments refused raw
}

// ParseArguments decodes raw (the arguments' JSON as sent) with
// hooks.ParseArguments. Map is what the hooks must be shown: the decoded
// object, or the text under hooks.InvalidArgumentsKey when it was refused.
func ParseArguments(raw []byte) Arguments {
	parsed, err := hooks.ParseArguments(raw)
	if raw == nil {
		raw = []byte{} // sent, and empty: no arguments, still the client's text
	}
	return Arguments{raw: raw, parsed: parsed, err: err}
}

// Map is the arguments as the hooks see them.
func (a Arguments) Map() map[string]any { return a.parsed }

// Err is why hooks.ParseArguments refused the text, or nil.
func (a Arguments) Err() error { return a.err }

// ForTool decides, inside a hooks.ToolFunc, what JSON the tool reads for
// call (the call as the hooks left it; c is the ToolFunc's context). The
// rule, the same for every adapter:
//
//   - text ParseArguments refused never reaches the tool: refusal is the
//     error result the model reads, naming the problem (a repeated key,
//     keys differing only in case, text that is not an object), unless a
//     hook replaced the refused text with arguments of its own;
//   - the text as sent reaches the tool only when it decodes to exactly the
//     arguments the hooks saw and left, so that numbers past float64's
//     precision arrive as written;
//   - otherwise (a hook rewrote the arguments, or the call has no text) the
//     tool reads the hooks' arguments, encoded.
//
// err is an encoding failure of arguments a hook wrote.
func (a Arguments) ForTool(c *hooks.Context, call hooks.ToolCall) (args json.RawMessage, refusal *hooks.ToolResult, err error) {
	if a.err != nil && (!c.Rewritten() || keepsRefused(call.Arguments, a.raw)) {
		return nil, Refusal(call.Name, a.err), nil
	}
	if a.raw != nil && a.err == nil && !c.Rewritten() && reflect.DeepEqual(a.parsed, call.Arguments) {
		return a.raw, nil, nil
	}
	args, err = EncodeArguments(call.Arguments)
	if err != nil {
		return nil, nil, fmt.Errorf("arguments of tool %q: %w", call.Name, err)
	}
	return args, nil, nil
}

// Refusal is the error result the model reads for a call whose arguments
// were refused with err.
func Refusal(tool string, err error) *hooks.ToolResult {
	return &hooks.ToolResult{IsError: true,
		Text: fmt.Sprintf("tool %q was not run: its arguments were refused: %v", tool, err)}
}

// keepsRefused reports whether args still carry the refused text raw
// under hooks.InvalidArgumentsKey: a hook added to them rather than
// replacing them, and the tool would read the model's refused text.
func keepsRefused(args map[string]any, raw []byte) bool {
	s, ok := args[hooks.InvalidArgumentsKey].(string)
	return ok && s == string(raw)
}

// EncodeArguments encodes a call's arguments as a JSON object; no
// arguments are {}.
func EncodeArguments(args map[string]any) (json.RawMessage, error) {
	if args == nil {
		return json.RawMessage("{}"), nil
	}
	b, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("do not encode as JSON: %w", err)
	}
	return b, nil
}
