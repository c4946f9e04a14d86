// Package hooktest runs hooks — Go, JavaScript or command hooks — through a
// real hooks.Chain and hooks.Run with a recording Host, the way
// net/http/httptest runs handlers: a policy test reads like the policy.
//
//	h := hooktest.New(t, guard)
//	h.Tool("shell", map[string]any{"command": "rm -rf /"}).RequireRefused(t, "refused by the user")
//	h.Tool("shell", map[string]any{"command": "ls"}).RequireAllowed(t)
//
// The Host records diagnostics, log lines, notices and confirm prompts,
// answers Confirm from a script (Options.Answers) and Review from a script
// of verdicts (Options.Verdicts: approve, edit, reject with a message,
// respond with a result), and the harness records
// which tools and models were called. When a check fails, its message says
// what each hook decided, from the chain's trace.
//
// Fixtures (see Fixture) describe one call and the decision expected, in
// JSON, so that one set of files tests a policy whatever language it is
// written in: RunFixtures runs a folder of them as subtests, and Check runs
// one without a testing.T.
//
// A Harness is for one test goroutine: its calls run one after another.
//
// # Arguments are JSON, so numbers are float64
//
// A model sends a tool call's arguments as JSON, so in production a hook
// finds every number of them as a float64 (an object as a map[string]any,
// an array as a []any), never as an int: in a Go hook,
// call.Arguments["amount"].(int) fails on a real call. Hosts should give
// their hooks arguments the same way, and a hook should read numbers as
// float64, or with hooks.ToolCall.Number, which takes any Go numeric type
// and json.Number.
//
// The harness holds to that rule, so that a test cannot pass on values
// production never gives: Harness.Tool, Harness.ToolCall and the tool calls
// of a Harness.Model reply send their arguments through JSON before any
// hook sees them. map[string]any{"amount": 600} reaches the hooks as
// float64(600), and ToolOutcome.Call holds the arguments as sent. A value
// JSON cannot carry (a func, a channel, NaN) fails the test (or, outside a
// test, is the outcome's Err), naming the argument, and no hook runs.
// Options.Host.Config and a ToolResult's Value are not converted: in production
// they are the host's and its tools' own Go values, and the test plays the
// host.
package hooktest

import (
	"context"
	"fmt"
	"testing"

	"github.com/rienda/hooks"
)

// Options shape the run of a harness.
type Options struct {
	// Host is the run's Host, as the program under test would give it:
	// each field means what it means in hooks.Host. In particular Env nil
	// is the process environment, as in production; a hermetic test gives
	// map[string]string{} (no variables) or the few it needs. The harness
	// records Confirm, Notify and Log (Harness.Prompts, Notices, Logs),
	// then calls Host's own when it has them.
	Host hooks.Host

	// Answers are Confirm's first answers, in order; after them, Confirm
	// is Host.Confirm's, or, without one, Host.AutoApprove.
	Answers []bool
	// Verdicts are Review's first answers (Context.Review, which
	// prebuilt.Approval and ctx.review ask), in order:
	//
	//	{Approved: true}                                      // approve
	//	{Approved: true, Arguments: map[string]any{"n": 1.0}} // edit: the tool runs with these
	//	{Message: "not on main"}                               // reject, with what the model reads
	//	{Result: &hooks.ToolResult{Text: "42"}}                // respond: the tool does not run
	//
	// After them a Review takes the next of Answers (a yes or a no), then
	// Host.Review's or Host.Confirm's answer. When the test scripted
	// verdicts and none is left (and the Host has no Review of its own), a
	// review is an error: a rejection, a diagnostic naming the hook, and,
	// in a test, a failure saying how many verdicts were scripted.
	Verdicts []hooks.Verdict
	Input    string         // RunStart.Input
	Chain    []hooks.Option // more chain options (WithTrace and WithDiagnostics are the harness's)
}

// Harness is a started run of hooks under a recording Host.
type Harness struct {
	run *hooks.Run
	rec *recorder
	t   testing.TB // nil when started with Start: then bad input is an outcome's Err
}

// New starts a run of hs with the zero Options, and fails t if the chain
// cannot be built or BeforeRun fails the run. The run ends (AfterRun) when
// the test does, unless End ended it before. The harness fails t too when
// the test passes a call no model could send (see the package doc).
func New(t testing.TB, hs ...hooks.Hook) *Harness {
	t.Helper()
	return NewWith(t, Options{}, hs...)
}

// NewWith is New with Options.
func NewWith(t testing.TB, o Options, hs ...hooks.Hook) *Harness {
	t.Helper()
	h, err := Start(o, hs...)
	if err != nil {
		t.Fatal("hooktest: " + err.Error())
	}
	h.t = t
	h.rec.setFail(func(err error) { t.Errorf("hooktest: %v", err) })
	t.Cleanup(func() { h.End(hooks.RunEnd{}) })
	return h
}

