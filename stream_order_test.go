package hooks_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// appender is a stream hook that adds text of its own (a signature, a
// tool's echo) to the reply.
func appender(name, add string) streamHook {
	return streamHook{name: name, fn: func(_ *hooks.Context, text string, final bool) (*hooks.StreamPatch, error) {
		if !final {
			return nil, nil
		}
		out := text + add
		return &hooks.StreamPatch{Text: &out}, nil
	}}
}

// Stream hooks layer as the after-hooks do: the redactor listed first (as
// the docs advise) sees the final text, so the secret a later stream hook
// adds is redacted in the stream as in the reply.
func TestStreamHooksComposeLikeAfterHooks(t *testing.T) {
	rec := &recorder{}
	got, _, reply, err := stream(t, rec, []string{"hello "}, redactor{name: "redact"}, appender("sign", "key "+secret))
	require.NoError(t, err)
	assert.NotContains(t, got.text.String(), secret)
	assert.Equal(t, "hello key [REDACTED]", got.text.String())
	assert.Equal(t, "hello key [REDACTED]", reply.Response.Text)
}

// Under InListOrder the after-points run in list order, and so do the
// stream hooks: the last listed sees the final text.
func TestStreamHooksInListOrder(t *testing.T) {
	var order []string
	mark := func(name string) streamHook {
		return streamHook{name: name, fn: func(_ *hooks.Context, text string, final bool) (*hooks.StreamPatch, error) {
			if !final {
				return nil, nil
			}
			order = append(order, name)
			out := text + name
			return &hooks.StreamPatch{Text: &out}, nil
		}}
	}
	for name, tc := range map[string]struct {
		opts []hooks.Option
		want string
	}{
		"default":     {nil, "x" + "b" + "a"},
		"InListOrder": {[]hooks.Option{hooks.InListOrder()}, "x" + "a" + "b"},
	} {
		t.Run(name, func(t *testing.T) {
			order = nil
			run := startChain(t, &recorder{}, hooks.Host{}, tc.opts, mark("a"), mark("b"))
			var got caller
			src := &chunks{texts: []string{"x"}, got: &got.text}
			_, err := run.StreamModel(context.Background(), hooks.ModelRequest{}, src.open, got.deliver)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got.text.String())
			assert.Equal(t, strings.Split(tc.want[1:], ""), order)
		})
	}
}

// silentStream is a stream hook written as the docs once said: its
// Handles answers false for every point, its own included.
type silentStream struct{ redactor }

func (silentStream) Handles(hooks.Point) bool { return false }

// streamOnly is a stream hook whose Handles answers for its own point.
type streamOnly struct{ streamHook }

func (streamOnly) Handles(p hooks.Point) bool { return p == hooks.StreamModelText }

// A stream hook that would never run is refused, naming it; one whose
// Handles answers for the stream point runs.
func TestStreamHookThatHandlesNothingIsRefused(t *testing.T) {
	_, err := hooks.NewChain([]hooks.Hook{silentStream{redactor{name: "quiet-redact"}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"quiet-redact"`)
	assert.Contains(t, err.Error(), "would never run")
	_, err = hooks.NewChain([]hooks.Hook{hooks.WithPolicy(silentStream{redactor{name: "wrapped"}}, hooks.Block)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"wrapped"`)

	ran := false
	h := streamOnly{streamHook{name: "only", fn: func(*hooks.Context, string, bool) (*hooks.StreamPatch, error) {
		ran = true
		return nil, nil
	}}}
	_, _, _, err = stream(t, &recorder{}, []string{"x"}, h)
	require.NoError(t, err)
	assert.True(t, ran)
}

// ptrStream is a stream hook written with pointer receivers.
type ptrStream struct{ calls int }

func (*ptrStream) Name() string  { return "ptr-stream" }
func (*ptrStream) HoldBack() int { return 0 }
func (p *ptrStream) StreamText(*hooks.Context, string, bool) (*hooks.StreamPatch, error) {
	p.calls++
	return nil, nil
}

// ptrGuard has a value Name and AfterRun, and a pointer BeforeToolExecute.
type ptrGuard struct{}

func (ptrGuard) Name() string                                { return "ptr-guard" }
func (ptrGuard) AfterRun(*hooks.Context, hooks.RunEnd) error { return nil }
func (*ptrGuard) BeforeToolExecute(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	return hooks.Refuse("no"), nil
}

// valueNamed has a value Name and a pointer StreamText and HoldBack: by
// value it implements Hook only, by pointer StreamHook too.
type valueNamed struct{}

func (valueNamed) Name() string   { return "value-named" }
func (*valueNamed) HoldBack() int { return 0 }
func (*valueNamed) StreamText(*hooks.Context, string, bool) (*hooks.StreamPatch, error) {
	return nil, nil
}
func (valueNamed) AfterModelResponse(*hooks.Context, hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	return nil, nil
}

// A hook passed by value whose point methods have pointer receivers is
// refused, naming the hook and the methods and saying to pass a pointer;
// the pointer is accepted.
func TestHookWithPointerReceiversPassedByValueIsRefused(t *testing.T) {
	for name, tc := range map[string]struct {
		h    hooks.Hook
		want []string
	}{
		"guard":               {ptrGuard{}, []string{`"ptr-guard"`, "BeforeToolExecute", "pointer", "&ptrGuard{"}},
		"stream":              {valueNamed{}, []string{`"value-named"`, "HoldBack", "StreamText", "pass a pointer"}},
		"stream under policy": {hooks.WithPolicy(valueNamed{}, hooks.Block), []string{`"value-named"`, "StreamText"}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := hooks.NewChain([]hooks.Hook{tc.h})
			require.Error(t, err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
	_, err := hooks.NewChain([]hooks.Hook{&ptrGuard{}, &valueNamed{}, &ptrStream{}})
	require.NoError(t, err)
}
