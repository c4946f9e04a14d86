// Command streaming streams a scripted model's reply through hooks and
// prints each chunk as the caller receives it: the model's reply holds an
// API key, cut across chunk boundaries, and a redaction stream hook keeps
// every piece of it out of every chunk, while the tokens before and after
// it flow as they come. A second hook ends the stream when the model
// starts to recite the key's owner, so the provider's stream is closed and
// nothing after it is delivered. No network, no keys.
//
//	go run ./examples/streaming
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/rienda/hooks"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "streaming:", err)
		os.Exit(1)
	}
}

// script is what the scripted model streams, in chunks of 5 bytes: the key
// is cut in eight pieces.
const script = "Sure. Set OPENAI_API_KEY=sk-live-0123456789abcdefghijABCDEF in your shell, then run it. " +
	"The key belongs to Alice. Her password is hunter2, and it is on a sticky note under her keyboard."

var key = regexp.MustCompile(`sk-live-[A-Za-z0-9]{26}`)

// redact is a stream hook: it holds back the length of a key minus one
// rune, so a key is whole when it decides, and redacts it in the stream
// and in the recorded reply.
type redact struct{}

func (redact) Name() string  { return "redact" }
func (redact) HoldBack() int { return len("sk-live-") + 26 - 1 }

func (redact) StreamText(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
	if !key.MatchString(text) {
		return nil, nil
	}
	out := key.ReplaceAllString(text, "[REDACTED]")
	return &hooks.StreamPatch{Text: &out}, nil
}

func (redact) AfterModelResponse(_ *hooks.Context, r hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	out := key.ReplaceAllString(r.Text, "[REDACTED]")
	return &hooks.ModelResponsePatch{Text: &out}, nil
}

// guard ends the stream before a sentence that gives a password away.
type guard struct{}

func (guard) Name() string  { return "guard" }
func (guard) HoldBack() int { return len("Her password") - 1 } // the phrase is whole when it decides

func (guard) StreamText(_ *hooks.Context, text string, _ bool) (*hooks.StreamPatch, error) {
	i := strings.Index(text, "Her password")
	if i < 0 {
		return nil, nil
	}
	kept := text[:i]
	return &hooks.StreamPatch{Text: &kept, End: &hooks.End{Output: "stopped: the reply gave a password away"}}, nil
}

func run(ctx context.Context, out io.Writer) error {
	chain, err := hooks.NewChain([]hooks.Hook{redact{}, guard{}})
	if err != nil {
		return err
	}
	r, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{Input: "how do I set my key?"})
	if err != nil {
		return err
	}
	read := 0 // bytes of the reply the model has streamed
	model := func(c *hooks.Context, _ hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		for read < len(script) {
			if c.Err() != nil { // a real SDK stream ends by itself here
				return hooks.ModelResponse{}, c.Err()
			}
			chunk := script[read:min(read+5, len(script))]
			read += len(chunk)
			if err := yield(hooks.Chunk{Text: chunk}); err != nil {
				return hooks.ModelResponse{}, err
			}
		}
		return hooks.ModelResponse{Text: script, StopReason: hooks.StopEndTurn}, nil
	}
	n := 0
	deliver := func(ch hooks.Chunk) error {
		n++
		_, err := fmt.Fprintf(out, "chunk %2d (model at byte %3d): %q\n", n, read, ch.Text)
		return err
	}
	reply, err := r.StreamModel(ctx, hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "how do I set my key?"}}}, model, deliver)
	r.End(ctx, hooks.RunEnd{Output: reply.Response.Text, Err: err})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "recorded reply:  %q\n", reply.Response.Text)
	if reply.End != nil {
		fmt.Fprintf(out, "run ended:       %s (the model's stream was closed at byte %d of %d)\n", reply.End.Output, read, len(script))
	}
	return nil
}
