package claudecode

import (
	"fmt"

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
