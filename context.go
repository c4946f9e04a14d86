package hooks

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"runtime"
	"strings"
	"time"
)

// Session identifies the conversation a run belongs to.
type Session struct{ ID string }

// Prompt is a question a hook asks a person (Context.Confirm).
type Prompt struct{ Title, Body string }

// Review is what a person is asked to decide about (Context.Review): the
// prompt they are shown and, when the question is about a tool call, the
// call.
type Review struct {
	Prompt Prompt    // what the person is shown
	Call   *ToolCall // the call under review; nil when the question is not about a call
}

// Verdict is a person's answer to a Review. Approved alone is a yes or a
// no. Arguments (non-nil) means the person edited the call: the tool runs
// with these. Message is what the model reads when the person rejects (or
// a note with an approval). Result (non-nil) means the person answered
// instead of the tool, which does not run.
type Verdict struct {
	Approved  bool           `json:"approved"`
	Arguments map[string]any `json:"arguments,omitempty"`
	Message   string         `json:"message,omitempty"`
	Result    *ToolResult    `json:"result,omitempty"`
}

// Notice is a message a hook shows a person (Context.Notify).
type Notice struct{ Title, Body string }

// System describes the machine a hook runs on. Host.System's zero fields are
// filled from the running process.
type System struct {
	OS       string           // runtime.GOOS
	Arch     string           // runtime.GOARCH
	Hostname string           // os.Hostname
	Clock    func() time.Time // nil: time.Now
}

// Now returns the current time from Clock.
func (s System) Now() time.Time {
	if s.Clock == nil {
		return time.Now()
	}
	return s.Clock()
}

// Host is what the embedding program gives a run: where it works, who it
// talks to, and how hooks reach a person. Its zero value works: the process
// environment, the OS file system relative to Workdir, an HTTP client with
// timeouts, logs and notices to slog, and a non-interactive Confirm answered
// by AutoApprove. The functions must be safe for concurrent use: parallel
// tool calls reach them at once.
type Host struct {
	Workdir     string
	Session     Session
	Agent       *Agent
	Config      map[string]any
	Env         map[string]string                                    // nil: the process environment
	HTTP        *http.Client                                         // nil: a client with timeouts
	Files       Files                                                // nil: DirFiles(Workdir)
	System      System                                               // zero fields: the running machine
	Confirm     func(ctx context.Context, p Prompt) (bool, error)    // nil: Review's Approved, or non-interactive
	Review      func(ctx context.Context, r Review) (Verdict, error) // nil: Confirm's yes or no
	AutoApprove bool                                                 // the answer when non-interactive
	Notify      func(hook string, n Notice)                          // nil: slog
	Log         func(hook string, line string)                       // nil: slog
}

// defaultHTTP is the client of a Host without one: bounded, never hanging a run.
var defaultHTTP = &http.Client{Timeout: 30 * time.Second}

// resolved fills h's zero fields with their defaults, once per run.
func (h Host) resolved() Host {
	if h.Env == nil {
		h.Env = processEnv()
	}
	if h.HTTP == nil {
		h.HTTP = defaultHTTP
	}
	if h.Files == nil {
		h.Files = DirFiles(h.Workdir)
	}
	if h.System.OS == "" {
		h.System.OS = runtime.GOOS
	}
	if h.System.Arch == "" {
		h.System.Arch = runtime.GOARCH
	}
	if h.System.Hostname == "" {
		h.System.Hostname, _ = os.Hostname()
	}
	return h
}

func processEnv() map[string]string {
	env := make(map[string]string)
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return env
}

