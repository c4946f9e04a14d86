package temporal

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rienda/hooks"
	"go.temporal.io/sdk/converter"
)

// benchRun is a run of n turns: a conversation of n messages, a hook
// state of n entries and n memo results, as a long run carries.
func benchRun(b *testing.B, n int) (*hooks.Chain, *hooks.Run, []hooks.Message) {
	text := strings.Repeat("a sentence of a conversation. ", 3)
	msgs := make([]hooks.Message, n)
	history := make([]any, n)
	for i := range n {
		msgs[i] = hooks.Message{Role: "user", Text: fmt.Sprintf("%d %s", i, text)}
		history[i] = map[string]any{"turn": float64(i), "note": text}
	}
	keeper := hooks.Funcs{HookName: "keeper",
		BeforeRun: func(c *hooks.Context, s hooks.RunStart) (*hooks.RunPatch, error) {
			for i := range n {
				if _, err := c.Memo(fmt.Sprint("k", i), func() (any, error) { return text, nil }); err != nil {
					return nil, err
				}
			}
			return &hooks.RunPatch{State: history}, nil
		},
	}
	chain, err := hooks.NewChain([]hooks.Hook{keeper})
	if err != nil {
		b.Fatal(err)
	}
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{RunID: "bench", Input: "go"})
	if err != nil {
		b.Fatal(err)
	}
	return chain, run, msgs
}

// BenchmarkHop is what one step of a durable run costs beyond its hooks:
// the run's snapshot, the step's input through Temporal's data converter
// and back, and the run made again from it.
func BenchmarkHop(b *testing.B) {
	dc := converter.GetDefaultDataConverter()
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("size=%d", n), func(b *testing.B) {
			chain, run, msgs := benchRun(b, n)
			a := &activities{agent: &Agent{Chain: chain}}
			var snapBytes, payloadBytes int
			b.ReportAllocs()
			for b.Loop() {
				snap, err := run.Snapshot()
				if err != nil {
					b.Fatal(err)
				}
				p, err := dc.ToPayload(modelInput{Snapshot: snap, Request: hooks.ModelRequest{Messages: msgs}})
				if err != nil {
					b.Fatal(err)
				}
				var in modelInput
				if err := dc.FromPayload(p, &in); err != nil {
					b.Fatal(err)
				}
				s, err := a.rehydrate(context.Background(), in.Snapshot, nil)
				if err != nil {
					b.Fatal(err)
				}
				s.cancel()
				snapBytes, payloadBytes = len(snap), p.Size()
			}
			b.ReportMetric(float64(snapBytes), "snapshot-B")
			b.ReportMetric(float64(payloadBytes), "payload-B")
		})
	}
}
