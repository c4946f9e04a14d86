package otel

import (
	"fmt"
	"sync"

	"github.com/rienda/hooks"
	gotel "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// instrumentation is the name of the tracer and the meter, so that a
// backend can tell the library's telemetry from the host's.
const instrumentation = "github.com/rienda/hooks/adapters/otel"

// DefaultMaxOpenRuns bounds the runs a Telemetry follows at once when
// WithMaxOpenRuns is not given: a host that drops runs without Run.End
// cannot grow its memory without limit.
const DefaultMaxOpenRuns = 10000

// maxOpenCalls bounds the open call spans of one run. A call past it is
// not given a span of its own: its hook decisions go on the run span.
const maxOpenCalls = 1024

// Telemetry turns the runs of a chain into OpenTelemetry spans and
// metrics. It is two halves that must go into the same chain: Hook, first
// in the list, opens and closes the spans; Option (or Record) puts every
// hook decision on them and counts it. One Telemetry may serve any number
// of chains and concurrent runs.
type Telemetry struct {
	name        string
	tracer      trace.Tracer
	meters      *meters
	provider    string
	noOpinion   bool
	wraps       bool
	maxOpenRuns int

	mu   sync.RWMutex
	runs map[string]*runSpans // by run id; a run leaves at AfterRun
	seq  uint64               // start order of the runs, to evict the oldest
}

// An Opt configures New.
type Opt func(*config)

type config struct {
	tracers     trace.TracerProvider
	meters      metric.MeterProvider
	name        string
	provider    string
	noOpinion   bool
	wraps       bool
	maxOpenRuns int
}

// WithTracerProvider sets where the spans go; without it, the global
// provider (otel.GetTracerProvider) at the time of New.
func WithTracerProvider(tp trace.TracerProvider) Opt {
	return func(c *config) { c.tracers = tp }
}

// WithMeterProvider sets where the metrics go; without it, the global
// provider (otel.GetMeterProvider) at the time of New.
func WithMeterProvider(mp metric.MeterProvider) Opt {
	return func(c *config) { c.meters = mp }
}

// WithHookName names the hook Hook returns ("otel" without it), for a
// chain that already has a hook of that name.
func WithHookName(name string) Opt {
	return func(c *config) { c.name = name }
}

// WithGenAIProvider sets gen_ai.provider.name on the chat spans ("openai",
// "anthropic", ...): the library cannot know which model a ModelFunc
// calls, and the conventions require the attribute when it is known.
func WithGenAIProvider(name string) Opt {
	return func(c *config) { c.provider = name }
}

// WithNoOpinionEvents records a span event for every hook invocation,
// also those without an opinion. Without it only decisions (changed,
// refused, answered, ended, continued, error) become events, so that a
// chain of many quiet hooks does not bury them; the metrics count every
// invocation either way.
func WithNoOpinionEvents() Opt {
	return func(c *config) { c.noOpinion = true }
}

// WithoutWraps makes Hook handle no wrap point. Use it when the host runs
// tools and models itself between the split methods without
// Run.ExecuteTool or Run.ExecuteModel: the chain would otherwise report,
// once per run, that the hook's wraps did not run. The price: a tool or
// model that fails leaves its span open until the run ends, and the
// tool's own spans are not children of the execute_tool span.
func WithoutWraps() Opt {
	return func(c *config) { c.wraps = false }
}

// WithMaxOpenRuns bounds the runs followed at once (DefaultMaxOpenRuns
// without it). When a new run would pass it, the run that started first
// is ended, its span with status Error, and forgotten.
func WithMaxOpenRuns(n int) Opt {
	return func(c *config) { c.maxOpenRuns = n }
}

// New returns a Telemetry. It fails only when the meter provider refuses
// an instrument, or for a non-positive WithMaxOpenRuns.
func New(opts ...Opt) (*Telemetry, error) {
	c := config{name: "otel", wraps: true, maxOpenRuns: DefaultMaxOpenRuns}
	for _, o := range opts {
		o(&c)
	}
	if c.maxOpenRuns <= 0 {
		return nil, fmt.Errorf("hooks otel: WithMaxOpenRuns(%d): the bound must be at least 1", c.maxOpenRuns)
	}
	if c.name == "" {
		return nil, fmt.Errorf("hooks otel: WithHookName(\"\"): a hook needs a name")
	}
	if c.tracers == nil {
		c.tracers = gotel.GetTracerProvider()
	}
	if c.meters == nil {
		c.meters = gotel.GetMeterProvider()
	}
	m, err := newMeters(c.meters.Meter(instrumentation))
	if err != nil {
		return nil, err
	}
	return &Telemetry{
		name: c.name, tracer: c.tracers.Tracer(instrumentation), meters: m, provider: c.provider,
		noOpinion: c.noOpinion, wraps: c.wraps, maxOpenRuns: c.maxOpenRuns,
		runs: make(map[string]*runSpans),
	}, nil
}

// Hook returns the hook that opens and closes the spans. Put it first in
// the chain's list: its BeforeRun then runs before every other hook's, and
// its after-methods after them (the default reverse order), so that every
// decision falls inside the spans.
func (t *Telemetry) Hook() hooks.Hook { return hook{t} }

// Option returns the chain option that records every hook decision:
// hooks.WithTrace(t.Record). A chain takes one trace function; a host
// that wants its own too calls Record from it.
func (t *Telemetry) Option() hooks.Option { return hooks.WithTrace(t.Record) }

// Record records one hook invocation: it counts it in the metrics and, for
// a run whose spans Hook opened, adds it as an event to the span of its
// call (the run's for run points), ending that span when the decision
// ended the call (a refusal, a failure under FailRun, a model call a hook
// ended the run in). The Telemetry's own hook is not recorded.
func (t *Telemetry) Record(e hooks.TraceEvent) {
	if e.Hook == t.name {
		return
	}
	t.meters.record(e)
	run := t.run(e.RunID)
	if run == nil {
		return
	}
	run.record(e, t.noOpinion)
}

// run returns the spans of the run id, or nil when no run of that id is
// followed.
func (t *Telemetry) run(id string) *runSpans {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.runs[id]
}
