package eino

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/rienda/hooks"
)

// arrayModel answers with its chunks: Generate concatenated, Stream one
// by one from an array (no goroutine), so that a benchmark measures the
// wrapper, not the model.
type arrayModel struct{ chunks []*schema.Message }

func (m arrayModel) Generate(context.Context, []*schema.Message, ...model.Option) (*schema.Message, error) {
	return schema.ConcatMessages(m.chunks)
}

func (m arrayModel) Stream(context.Context, []*schema.Message, ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	return schema.StreamReaderFromArray(m.chunks), nil
}

func (m arrayModel) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) { return m, nil }

// drain reads sr to its end and concatenates it, as eino's agent does.
func drain(b *testing.B, sr *schema.StreamReader[*schema.Message]) {
	defer sr.Close()
	var got []*schema.Message
	for {
		m, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		got = append(got, m)
	}
	if _, err := schema.ConcatMessages(got); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkModelCall is one model call of a 40-chunk reply, Generate and
// Stream, each bare (the model alone) and through ChatModel with one no-op
// hook (and, streamed, with a redaction stream hook): the difference is
// the wrapper's per-call overhead.
func BenchmarkModelCall(b *testing.B) {
	inner := arrayModel{chunks: texts(strings.Split(strings.Repeat("token ", 40), " ")...)}
	input := []*schema.Message{schema.UserMessage("hi")}
	noop := hooks.Funcs{HookName: "noop",
		BeforeModelRequest: func(*hooks.Context, hooks.ModelRequest) (*hooks.ModelRequestPatch, error) { return nil, nil },
		AfterModelResponse: func(*hooks.Context, hooks.ModelResponse) (*hooks.ModelResponsePatch, error) { return nil, nil }}
	hooked := func(b *testing.B, hs ...hooks.Hook) context.Context {
		chain, err := hooks.NewChain(hs)
		if err != nil {
			b.Fatal(err)
		}
		run, err := chain.Start(context.Background(), hooks.Host{Env: map[string]string{}}, hooks.RunStart{})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { run.End(context.Background(), hooks.RunEnd{}) })
		return hooks.ContextWithRun(context.Background(), run)
	}
	b.Run("generate/bare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := inner.Generate(context.Background(), input); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("generate/hooks", func(b *testing.B) {
		ctx, m := hooked(b, noop), WrapModel(inner)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := m.Generate(ctx, input); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("stream/bare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sr, err := inner.Stream(context.Background(), input)
			if err != nil {
				b.Fatal(err)
			}
			drain(b, sr)
		}
	})
	for _, tc := range []struct {
		name string
		hs   []hooks.Hook
	}{{"stream/hooks", []hooks.Hook{noop}}, {"stream/hooks+redact", []hooks.Hook{noop, redactor{}}}} {
		b.Run(tc.name, func(b *testing.B) {
			ctx, m := hooked(b, tc.hs...), WrapModel(inner)
			b.ReportAllocs()
			for b.Loop() {
				sr, err := m.stream(ctx, input)
				if err != nil {
					b.Fatal(err)
				}
				drain(b, sr)
			}
		})
	}
}