// Context is what every hook receives, and what a host may pass to its
// tools and model (ToolFunc, ModelFunc). It embeds the call's
// context.Context: a hook that waits should watch Done.
//
// A *Context belongs to the call it was passed to, and is never reused for
// another: code may keep it (hand it to a goroutine, an errgroup, a client
// that finishes later), and once the call has returned it reports that end
// as a cancelled context.Context (Err is context.Canceled, Done is closed),
// while Value still answers with the call's values. Keeping it is still
// rarely what you want: hand work that outlives the call c.Context (the
// context the host passed in) or one derived from it. Each hook gets a
// Context of its own. Config and Env are shared by the whole run: read
// them, never write them. State and Memo values come back exactly after
// Resume or Rehydrate, as JSON types (map[string]any, []any, string, bool,
// nil), a Go number at the top keeping its basic type and nested numbers
// float64 when exact, else int64 or uint64; Run.Snapshot refuses what it
// cannot keep.
//
// A Context made outside a run (a literal in a test) works too: it has no
// run id, state or host; Memo runs fn every time, Confirm answers no, and
// Log and Notify go to slog. Tests are better served by package hooktest,
// which runs hooks in a real run.
type Context struct {
	context.Context
	Workdir string
	Session Session
	Agent   *Agent
	Config  map[string]any
	Env     map[string]string
	HTTP    *http.Client
	Files   Files
	System  System

	// life is the point call's: its run, point and call, shared by every
	// Context the call hands out, and it ends them all. A hook's Context
	// lives in the same allocation (newCall), filled from the run's
	// template as the hook is entered. Nil in a literal.
	life      *callLife
	hook      int32 // index of the running hook in the chain's list; -1: none
	rewritten bool  // in tool points: a hook replaced the call's arguments
	review    uint8 // the hook's reviews in this call: the last verdict (reviewNone…) and the review bits
}

// Hook returns the name of the running hook ("" in a tool or model call).
func (c *Context) Hook() string {
	if c.hook < 0 || c.run() == nil {
		return ""
	}
	return c.run().chain.names[c.hook]
}

// RunID returns the run's id ("" for a Context made outside a run).
func (c *Context) RunID() string {
	if c.run() == nil {
		return ""
	}
	return c.run().id
}

// ModelCalls returns how many requests this run let through to the model
// (steps without Respond or End) before the current one. In
// AfterModelResponse the call just answered is counted. A model call a
// wrap hook retried, or sent to another model, counts once.
func (c *Context) ModelCalls() int {
	if c.run() == nil {
		return 0
	}
	return int(c.run().modelCalls.Load())
}

// Continuations returns how many model calls in a row, up to and
// including the current one, hooks sent the run on to with Continue
// (ModelResponsePatch.Continue): 0 when the current call answers a user's
// turn (or is the run's first), 1 when it answers the first continuation,
// and so on. It is the run's, whichever hook continued: hooks of several
// settings sets that each bound how often a run may be sent on (Claude
// Code's Stop, Gemini CLI's AfterAgent) read one streak, so that two of
// them cannot keep a run going by taking turns.
func (c *Context) Continuations() int {
	if c.run() == nil {
		return 0
	}
	return int(c.run().continuations.Load())
}

// State returns the running hook's state for this run: what its BeforeRun
// returned or SetState set last, or what a snapshot restored. Nil outside
// a hook.
func (c *Context) State() any {
	if c.hook < 0 || c.run() == nil {
		return nil
	}
	return c.run().state(int(c.hook))
}

// SetState replaces the running hook's state for this run, at any point:
// later calls see it in State, and Run.Snapshot saves it (so it must
// marshal to JSON). Parallel tool calls may set it at once: the last
// writer wins, so a hook that counts should keep its count where updates
// cannot be lost, or accept that two parallel calls may count once. It does
// nothing outside a hook. A JavaScript hook sets it by returning {state}
// from any export.
func (c *Context) SetState(v any) {
	if c.hook < 0 || c.run() == nil {
		return
	}
	c.run().setState(int(c.hook), v)
}

// OriginalCall returns, in tool points, the call as the model asked for it,
// before any hook rewrote its arguments; ok is false in other points.
func (c *Context) OriginalCall() (call ToolCall, ok bool) {
	if c.life == nil {
		return ToolCall{}, false
	}
	return c.life.call, c.life.hasCall
}

// Rewritten reports, in tool points and in a ToolFunc, whether hooks
// changed the call's arguments (in BeforeToolExecute: hooks before this
// one), as ToolStep.Rewritten does. OriginalCall gives the arguments the
// model sent.
func (c *Context) Rewritten() bool {
	return c.rewritten
}

// Memo runs fn once per run, hook and key, and returns its result ever
// after, also after Resume (so work that must happen once, like asking for
// an approval, survives a restart). Concurrent callers of one key wait for
// the first. An error is not kept: the next call runs fn again. The value
// must marshal to JSON for Run.Snapshot.
func (c *Context) Memo(key string, fn func() (any, error)) (any, error) {
	if c.run() == nil {
		return runMemo(fn) // no run to remember it in
	}
	return c.run().memo.do(c, memoKey{hook: c.Hook(), key: key}, fn)
}

