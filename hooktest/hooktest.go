// Package hooktest runs hooks — Go, JavaScript or command hooks — through a
// real hooks.Chain and hooks.Run with a recording Host, the way
// net/http/httptest runs handlers: a policy test reads like the policy.
//
//	h := hooktest.New(t, guard)
//	h.Tool("shell", map[string]any{"command": "rm -rf /"}).RequireRefused(t, "refused by the user")
//	h.Tool("shell", map[string]any{"command": "ls"}).RequireAllowed(t)
//
// The Host records diagnostics, log lines, notices and confirm prompts,
// answers Confirm from a script (Options.Answers), and the harness records
// which tools and models were called. When a check fails, its message says
// what each hook decided, from the chain's trace.
//
// Fixtures (see Fixture) describe one call and the decision expected, in
// JSON, so that one set of files tests a policy whatever language it is
// written in: RunFixtures runs a folder of them as subtests, and Check runs
// one without a testing.T.
//
// A Harness is for one test goroutine: its calls run one after another.
package hooktest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rienda/hooks"
)

// Options shape the Host of a harness. The zero Options give an empty
// environment (tests are hermetic), no workdir, and a Confirm that answers
// no.
type Options struct {
	Workdir     string
	Session     string
	Env         map[string]string // nil: empty
	Config      map[string]any
	Agent       *hooks.Agent
	Answers     []bool // Confirm's answers, in order; after them, AutoApprove
	AutoApprove bool
	Input       string           // RunStart.Input
	Clock       func() time.Time // nil: time.Now
	Chain       []hooks.Option   // more chain options (WithTrace and WithDiagnostics are the harness's)
}

// Harness is a started run of hooks under a recording Host.
type Harness struct {
	run *hooks.Run
	rec *recorder
}

// New starts a run of hs with the zero Options, and fails t if the chain
// cannot be built or BeforeRun fails the run. The run ends (AfterRun) when
// the test does, unless End ended it before.
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
	t.Cleanup(func() { h.End(hooks.RunEnd{}) })
	return h
}

// Start starts a harness outside a test (a tool for hook authors, say):
// New and NewWith without the testing.TB. End it with End.
func Start(o Options, hs ...hooks.Hook) (*Harness, error) {
	rec := &recorder{answers: append([]bool(nil), o.Answers...)}
	opts := append([]hooks.Option{hooks.WithTrace(rec.trace), hooks.WithDiagnostics(rec.diagnose)}, o.Chain...)
	chain, err := hooks.NewChain(hs, opts...)
	if err != nil {
		return nil, err
	}
	env := o.Env
	if env == nil {
		env = map[string]string{}
	}
	host := hooks.Host{
		Workdir: o.Workdir, Session: hooks.Session{ID: o.Session}, Agent: o.Agent, Config: o.Config, Env: env,
		System:      hooks.System{Clock: o.Clock},
		Confirm:     rec.confirm,
		AutoApprove: o.AutoApprove,
		Notify:      rec.notify,
		Log:         rec.log,
	}
	rec.auto = o.AutoApprove
	run, err := chain.Start(context.Background(), host, hooks.RunStart{RunID: "hooktest", Input: o.Input})
	if err != nil {
		return nil, fmt.Errorf("the run did not start: %w", err)
	}
	return &Harness{run: run, rec: rec}, nil
}

// Run returns the harness's run, for what the helpers do not cover.
func (h *Harness) Run() *hooks.Run { return h.run }

// Tool runs a tool call through the hooks; the tool, if it runs, returns
// "ok".
func (h *Harness) Tool(name string, args map[string]any) *ToolOutcome {
	return h.ToolCall(hooks.ToolCall{ID: "call-1", Name: name, Arguments: args}, hooks.ToolResult{Text: "ok"})
}

