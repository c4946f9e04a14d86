package prebuilt

import (
	"fmt"

	"github.com/rienda/hooks"
)

// HoldBack is how many runes of a streamed reply the redaction holds back
// (see stream.go): enough that a secret cut across chunks is never
// delivered in part.
func (h *redact) HoldBack() int { return streamHoldBack }

// StreamText redacts a streamed reply's text before the caller sees it. A
// secret under the Block strategy ends the stream: nothing more of the
// reply is delivered.
func (h *redact) StreamText(c *hooks.Context, text string, final bool) (*hooks.StreamPatch, error) {
	out, blocked := h.r.redactText(text, !final)
	if blocked != "" {
		empty := ""
		return &hooks.StreamPatch{Text: &empty, End: &hooks.End{Output: fmt.Sprintf("[reply withheld: it contained %s]", article(blocked))}}, nil
	}
	if out == text {
		return nil, nil
	}
	return &hooks.StreamPatch{Text: &out}, nil
}
