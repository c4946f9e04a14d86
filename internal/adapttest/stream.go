package adapttest

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/require"
)

// Secret is an API key that must reach no chunk.
const Secret = "sk-live-0123456789abcdefghijABCDEF"

// KeyPattern matches keys of Secret's shape.
var KeyPattern = regexp.MustCompile(`sk-live-[A-Za-z0-9]{26}`)

// Redactor redacts keys of Secret's shape in the stream (holding back
// enough to see a whole key) and in the reply.
type Redactor struct{}

// Name is the hook's name.
func (Redactor) Name() string { return "redact" }

// HoldBack keeps back one byte less than a key.
func (Redactor) HoldBack() int { return len(Secret) - 1 }

// StreamText redacts the text the stream lets through.
func (Redactor) StreamText(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
	out := KeyPattern.ReplaceAllString(text, "[REDACTED]")
	return &hooks.StreamPatch{Text: &out}, nil
}

// AfterModelResponse redacts the reply.
func (Redactor) AfterModelResponse(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	out := KeyPattern.ReplaceAllString(resp.Text, "[REDACTED]")
	return &hooks.ModelResponsePatch{Text: &out}, nil
}

// Received is what a deliver function got. Make it with NewReceived.
type Received struct {
	mu     sync.Mutex
	chunks []hooks.Chunk
	text   strings.Builder
	// First (made by NewReceived) is closed on the first text chunk: a
	// test waits on it to see
	// chunk arrive while the stream is still open.
	First chan struct{}
}

// NewReceived is an empty Received.
func NewReceived() *Received { return &Received{First: make(chan struct{})} }

// Deliver records ch; it is the deliver function of a streamed call.
func (r *Received) Deliver(ch hooks.Chunk) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ch.Text != "" && r.text.Len() == 0 && r.First != nil {
		close(r.First)
	}
	r.chunks = append(r.chunks, ch)
	r.text.WriteString(ch.Text)
	return nil
}

// Chunks are the chunks delivered so far.
func (r *Received) Chunks() []hooks.Chunk {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hooks.Chunk(nil), r.chunks...)
}

// Text is the text delivered so far.
func (r *Received) Text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.text.String()
}

// StartRun starts a run of a chain of hs; a diagnostic fails the test.
func StartRun(t *testing.T, hs ...hooks.Hook) *hooks.Run {
	t.Helper()
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(func(d hooks.Diagnostic) { t.Errorf("diagnostic: %s at %s: %v", d.Hook, d.Point, d.Err) }))
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{Input: "test"})
	require.NoError(t, err)
	return run
}

// Split cuts s into pieces of n bytes.
func Split(s string, n int) []string {
	var out []string
	for i := 0; i < len(s); i += n {
		out = append(out, s[i:min(i+n, len(s))])
	}
	return out
}
