package hooks

import (
	"fmt"
	"reflect"
	"slices"
)

// Message is one message of the conversation.
//
// Role is "system", "user", "assistant" or "tool". An assistant message
// carries the ToolCalls it asked for; a tool message carries ToolCallID,
// the ID of the call it answers. ID is the host's name for the message
// (any string, often empty): hooks may use it to find a message again.
//
// A host that converts its framework's messages keeps each one's own value
// with [Message.WithRaw], so that messages no hook changed reach the model
// exactly as the framework had them (images, cache marks and all) and are
// never serialized: see [RebuildMessages]. Hooks that insert, remove or
// reorder messages copy them, which keeps the value with them. The value
// may be a piece of a framework message (one of the tool results an
// Anthropic message holds): the host then regroups the pieces
// RebuildMessages gives back.
type Message struct {
	Role       string     `json:"role"`
	Text       string     `json:"text"`
	ID         string     `json:"id,omitempty"`
	ToolCalls  []ToolCall `json:"toolCalls,omitempty"`
	ToolCallID string     `json:"toolCallId,omitempty"`

	raw *rawMessage // what WithRaw kept; nil for a message built by a hook
}

// rawMessage is a framework's own message and what the Message said when
// it was made from it.
type rawMessage struct {
	value any
	was   Message // raw is nil here
}

// WithRaw returns m carrying raw, the framework's own message m was made
// from. [Message.Raw] gives raw back for as long as the message still says
// what it says now.
func (m Message) WithRaw(raw any) Message {
	was := m
	was.raw = nil
	was.ToolCalls = slices.Clone(m.ToolCalls)
	m.raw = &rawMessage{value: raw, was: was}
	return m
}

// Raw returns the framework's message m was made from (see WithRaw), and
// whether m still says exactly what it said then, so that raw may be sent
// in its place. A message no host value was kept for returns nil, false.
func (m Message) Raw() (raw any, unchanged bool) {
	if m.raw == nil {
		return nil, false
	}
	now := m
	now.raw = nil
	return m.raw.value, sameMessage(now, m.raw.was)
}

// sameMessage compares two messages field by field; arguments are
// compared as values, so a hook that rebuilt an equal map changed nothing.
func sameMessage(a, b Message) bool {
	if a.Role != b.Role || a.Text != b.Text || a.ID != b.ID || a.ToolCallID != b.ToolCallID ||
		len(a.ToolCalls) != len(b.ToolCalls) {
		return false
	}
	for i := range a.ToolCalls {
		x, y := a.ToolCalls[i], b.ToolCalls[i]
		if x.ID != y.ID || x.Name != y.Name || !reflect.DeepEqual(x.Arguments, y.Arguments) {
			return false
		}
	}
	return true
}

// RebuildMessages turns the messages the hooks left (a ModelStep's
// Request.Messages) back into a framework's messages: a message whose
// framework value is unchanged (see [Message.Raw]) and of type T is used as
// it is; build makes every other one (one a hook wrote, inserted or
// changed). Order, insertions and removals are the hooks'. An error from
// build names the message's index.
func RebuildMessages[T any](msgs []Message, build func(Message) (T, error)) ([]T, error) {
	out := make([]T, 0, len(msgs))
	for i, m := range msgs {
		if raw, ok := m.Raw(); ok {
			if v, ok := raw.(T); ok {
				out = append(out, v)
				continue
			}
		}
		v, err := build(m)
		if err != nil {
			return nil, fmt.Errorf("hooks: message %d (%s): %w", i, m.Role, err)
		}
		out = append(out, v)
	}
	return out, nil
}
