// Package temporal runs an agent loop whose hooks survive a worker dying
// mid-run: the loop is a Temporal workflow, and every model call and tool
// call is an activity that runs the hooks on the run rehydrated from the
// snapshot the workflow carries (hooks.Chain.Rehydrate). Hook state, Memo
// results and the model-call count travel with the snapshot from one step
// to the next, whichever worker runs it; BeforeRun runs in the first step
// and AfterRun in the last.
//
// A hook that asks a person (Context.Review, or Context.Confirm: a review
// without a call) suspends its step: the workflow posts the question
// (Agent.Ask, from an activity of its own) with the call under review,
// waits for the answer (SendAnswer, an update that names the question's
// id and carries the person's hooks.Verdict: approve, edit the call,
// reject with words the model reads, or answer instead of the tool), for
// minutes or days and across restarts, records it, and runs the step
// again, where Review returns the recorded verdict as the person gave it.
//
// # Runs of any length
//
// With Agent.Store (a claim check: object storage, a shared disk), the
// conversation and tool outputs live in the store and the workflow's
// history holds one content key per step; the run continues as new (same
// workflow id) on the server's suggestion, after Input.ContinueAsNewTurns
// model calls or past Input.ContinueAsNewBytes of history, carrying its
// snapshot. The result (Output) does not repeat the conversation: read it
// with LoadConversation. A 1,000-turn run with 16 KB tool outputs keeps
// every execution's history near 1 MB.
//
// # Once, and at least once
//
// Once, where Temporal allows it:
//   - BeforeRun: in the first step; a crash inside it runs it again (the run
//     had not started).
//   - AfterRun: at most once. The End step heartbeats before AfterRun
//     begins; a retry of a step whose worker died inside AfterRun does not
//     run it again (the hooks after the one that was running then do not
//     run), and a retry of the last step after the end does nothing.
//   - A person's answer: applied once, to the question it names. An answer
//     to an unknown question, one already answered or one no longer waited
//     on is refused (the update's validator; the SignalAnswer signal path
//     drops it), so a double click never approves the next question.
//     Question ids are unguessable (128 random bits, recorded in the
//     history), and an answer signalled before its question was asked is
//     dropped.
//   - What a Store returns is checked against its content key
//     (ErrTampered).
//   - A question is posted once the step that asked has returned, so a
//     step retried after a crash does not ask again. A crash inside
//     Agent.Ask itself posts it again with the same Question.ID: dedupe on
//     it.
//
// At least once, plainly:
//   - A model or tool step killed mid-run (a worker dies, a timeout) runs
//     again from the snapshot before it: the work inside it is redone,
//     hooks included, and a tool that had acted acts again. StepKey gives
//     the step an idempotency key, the same for every attempt, to pass to
//     the service the tool calls; Heartbeat and Progress let a long tool
//     resume where it got to. Memo keeps a hook's once-only work from
//     running again once its step has finished.
//
// Every step heartbeats while it runs (DefaultHeartbeatTimeout, or
// Input.Options per kind and per tool, with timeouts, retry policy, task
// queue and summary), so a dead worker is noticed in seconds and a
// cancellation reaches the running tool, which stops before
// AfterRun("interrupted") runs.
//
// Hooks are written as anywhere else (Go, JavaScript through hooks.Loader,
// commands): only the host changes. A worker registers the workflow and its
// steps with Register; a client starts a run with ExecuteWorkflow on
// WorkflowName and an Input. The QueryRun query shows where a run is (its
// turns, trace, snapshot and pending question).
package temporal
