package claudecode

import (
	"fmt"
	"maps"
	"slices"

	"github.com/rienda/hooks"
)

// maxArguments is the most JSON a call's arguments may take to be sent to
// a handler (as for the root package's command hooks): they are never
// cut, so a larger call is one the handler cannot see.
const maxArguments = 8 << 20

// encodeArguments is hooks.EncodeArguments within the bound a handler is
// sent.
func encodeArguments(args map[string]any) (string, error) {
	text, err := hooks.EncodeArguments(args)
	if err != nil {
		return "", fmt.Errorf("the arguments cannot be sent as JSON, so the hook cannot see the call: %w", err)
	}
	if len(text) > maxArguments {
		return "", fmt.Errorf("the arguments take %d bytes of JSON, more than the %d (8 MiB) a hook is sent; they are never cut, so the hook cannot see the call",
			len(text), maxArguments)
	}
	return text, nil
}

// twoSpellings names the first argument that args hold under two keys a
// tool's decoder may read as one ("command" and "Command",
// hooks.ArgumentName): a Claude Code hook reads tool_input by exact
// names, so it would judge one of them while the tool may run the
// other. "" when there is none.
func twoSpellings(args map[string]any) string {
	seen := make(map[string]string, len(args))
	for _, k := range slices.Sorted(maps.Keys(args)) {
		name := hooks.ArgumentName(k)
		if first, ok := seen[name]; ok {
			return fmt.Sprintf("%q and %q", first, k)
		}
		seen[name] = k
	}
	return ""
}

// refuseTwoSpellings is the refusal of a call whose arguments a hook
// cannot judge as the tool reads them (twoSpellings), or nil.
func refuseTwoSpellings(name string, args map[string]any) *hooks.ToolCallPatch {
	if keys := twoSpellings(args); keys != "" {
		return hooks.Refuse("This " + name + " call holds one argument under two names (" + keys +
			"): Claude Code hooks read only one of them, so it was not run; send each argument once")
	}
	return nil
}
