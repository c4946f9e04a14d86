package hooks_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/rienda/hooks"
)

// BenchmarkStreamModel streams replies of 100 and 10,000 chunks, without
// stream hooks and through a redaction hook that holds back a key's
// length: the cost per chunk must not grow with the reply (no copy of the
// whole reply per chunk). ns/chunk and allocs/chunk are the figures to
// compare; a plain CallModel of the same reply is the baseline.
func BenchmarkStreamModel(b *testing.B) {
	for _, hs := range []struct {
		name  string
		hooks []hooks.Hook
	}{
		{"hooks=none", nil},
		{"hooks=redact", []hooks.Hook{redactor{name: "redact"}}},
	} {
		for _, n := range []int{100, 10000} {
			b.Run(fmt.Sprintf("%s/chunks=%d", hs.name, n), func(b *testing.B) {
				chain, err := hooks.NewChain(hs.hooks)
				if err != nil {
					b.Fatal(err)
				}
				ctx := context.Background()
				run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{RunID: "bench"})
				if err != nil {
					b.Fatal(err)
				}
				open := func(_ *hooks.Context, _ hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
					for range n {
						if err := yield(hooks.Chunk{Text: "a token "}); err != nil {
							return hooks.ModelResponse{}, err
						}
					}
					return hooks.ModelResponse{}, nil
				}
				deliver := func(hooks.Chunk) error { return nil }
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if _, err := run.StreamModel(ctx, hooks.ModelRequest{}, open, deliver); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/chunk")
			})
		}
	}
}
