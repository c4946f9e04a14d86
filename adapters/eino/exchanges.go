package eino

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/cloudwego/eino/schema"
)

// ContinuedKey is the key, in the Extra of the reply eino receives after a
// hook's Continue, of the messages the Continue added before that reply
// (the earlier reply and the user message with the Continue text, as a
// JSON array of schema.Message). eino's history keeps only the last reply;
// the model wrapper puts the exchange back in front of it in every later
// call, so that the model and the hooks see the conversation a host loop
// would have sent. Extra travels with the message through eino's streams
// and its agent state.
const ContinuedKey = "rienda_hooks_continued"

// withExchange returns a copy of reply carrying inserted under ContinuedKey.
func withExchange(reply *schema.Message, inserted []*schema.Message) (*schema.Message, error) {
	raw, err := json.Marshal(inserted)
	if err != nil {
		return nil, fmt.Errorf("hooks/eino: chat model: encoding a Continue's messages: %w", err)
	}
	c := *reply
	c.Extra = maps.Clone(reply.Extra)
	if c.Extra == nil {
		c.Extra = make(map[string]any, 1)
	}
	c.Extra[ContinuedKey] = string(raw)
	return &c, nil
}

// restoreExchanges returns input with the exchanges its messages carry put
// back in front of them: input itself when none carries one.
func restoreExchanges(input []*schema.Message) ([]*schema.Message, error) {
	var out []*schema.Message
	for i, m := range input {
		var v any
		ok := false
		if m != nil {
			v, ok = m.Extra[ContinuedKey]
		}
		if !ok {
			if out != nil {
				out = append(out, m)
			}
			continue
		}
		inserted, err := decodeExchange(v)
		if err != nil {
			return nil, fmt.Errorf("hooks/eino: chat model: message %d: %w", i, err)
		}
		if out == nil {
			out = append(make([]*schema.Message, 0, len(input)+len(inserted)), input[:i]...)
		}
		out = append(out, inserted...)
		out = append(out, m)
	}
	if out == nil {
		return input, nil
	}
	return out, nil
}

func decodeExchange(v any) ([]*schema.Message, error) {
	text, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("the Extra key %q holds a %T, not the JSON text of messages", ContinuedKey, v)
	}
	var inserted []*schema.Message
	if err := json.Unmarshal([]byte(text), &inserted); err != nil {
		return nil, fmt.Errorf("the Extra key %q: %w", ContinuedKey, err)
	}
	return inserted, nil
}
