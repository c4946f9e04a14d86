package otel

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// openRuns counts the runs t still follows.
func (t *Telemetry) openRuns() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.runs)
}

func TestRunStateIsReleasedAtAfterRun(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	tel, err := New(WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))))
	require.NoError(t, err)
	chain, err := hooks.NewChain([]hooks.Hook{tel.Hook()}, tel.Option())
	require.NoError(t, err)
	tool := func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) { return hooks.ToolResult{}, nil }

	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{RunID: fmt.Sprint("r", i)})
			if !assert.NoError(t, err) {
				return
			}
			for j := range 4 {
				_, err := run.CallTool(context.Background(), hooks.ToolCall{ID: fmt.Sprint(j), Name: "t"}, tool)
				assert.NoError(t, err)
			}
			// A call the host never finishes: ended with the run.
			_, err = run.BeforeToolExecute(context.Background(), hooks.ToolCall{ID: "open", Name: "t"})
			assert.NoError(t, err)
			run.End(context.Background(), hooks.RunEnd{})
		})
	}
	wg.Wait()
	assert.Zero(t, tel.openRuns(), "no run is kept after its end")
	assert.Len(t, spans.Ended(), 8*6)
	assert.Len(t, spans.Started(), len(spans.Ended()), "every span ended")
}

func TestMetricSeriesAreBounded(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	tel, err := New(WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
	require.NoError(t, err)
	for i := range maxSeries + 3 {
		tel.Record(hooks.TraceEvent{Hook: fmt.Sprint("h", i), Point: hooks.BeforeRun, Decision: hooks.DecisionNoOpinion})
	}
	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(context.Background(), &rm))
	var points []metricdata.DataPoint[int64]
	for _, m := range rm.ScopeMetrics[0].Metrics {
		if m.Name == "hooks.invocations" {
			points = m.Data.(metricdata.Sum[int64]).DataPoints
		}
	}
	require.Equal(t, maxSeries+1, len(points), "the kept series and the overflow")
	var overflow int64
	for _, p := range points {
		if v, ok := p.Attributes.Value("otel.metric.overflow"); ok && v.AsBool() {
			overflow = p.Value
		}
	}
	assert.Equal(t, int64(3), overflow)
}
