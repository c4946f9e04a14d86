package genkit

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/firebase/genkit/go/ai"
)

// ContinuedKey is the key, in the Metadata of a reply that followed a
// hook's Continue, of the exchange the Continue added (the reply it
// continued and the user message holding its text, in turn): genkit builds
// its next request from its own history, which has only the last reply,
// and the middleware puts the exchange back in front of that reply in
// every later call of the Generate, so that the model and the hooks see
// the conversation a host loop would have sent. The reply's
// Response.Request holds it too, so that ModelResponse.History shows it.
const ContinuedKey = "rienda.hooks.continued"

// withExchange returns out with the exchange inserted before it recorded
// in its message's Metadata and its Request.
func withExchange(out *ai.ModelResponse, req *ai.ModelRequest, inserted []*ai.Message) *ai.ModelResponse {
	cp := *out
	msg := ai.Message{Role: ai.RoleModel}
	if out.Message != nil {
		msg = *out.Message
	}
	meta := make(map[string]any, len(msg.Metadata)+1)
	for k, v := range msg.Metadata {
		meta[k] = v
	}
	meta[ContinuedKey] = slices.Clone(inserted)
	msg.Metadata = meta
	cp.Message = &msg
	r := *req
	cp.Request = &r
	return &cp
}

// restoreExchanges puts the exchanges recorded under ContinuedKey back in
// front of the replies that carry them. The record survives genkit's
// copies of its history (JSON round trips) as JSON values.
func restoreExchanges(msgs []*ai.Message) ([]*ai.Message, error) {
	var out []*ai.Message
	for i, m := range msgs {
		v, ok := m.Metadata[ContinuedKey]
		if !ok || m == nil {
			if out != nil {
				out = append(out, m)
			}
			continue
		}
		ex, err := exchange(v)
		if err != nil {
			return nil, fmt.Errorf("hooks/genkit: message %d: Metadata[%q]: %w", i, ContinuedKey, err)
		}
		if out == nil {
			out = append(make([]*ai.Message, 0, len(msgs)+len(ex)), msgs[:i]...)
		}
		out = append(append(out, ex...), m)
	}
	if out == nil {
		return msgs, nil
	}
	return out, nil
}

func exchange(v any) ([]*ai.Message, error) {
	if ex, ok := v.([]*ai.Message); ok {
		return ex, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var ex []*ai.Message
	if err := json.Unmarshal(b, &ex); err != nil {
		return nil, fmt.Errorf("not a list of messages: %w", err)
	}
	return ex, nil
}
