// Package dialect is the kit that command-hook dialects are written from:
// Claude Code's, Gemini CLI's, Codex CLI's, Cursor's, Copilot CLI's, and
// one written outside this repository, on this package and the root's
// public API alone (as a database/sql driver is written on database/sql).
//
//	var spec = &dialect.Spec{Name: "Tiny", Prefix: "tiny:", Events: []dialect.Event{
//		{Name: "beforeTool", When: dialect.ToolCall, Input: toolInput, Decide: decide},
//		{Name: "stop", When: dialect.FinalReply, Input: replyInput, Decide: decide},
//	}}
//
//	func Hooks(settings []byte, opts ...dialect.Option) ([]hooks.Hook, error) {
//		o, err := dialect.NewOptions(spec, opts)
//		if err != nil {
//			return nil, err
//		}
//		handlers, err := load(settings, o) // with dialect.Settings: exact keys, did-you-mean, lines
//		if err != nil {
//			return nil, err
//		}
//		return dialect.Build(spec, o, handlers), nil
//	}
//
// examples/dialect/tiny is that dialect, whole; docs/dialects.md says how
// to write one.
//
// A dialect is built from:
//   - a table of events (Spec.Events): each event's name as settings
//     write it, the moment of a run it fires at (When: RunStart,
//     UserPrompt, ToolCall, FinalReply, ...), how its stdin is built
//     from the point (Event.Input, from an At), and how a handler's
//     output decides (Event.Decide, giving a Decision);
//   - settings loading (Settings): exact keys, an unknown key or event a
//     diagnostic with the name it resembles, an entry that cannot load an
//     error naming the file, the line and the entry; matcher groups
//     (Settings.Groups) and matchers (NewMatcher, in the MatchMode of the
//     agent CLI);
//   - handlers (Handler) run by Exec under the run's environment: in a
//     process group killed with what it started at the timeout, on
//     cancellation and at its exit; stdout capped (more refuses a guarded
//     call); stdin closed once written;
//   - options a dialect re-exports (ToolNames, NamePrefix, Diagnostics,
//     Continuations, File) and its own (Setting);
//   - run state (Load, Save: a hook's hooks.Context state, carried by
//     Run.Snapshot), the continuation streak (MayContinue, bounded by
//     the run's hooks.Context.Continuations) and the user's turn
//     (UserTurn);
//   - the name checks (ToolCheck): a matcher or ToolNames key that names
//     no tool of the run is a diagnostic with a did-you-mean, since a
//     guard that never runs fails silently;
//   - output decoding with exact names (Decode, Unknown) and the evident
//     refusal rule (Evident, hooks.EvidentRefusal).
//
// Build applies the safety rules every dialect shares, so a new one
// cannot forget them: at a ToolCall event, output too large to read, and
// output that evidently refuses however the dialect's Decide read it
// (malformed JSON, a deny printed before a crash), refuse the call; a
// failure (a timeout, a crash, an exit Decide did not read as a block,
// output Decide cannot read) is a diagnostic, and refuses when the event
// or the handler fails closed; what the model reads of a refusal names
// the handler, never what its command printed. A dialect with needs past
// the table (claudecode's http and prompt handlers, geminicli's model
// events) uses the pieces alone: Exec, Settings, ToolCheck, Load and Save.
package dialect