// Start starts a harness outside a test (a tool for hook authors, say):
// New and NewWith without the testing.TB. End it with End.
func Start(o Options, hs ...hooks.Hook) (*Harness, error) {
	rec := &recorder{answers: append([]bool(nil), o.Answers...), host: o.Host,
		verdicts: append([]hooks.Verdict(nil), o.Verdicts...), scripted: len(o.Verdicts)}
	opts := append([]hooks.Option{hooks.WithTrace(rec.trace), hooks.WithDiagnostics(rec.diagnose)}, o.Chain...)
	chain, err := hooks.NewChain(hs, opts...)
	if err != nil {
		return nil, err
	}
	host := o.Host
	host.Confirm, host.Review, host.Notify, host.Log = rec.confirm, rec.review, rec.notify, rec.log
	run, err := chain.Start(context.Background(), host, hooks.RunStart{RunID: "hooktest", Input: o.Input})
	if err != nil {
		return nil, fmt.Errorf("the run did not start: %w", err)
	}
	return &Harness{run: run, rec: rec}, nil
}

// Run returns the harness's run, for what the helpers do not cover.
func (h *Harness) Run() *hooks.Run { return h.run }

// Tool runs a tool call through the hooks; the tool, if it runs, returns
// "ok". The arguments reach the hooks through JSON (see the package doc).
func (h *Harness) Tool(name string, args map[string]any) *ToolOutcome {
	h.helper()
	return h.ToolCall(hooks.ToolCall{ID: "call-1", Name: name, Arguments: args}, hooks.ToolResult{Text: "ok"})
}

// ToolCall runs call through the hooks; the tool, if it runs, returns res.
// The arguments reach the hooks through JSON (see the package doc); res is
// given as it is, as a Go tool gives it.
func (h *Harness) ToolCall(call hooks.ToolCall, res hooks.ToolResult) *ToolOutcome {
	h.helper()
	sent, err := asModelSends(call)
	out := &ToolOutcome{Call: sent}
	if err != nil {
		out.Call, out.Err = call, err
		h.badInput(err)
		return out
	}
	mark := h.rec.mark()
	out.Result, out.Err = h.run.CallTool(context.Background(), sent, func(c *hooks.Context, seen hooks.ToolCall) (hooks.ToolResult, error) {
		out.Ran, out.Seen = true, seen
		return res, nil
	})
	out.Decisions = h.rec.since(mark)
	return out
}

// Model runs a model call through the hooks; the model, if it is called,
// replies reply. The arguments of the reply's tool calls reach the hooks
// through JSON, as a model sends them.
func (h *Harness) Model(req hooks.ModelRequest, reply hooks.ModelResponse) *ModelOutcome {
	h.helper()
	out := &ModelOutcome{}
	reply, err := replyAsModelSends(reply)
	if err != nil {
		out.Err = fmt.Errorf("the model's reply: %w", err)
		h.badInput(out.Err)
		return out
	}
	mark := h.rec.mark()
	out.Reply, out.Err = h.run.CallModel(context.Background(), req, func(c *hooks.Context, sent hooks.ModelRequest) (hooks.ModelResponse, error) {
		out.Sent = &sent
		return reply, nil
	})
	out.Decisions = h.rec.since(mark)
	return out
}

// helper marks the caller as a test helper, so that a failure points at
// the test's line.
func (h *Harness) helper() {
	if h.t != nil {
		h.t.Helper()
	}
}

// badInput fails the test over input production could never give (the
// test's own mistake); outside a test the outcome's Err says it.
func (h *Harness) badInput(err error) {
	if h.t != nil {
		h.t.Helper()
		h.t.Fatal("hooktest: " + err.Error())
	}
}

// End ends the run and returns what the AfterRun hooks decided (AfterRun
// runs once; later calls do nothing and return none).
func (h *Harness) End(end hooks.RunEnd) []hooks.TraceEvent {
	mark := h.rec.mark()
	h.run.End(context.Background(), end)
	return h.rec.since(mark)
}

// Diagnostics returns the diagnostics so far.
func (h *Harness) Diagnostics() []hooks.Diagnostic { return h.rec.get().diags }

// Logs returns the log lines so far, as "hook: line".
func (h *Harness) Logs() []string { return h.rec.get().logs }

// Notices returns the notices so far.
func (h *Harness) Notices() []hooks.Notice { return h.rec.get().notices }

// Prompts returns the prompts of Confirm and Review so far, answered or
// not, in the order asked.
func (h *Harness) Prompts() []hooks.Prompt { return h.rec.get().prompts }

// Reviews returns the reviews asked so far (Context.Review), answered or
// not: each one's prompt and the call it was about.
func (h *Harness) Reviews() []hooks.Review { return h.rec.get().reviews }

// RequireDiagnostics fails t unless there were n diagnostics, listing them.
func (h *Harness) RequireDiagnostics(t testing.TB, n int) {
	t.Helper()
	if ds := h.Diagnostics(); len(ds) != n {
		t.Fatal(fmt.Sprintf("hooktest: want %s, got %d", count(n, "diagnostic"), len(ds)) + listDiagnostics(ds, "  "))
	}
}
