// Package prebuilt holds ready-made hooks: the policies every agent ends up
// writing (call limits, retries, model fallback, tool errors for the model,
// redaction, approval, a loop guard, a token and cost budget, an audit log
// and a sandbox), each a constructor taking a small config struct and
// returning a hooks.Hook.
//
//	chain, err := hooks.NewChain([]hooks.Hook{
//		prebuilt.Redact(prebuilt.RedactConfig{}),
//		prebuilt.Sandbox(prebuilt.SandboxConfig{Roots: []string{"/srv/work"}}),
//		prebuilt.ToolCallLimit(prebuilt.ToolCallLimitConfig{Run: 50}),
//		prebuilt.ToolErrors(prebuilt.ToolErrorsConfig{}),
//		prebuilt.ToolRetry(prebuilt.ToolRetryConfig{}),
//	})
//
// # What every hook here holds to
//
//   - Safe under concurrency: one hook serves many runs of one chain, and
//     the parallel tool calls of one run.
//   - Per-run state (counts, totals, recent calls) is the hook's run state
//     (hooks.Context.State), so Run.Snapshot carries it and Chain.Resume or
//     Chain.Rehydrate brings it back. It is one value per run, updated under
//     a lock, so parallel tool calls never lose a count (SetState alone
//     would keep only the last writer's).
//   - A constructor panics on a config that cannot work (a negative limit, a
//     pattern that does not compile), naming the field, as
//     regexp.MustCompile does: such a config is a bug in the program.
//     FromSpec, for settings read from a file, returns those as errors.
//   - Each has a default name (toolCallLimit, redact, …) and a Name field
//     to change it, so that two of one kind can share a chain.
//
// # Order in the chain
//
// Before-points run in list order and after-points in reverse, so a hook
// listed first sees a call first and its result last: list Redact and
// Audit first. Wrap hooks (ToolRetry, ToolErrors, ModelRetry,
// ModelFallback) nest in list order, the first outermost: list ToolErrors
// before ToolRetry (errors reach the model only once retries are spent)
// and ModelFallback before ModelRetry (each model is retried before the
// next one is tried). Wraps run only when the host lets the library make
// the call (Run.CallTool / Run.CallModel, or Run.ExecuteTool /
// Run.ExecuteModel between the split methods).
package prebuilt