// Log writes a line to the host's log, while the hook runs. The arguments
// are formatted as fmt.Sprintln does, without the newline.
func (c *Context) Log(args ...any) {
	line := strings.TrimSuffix(fmt.Sprintln(args...), "\n")
	if c.run() != nil && c.run().host.Log != nil {
		c.run().host.Log(c.Hook(), line)
		return
	}
	slog.InfoContext(c.ctx(), line, "hook", c.Hook(), "run", c.RunID())
}

// Interactive reports whether Confirm and Review can reach a person: the
// host gave a Host.Confirm or a Host.Review. Without either, they answer
// Host.AutoApprove at once, and
// a hook that must not act unattended (an approval policy) can refuse
// instead of taking that answer.
func (c *Context) Interactive() bool {
	return c.run() != nil && (c.run().host.Confirm != nil || c.run().host.Review != nil)
}

// Confirm asks a person and blocks until they answer. Without a
// Host.Confirm it asks Host.Review, and takes a plain approval as a yes
// (an edit or an answer cannot be carried by a yes, so it is a no);
// without either it answers Host.AutoApprove at once. An error from the
// host, or a cancelled context, answers no.
func (c *Context) Confirm(p Prompt) bool {
	if c.run() == nil {
		return false // nobody to ask
	}
	h := &c.run().host
	switch {
	case h.Confirm != nil:
		if c.reviewGone() != nil {
			return false // too late to decide anything: nobody is asked
		}
		ok, err := h.Confirm(c.base(), p)
		if err == nil && ok {
			err = c.reviewGone() // a yes past the deadline is no yes
		}
		return !c.hostFailed("confirm", p.Title, err) && ok
	case h.Review != nil:
		v, err := c.askReview(Review{Prompt: p})
		return err == nil && v.Kind() == ReviewApproved
	}
	return h.AutoApprove
}

// hostFailed reports err, the failure of the host's ask (Confirm or
// Review) of a prompt titled title, and says whether there was one. A
// host that ends the call from its Confirm (to suspend the step until a
// person answers) has not failed: the call returns its cancellation, and
// nothing is reported.
func (c *Context) hostFailed(ask, title string, err error) bool {
	if err == nil {
		return false
	}
	if c.Err() == nil {
		c.run().chain.diagnose(Diagnostic{Hook: c.Hook(), Err: fmt.Errorf("%s %q: %w", ask, title, err)})
	}
	return true
}

// Point returns the point of the call c was made for ("" in a Context
// made outside a run). In a tool or model call and in wrap hooks it is
// WrapToolCall or WrapModelCall.
func (c *Context) Point() Point {
	if c.life == nil {
		return ""
	}
	return c.life.point
}

// Diagnose reports a problem of the running hook that fails nothing (a
// setting it skipped, an answer it could not read) as a Diagnostic naming
// the hook and the point, to the chain's diagnostics (WithDiagnostics).
// It is how a hook kind written outside this package (a dialect of
// command hooks) tells the host what went wrong without failing the run.
// Outside a run it goes to slog.
func (c *Context) Diagnose(err error) {
	if err != nil {
		c.diagnose(c.Point(), err)
	}
}

// diagnose reports a problem of the running hook at p that does not fail
// anything.
func (c *Context) diagnose(p Point, err error) {
	d := Diagnostic{Hook: c.Hook(), Point: p, Err: err}
	if c.run() == nil {
		slog.WarnContext(c.ctx(), "hook diagnostic", "hook", d.Hook, "point", p, "err", err)
		return
	}
	c.run().chain.diagnose(d)
}

// Notify shows a person a notice, without waiting.
func (c *Context) Notify(n Notice) {
	if c.run() != nil && c.run().host.Notify != nil {
		c.run().host.Notify(c.Hook(), n)
		return
	}
	slog.InfoContext(c.ctx(), n.Title, "hook", c.Hook(), "run", c.RunID(), "body", n.Body)
}

// ctx is the call's context, or Background in a Context literal without one.
func (c *Context) ctx() context.Context {
	if c.Context == nil {
		return context.Background()
	}
	return c
}

// base is the context.Context the Context embeds (Background in a literal
// without one). It is what the library hands to work that could outlive the
// hook's call (an interrupt, an HTTP transport, a host's Confirm), which
// should see the host's cancellation, not the end of the call.
func (c *Context) base() context.Context {
	if c.Context == nil {
		return context.Background()
	}
	return c.Context
}
