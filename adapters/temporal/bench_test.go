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
// and back, and the run made again from it. inline carries the
// conversation in the input (an Agent without a Store); store carries its
// key, and the worker reads the conversation from its cache of the Store
// (a worker that runs the run's steps in turn) or, for store-cold, from
// the Store itself.
func BenchmarkHop(b *testing.B) {
	dc := converter.GetDefaultDataConverter()
	for _, mode := range []string{"inline", "store", "store-cold"} {
		for _, n := range []int{10, 100, 1000} {
			b.Run(fmt.Sprintf("%s/size=%d", mode, n), func(b *testing.B) {
				chain, run, msgs := benchRun(b, n)
				store := &MemoryStore{}
				a := &activities{agent: &Agent{Chain: chain, Store: store}, conv: &convCache{}}
				in := modelInput{Request: hooks.ModelRequest{Messages: msgs}}
				if mode != "inline" {
					key := ""
					for _, m := range msgs { // one node a turn, as a run stores it
						var err error
						if key, err = a.conv.append(context.Background(), store, key, m); err != nil {
							b.Fatal(err)
						}
					}
					in = modelInput{Conversation: key}
				}
				var snapBytes, payloadBytes int
				b.ReportAllocs()
				for b.Loop() {
					snap, err := run.Snapshot()
					if mode != "inline" { // what a step with a Store puts in the history
						snap, err = a.snapshot(context.Background(), run)
					}
					if err != nil {
						b.Fatal(err)
					}
					in.Snapshot = snap
					p, err := dc.ToPayload(in)
					if err != nil {
						b.Fatal(err)
					}
					var got modelInput
					if err := dc.FromPayload(p, &got); err != nil {
						b.Fatal(err)
					}
					s, err := a.rehydrate(context.Background(), got.Snapshot, nil)
					if err != nil {
						b.Fatal(err)
					}
					if got.Conversation != "" {
						if mode == "store-cold" {
							a.conv = &convCache{}
						}
						if got.Request.Messages, err = a.conv.load(context.Background(), store, got.Conversation); err != nil {
							b.Fatal(err)
						}
					}
					if len(got.Request.Messages) != n {
						b.Fatalf("%d messages", len(got.Request.Messages))
					}
					s.cancel()
					snapBytes, payloadBytes = len(snap), p.Size()
				}
				b.ReportMetric(float64(snapBytes), "snapshot-B")
				b.ReportMetric(float64(payloadBytes), "payload-B")
			})
		}
	}
}
