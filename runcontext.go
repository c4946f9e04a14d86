package hooks

import "context"

// runKey is the context key of a *Run; its type is unexported, so no other
// package can collide with it.
type runKey struct{}

// ContextWithRun returns a copy of ctx carrying run, for frameworks that own
// their loop and hand their callbacks only a context (eino, genkit,
// adk-go): start the run, put it in the context, and find it again in the
// tool and model callbacks with [RunFromContext].
func ContextWithRun(ctx context.Context, run *Run) context.Context {
	return context.WithValue(ctx, runKey{}, run)
}

// RunFromContext returns the run ContextWithRun put in ctx, if any.
func RunFromContext(ctx context.Context) (*Run, bool) {
	r, ok := ctx.Value(runKey{}).(*Run)
	return r, ok && r != nil
}
