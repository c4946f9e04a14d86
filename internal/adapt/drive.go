package adapt

import (
	"context"
	"fmt"

	"github.com/rienda/hooks"
)

// Setup is one adapter's Loop as Drive checks and runs it: what its Run
// and RunStream share, so that each adapter says only what differs.
type Setup struct {
	Adapter string // the adapter's name, which starts every error: "openai"
	Method  string // the Loop method called: "Run" or "RunStream"

	Client    string // the Loop's client field: "Completions"
	HasClient bool   // that field is set
	// Streams names what a client that streams has ("NewStreaming");
	// CanStream: the client has it. Checked when Deliver is set.
	Streams   string
	CanStream bool
	Deliver   func(hooks.Chunk) error // RunStream's; nil for Run

	Tools    func(name string) (ToolRunner, bool) // Lookup of the Loop's tools and handlers
	Check    error                                // CheckTools of the params: reported after the run check
	MaxTurns int                                  // the Loop's; < 1: DefaultMaxTurns
	Parallel int
	IDPrefix string
	// ErrMaxTurns is the adapter's error of a loop that reached MaxTurns.
	ErrMaxTurns error
}

// DefaultMaxTurns bounds a Loop whose MaxTurns is zero (every adapter's
// DefaultMaxTurns).
const DefaultMaxTurns = 32

// Drive checks s (the client, streaming, the run, the tools, in that
// order, each error naming what is missing) and runs params round the
// loop.
func Drive[P, M any, R comparable](ctx context.Context, s Setup, p Provider[P, M, R], run *hooks.Run, params P) (Result[M], error) {
	if err := s.check(run); err != nil {
		return Result[M]{}, err
	}
	limit := s.MaxTurns
	if limit <= 0 {
		limit = DefaultMaxTurns
	}
	cfg := Loop{Tools: s.Tools, MaxTurns: limit, Parallel: s.Parallel, IDPrefix: s.IDPrefix, Deliver: s.Deliver}
	return Run(ctx, cfg, p, run, params, s.ErrMaxTurns)
}

// check is Drive's checks.
func (s Setup) check(run *hooks.Run) error {
	switch {
	case !s.HasClient:
		return fmt.Errorf("%s: Loop.%s is nil", s.Adapter, s.Client)
	case s.Method == "RunStream" && !s.CanStream:
		return fmt.Errorf("%s: Loop.%s cannot stream (it has no %s)", s.Adapter, s.Client, s.Streams)
	case s.Method == "RunStream" && s.Deliver == nil:
		return fmt.Errorf("%s: Loop.RunStream needs a deliver function", s.Adapter)
	case run == nil:
		return fmt.Errorf("%s: Loop.%s needs a run (hooks.Chain.Start)", s.Adapter, s.Method)
	}
	return s.Check
}

// Each makes one value of each call and its result, in order: the
// messages or blocks that answer a reply's tool calls.
func Each[X any](calls []hooks.ToolCall, results []hooks.ToolResult, one func(hooks.ToolCall, hooks.ToolResult) (X, error)) ([]X, error) {
	out := make([]X, 0, len(calls))
	for i, call := range calls {
		x, err := one(call, results[i])
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}
