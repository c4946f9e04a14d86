// Package temporal runs an agent loop whose hooks survive a worker dying
// mid-run: the loop is a Temporal workflow, and every model call and tool
// call is an activity that runs the hooks on the run rehydrated from the
// snapshot the workflow carries (hooks.Chain.Rehydrate). Hook state, Memo
// results and the model-call count travel with the snapshot from one step
// to the next, whichever worker runs it; BeforeRun runs in the first step
// and AfterRun once, in the last.
//
// A hook that asks a person (Context.Confirm, ctx.confirm in JavaScript)
// suspends its step: the workflow waits for the answer as a signal
// (SignalAnswer), for minutes or days and across restarts, records it, and
// runs the step again, where Confirm answers from the recorded answers. The
// person is asked once.
//
// Hooks are written as anywhere else (Go, JavaScript through hooks.Loader,
// commands): only the host changes. A worker registers the workflow and its
// steps with Register; a client starts a run with ExecuteWorkflow on
// WorkflowName and an Input.
package temporal
