package otel_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/rienda/hooks"
	hooksotel "github.com/rienda/hooks/adapters/otel"
	"github.com/stretchr/testify/require"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// BenchmarkToolCall is one Run.CallTool through a chain of n quiet hooks
// (BeforeToolExecute and AfterToolExecute, no opinion): plain, traced
// (hooks.WithTrace with a function that does nothing: the core's share),
// and with the adapter, its spans sampled and batched to an exporter that
// drops them, its metrics aggregated by the SDK. The difference between
// n=1 and n=10 is the cost per hook; the rest is the cost per call (a
// span, a wrap).
func BenchmarkToolCall(b *testing.B) {
	for _, n := range []int{1, 10} {
		for _, with := range []string{"plain", "traced", "otel"} {
			b.Run(fmt.Sprintf("hooks=%d/%s", n, with), func(b *testing.B) { benchToolCall(b, n, with) })
		}
	}
}

func benchToolCall(b *testing.B, n int, with string) {
	var list []hooks.Hook
	var opts []hooks.Option
	switch with {
	case "traced":
		opts = append(opts, hooks.WithTrace(func(hooks.TraceEvent) {}))
	case "otel":
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
		b.Cleanup(func() {
			_ = tp.Shutdown(context.Background())
			_ = mp.Shutdown(context.Background())
		})
		tel, err := hooksotel.New(hooksotel.WithTracerProvider(tp), hooksotel.WithMeterProvider(mp))
		require.NoError(b, err)
		list, opts = append(list, tel.Hook()), append(opts, tel.Option())
	}
	for i := range n {
		list = append(list, hooks.Funcs{HookName: fmt.Sprint("quiet", i),
			BeforeToolExecute: func(*hooks.Context, hooks.ToolCall) (*hooks.ToolCallPatch, error) { return nil, nil },
			AfterToolExecute: func(*hooks.Context, hooks.ToolCall, hooks.ToolResult) (*hooks.ToolResultPatch, error) {
				return nil, nil
			}})
	}
	chain, err := hooks.NewChain(list, opts...)
	require.NoError(b, err)
	ctx := context.Background()
	run, err := chain.Start(ctx, hooks.Host{}, hooks.RunStart{})
	require.NoError(b, err)
	defer run.End(ctx, hooks.RunEnd{})
	call := hooks.ToolCall{ID: "call-1", Name: "read", Arguments: map[string]any{"path": "a"}}
	tool := func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
		return hooks.ToolResult{Text: "ok"}, nil
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := run.CallTool(ctx, call, tool); err != nil {
			b.Fatal(err)
		}
	}
}