// ToolCall runs call through the hooks; the tool, if it runs, returns res.
func (h *Harness) ToolCall(call hooks.ToolCall, res hooks.ToolResult) *ToolOutcome {
	mark := h.rec.mark()
	out := &ToolOutcome{Call: call}
	out.Result, out.Err = h.run.CallTool(context.Background(), call, func(c *hooks.Context, seen hooks.ToolCall) (hooks.ToolResult, error) {
		out.Ran, out.Seen = true, seen
		return res, nil
	})
	out.Decisions = h.rec.since(mark)
	return out
}

// Model runs a model call through the hooks; the model, if it is called,
// replies reply.
func (h *Harness) Model(req hooks.ModelRequest, reply hooks.ModelResponse) *ModelOutcome {
	mark := h.rec.mark()
	out := &ModelOutcome{}
	out.Reply, out.Err = h.run.CallModel(context.Background(), req, func(c *hooks.Context, sent hooks.ModelRequest) (hooks.ModelResponse, error) {
		out.Sent = &sent
		return reply, nil
	})
	out.Decisions = h.rec.since(mark)
	return out
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

// Prompts returns the confirm prompts so far, answered or not.
func (h *Harness) Prompts() []hooks.Prompt { return h.rec.get().prompts }

// RequireDiagnostics fails t unless there were n diagnostics, listing them.
func (h *Harness) RequireDiagnostics(t testing.TB, n int) {
	t.Helper()
	if ds := h.Diagnostics(); len(ds) != n {
		msg := fmt.Sprintf("hooktest: want %d diagnostics, got %d", n, len(ds))
		for _, d := range ds {
			msg += "\n  " + d.String()
		}
		t.Fatal(msg)
	}
}

// recorder is the recording side of the Host and the chain.
type recorder struct {
	mu      sync.Mutex
	answers []bool
	auto    bool
	diags   []hooks.Diagnostic
	logs    []string
	notices []hooks.Notice
	prompts []hooks.Prompt
	events  []hooks.TraceEvent
}

type recording struct {
	diags   []hooks.Diagnostic
	logs    []string
	notices []hooks.Notice
	prompts []hooks.Prompt
}

func (r *recorder) get() recording {
	r.mu.Lock()
	defer r.mu.Unlock()
	return recording{append([]hooks.Diagnostic(nil), r.diags...), append([]string(nil), r.logs...),
		append([]hooks.Notice(nil), r.notices...), append([]hooks.Prompt(nil), r.prompts...)}
}

func (r *recorder) confirm(ctx context.Context, p hooks.Prompt) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.prompts = append(r.prompts, p)
	if len(r.answers) == 0 {
		return r.auto, nil
	}
	answer := r.answers[0]
	r.answers = r.answers[1:]
	return answer, nil
}

func (r *recorder) notify(hook string, n hooks.Notice) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notices = append(r.notices, n)
}

func (r *recorder) log(hook, line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.logs = append(r.logs, hook+": "+line)
}

func (r *recorder) diagnose(d hooks.Diagnostic) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.diags = append(r.diags, d)
}

func (r *recorder) trace(e hooks.TraceEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.events)
}

func (r *recorder) since(mark int) []hooks.TraceEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hooks.TraceEvent(nil), r.events[mark:]...)
}

// Describe renders decisions one a line: "guard beforeToolExecute: refused: reason".
func Describe(decisions []hooks.TraceEvent) string {
	if len(decisions) == 0 {
		return "  (no hook ran)"
	}
	lines := make([]string, len(decisions))
	for i, e := range decisions {
		s := fmt.Sprintf("  %s %s: %s", e.Hook, e.Point, e.Decision)
		if len(e.Changed) > 0 {
			s += " " + strings.Join(e.Changed, ", ")
		}
		if e.Reason != "" {
			s += ": " + e.Reason
		}
		if e.Err != nil {
			s += fmt.Sprintf(": %v (policy %s)", e.Err, e.Policy)
		}
		lines[i] = s
	}
	return strings.Join(lines, "\n")
}
