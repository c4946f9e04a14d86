package otel

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/rienda/hooks"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// The metrics' names.
const (
	metricInvocations = "hooks.invocations"
	metricDuration    = "hooks.duration"
)

// durationBuckets are the histogram's bounds, in seconds: hooks run from
// a microsecond (Go) to seconds (a command, a person asked to confirm).
var durationBuckets = []float64{1e-6, 5e-6, 1e-5, 5e-5, 1e-4, 5e-4, 1e-3, 5e-3, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30}

// maxSeries bounds the attribute sets the metrics keep, for hosts that
// make chains with ever new hook names: past it, invocations are counted
// under one set with otel.metric.overflow true. It is the SDK's default
// cardinality limit (2000 series, the overflow's included), so that both
// instruments overflow alike.
const maxSeries = 1999

// meters counts hook invocations and measures their durations, by hook,
// point and decision. The count is an observable counter read from
// atomic counts at collection: a measurement through the SDK costs about
// as much as the histogram's, and an invocation is counted on every hook.
type meters struct {
	durations metric.Float64Histogram

	mu       sync.RWMutex
	series   map[metricKey]*series // made once per hook, point and decision
	overflow *series
}

// metricKey is one combination of the metrics' attributes.
type metricKey struct {
	hook     string
	point    hooks.Point
	decision hooks.Decision
}

// series is one metricKey's count and the options that record its
// durations, kept so that recording allocates nothing.
type series struct {
	count  atomic.Int64
	set    metric.MeasurementOption
	record []metric.RecordOption
}

func newSeries(set attribute.Set) *series {
	opt := metric.WithAttributeSet(set)
	return &series{set: opt, record: []metric.RecordOption{opt}}
}

func newMeters(m metric.Meter) (*meters, error) {
	ms := &meters{series: make(map[metricKey]*series),
		overflow: newSeries(attribute.NewSet(attribute.Bool("otel.metric.overflow", true)))}
	_, err := m.Int64ObservableCounter(metricInvocations, metric.WithUnit("{invocation}"),
		metric.WithDescription("Hook invocations, by hook, point and decision."),
		metric.WithInt64Callback(ms.observe))
	if err != nil {
		return nil, fmt.Errorf("hooks otel: counter %s: %w", metricInvocations, err)
	}
	ms.durations, err = m.Float64Histogram(metricDuration, metric.WithUnit("s"),
		metric.WithDescription("Duration of hook invocations, by hook, point and decision."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	if err != nil {
		return nil, fmt.Errorf("hooks otel: histogram %s: %w", metricDuration, err)
	}
	return ms, nil
}

// record counts invocation e and its duration.
func (m *meters) record(e hooks.TraceEvent) {
	s := m.seriesOf(metricKey{e.Hook, e.Point, e.Decision})
	s.count.Add(1)
	m.durations.Record(context.Background(), e.Duration.Seconds(), s.record...)
}

// observe reports the counts, when the reader collects.
func (m *meters) observe(_ context.Context, o metric.Int64Observer) error {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, s := range m.series {
		o.Observe(s.count.Load(), s.set)
	}
	if n := m.overflow.count.Load(); n > 0 {
		o.Observe(n, m.overflow.set)
	}
	return nil
}

// seriesOf returns the series of k, made at its first invocation.
func (m *meters) seriesOf(k metricKey) *series {
	m.mu.RLock()
	s := m.series[k]
	m.mu.RUnlock()
	if s != nil {
		return s
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.series[k]; s != nil {
		return s
	}
	if len(m.series) >= maxSeries {
		return m.overflow
	}
	s = newSeries(attribute.NewSet(attrHook.String(k.hook), attrPoint.String(string(k.point)),
		attrDecision.String(string(k.decision))))
	m.series[k] = s
	return s
}
