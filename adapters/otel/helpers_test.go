package otel_test

import (
	"context"
	"testing"

	"github.com/rienda/hooks"
	hooksotel "github.com/rienda/hooks/adapters/otel"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// recorded is a Telemetry wired to in-memory exporters.
type recorded struct {
	tel     *hooksotel.Telemetry
	spans   *tracetest.SpanRecorder
	tracers *sdktrace.TracerProvider
	metrics *sdkmetric.ManualReader
}

func newRecorded(t *testing.T, opts ...hooksotel.Opt) *recorded {
	t.Helper()
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	t.Cleanup(func() {
		_ = tp.Shutdown(context.Background())
		_ = mp.Shutdown(context.Background())
	})
	tel, err := hooksotel.New(append([]hooksotel.Opt{hooksotel.WithTracerProvider(tp), hooksotel.WithMeterProvider(mp)}, opts...)...)
	require.NoError(t, err)
	return &recorded{tel: tel, spans: spans, tracers: tp, metrics: reader}
}

// chain builds a chain with the Telemetry's hook first, then hs.
func (r *recorded) chain(t *testing.T, hs []hooks.Hook, opts ...hooks.Option) *hooks.Chain {
	t.Helper()
	c, err := hooks.NewChain(append([]hooks.Hook{r.tel.Hook()}, hs...), append(opts, r.tel.Option())...)
	require.NoError(t, err)
	return c
}

// named returns the spans named name, in the order they ended.
func named(spans []sdktrace.ReadOnlySpan, name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

// one returns the one span named name.
func one(t *testing.T, spans []sdktrace.ReadOnlySpan, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	found := named(spans, name)
	require.Len(t, found, 1, "spans named %q", name)
	return found[0]
}

// attr returns the value of attribute key in attrs, and whether it is there.
func attr(attrs []attribute.KeyValue, key string) (attribute.Value, bool) {
	for _, kv := range attrs {
		if string(kv.Key) == key {
			return kv.Value, true
		}
	}
	return attribute.Value{}, false
}

// str returns the string attribute key of attrs ("" when missing).
func str(attrs []attribute.KeyValue, key string) string {
	v, _ := attr(attrs, key)
	return v.AsString()
}

// events returns the names of s's events, in order.
func events(s sdktrace.ReadOnlySpan) []string {
	var names []string
	for _, e := range s.Events() {
		names = append(names, e.Name)
	}
	return names
}

// event returns the first event of s named name.
func event(t *testing.T, s sdktrace.ReadOnlySpan, name string) sdktrace.Event {
	t.Helper()
	for _, e := range s.Events() {
		if e.Name == name {
			return e
		}
	}
	require.Failf(t, "no such event", "span %q has no event %q (it has %v)", s.Name(), name, events(s))
	return sdktrace.Event{}
}

// counts returns the hooks.invocations sums by "hook point decision".
func (r *recorded) counts(t *testing.T) (invocations, durations map[string]int64) {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, r.metrics.Collect(context.Background(), &rm))
	invocations, durations = map[string]int64{}, map[string]int64{}
	key := func(s attribute.Set) string {
		h, _ := s.Value("hooks.hook")
		p, _ := s.Value("hooks.point")
		d, _ := s.Value("hooks.decision")
		return h.AsString() + " " + p.AsString() + " " + d.AsString()
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch data := m.Data.(type) {
			case metricdata.Sum[int64]:
				require.Equal(t, "hooks.invocations", m.Name)
				for _, p := range data.DataPoints {
					invocations[key(p.Attributes)] = p.Value
				}
			case metricdata.Histogram[float64]:
				require.Equal(t, "hooks.duration", m.Name)
				require.Equal(t, "s", m.Unit)
				for _, p := range data.DataPoints {
					durations[key(p.Attributes)] = int64(p.Count)
				}
			}
		}
	}
	return invocations, durations
}

// echo is a tool that answers with its call's arguments, counting its runs.
type echo struct{ runs map[string]hooks.ToolCall }

func (e *echo) tool(_ *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
	e.runs[call.ID] = call
	return hooks.ToolResult{Text: "ok " + call.Name}, nil
}
