package hooktest

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rienda/hooks"
)

// asModelSends returns call with its arguments as a model sends them:
// through JSON, so that numbers are float64 and slices []any (see the
// package doc). An argument JSON cannot carry is an error that names it.
func asModelSends(call hooks.ToolCall) (hooks.ToolCall, error) {
	args, err := jsonArguments(call.Arguments)
	if err != nil {
		return call, fmt.Errorf("tool call %s: %w", call.Name, err)
	}
	call.Arguments = args
	return call, nil
}

// replyAsModelSends is asModelSends for each tool call of a reply; the
// caller's slice is not changed.
func replyAsModelSends(reply hooks.ModelResponse) (hooks.ModelResponse, error) {
	if len(reply.ToolCalls) == 0 {
		return reply, nil
	}
	calls := make([]hooks.ToolCall, len(reply.ToolCalls))
	for i, call := range reply.ToolCalls {
		var err error
		if calls[i], err = asModelSends(call); err != nil {
			return reply, err
		}
	}
	reply.ToolCalls = calls
	return reply, nil
}

// jsonArguments round-trips args through JSON. Nil stays nil (a call
// without arguments), and {} stays {}.
func jsonArguments(args map[string]any) (map[string]any, error) {
	if args == nil {
		return nil, nil
	}
	data, err := json.Marshal(args)
	if err != nil {
		// json's message does not say where the value was: find the argument.
		for _, k := range slices.Sorted(maps.Keys(args)) {
			if _, err := json.Marshal(args[k]); err != nil {
				return nil, fmt.Errorf("argument %q cannot be sent as JSON, as a model sends arguments: %v", k, err)
			}
		}
		return nil, fmt.Errorf("the arguments cannot be sent as JSON, as a model sends them: %v", err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("the arguments do not read back from JSON: %v", err)
	}
	return out, nil
}

// argsText writes arguments for a person: their JSON, or "no arguments"
// for none (rather than null or {}).
func argsText(args map[string]any) string {
	if len(args) == 0 {
		return "no arguments"
	}
	return jsonText(args)
}

// count says "1 diagnostic", "2 diagnostics".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// listDiagnostics lists ds one a line, each line starting with a newline
// and indent; "" for none.
func listDiagnostics(ds []hooks.Diagnostic, indent string) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString("\n" + indent + d.String())
	}
	return b.String()
}

func jsonText(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}

// sameJSON compares two values as their JSON.
func sameJSON(a, b any) bool {
	norm := func(v any) string {
		var x any
		data, _ := json.Marshal(v)
		_ = json.Unmarshal(data, &x)
		out, _ := json.Marshal(x)
		return string(out)
	}
	return norm(a) == norm(b)
}

// sameArguments compares arguments as JSON, no arguments and {} alike.
func sameArguments(a, b map[string]any) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	return sameJSON(a, b)
}
