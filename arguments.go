package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// InvalidArgumentsKey is the one key of the arguments ParseArguments
// returns for text that is not a JSON object: its value is the text as the
// model wrote it.
const InvalidArgumentsKey = "_invalid_json"

// ParseArguments decodes a tool call's arguments as a model sent them (the
// raw JSON of OpenAI's function.arguments, Anthropic's input, MCP's
// arguments).
//
// A JSON object decodes as encoding/json does (numbers as float64). Empty
// text, blanks and null are no arguments: an empty map and no error.
// Anything else (broken JSON, an array, a string) is an error, and the
// arguments are still not empty: they hold the text under
// InvalidArgumentsKey, so that a guard checking a key sees no value it
// could take for safe, and a hook (or the host, on the error) can refuse
// the call with the model's own text in the reason. Never pass an empty map
// on an error: a guard would let it through.
func ParseArguments(raw []byte) (map[string]any, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return map[string]any{}, nil
	}
	var args map[string]any
	err := json.Unmarshal(trimmed, &args)
	if err == nil { // a non-null object: null was handled above
		return args, nil
	}
	if _, isType := err.(*json.UnmarshalTypeError); isType {
		err = fmt.Errorf("not a JSON object")
	}
	return map[string]any{InvalidArgumentsKey: string(raw)},
		fmt.Errorf("hooks: tool arguments are not a JSON object: %w", err)
}
