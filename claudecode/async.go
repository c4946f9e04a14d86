package claudecode

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/rienda/hooks"
)

// takes reports whether hd runs for this event: its matcher takes one of
// subjects (nil: the event has no matcher), its "if" rule takes the tool
// call (tool events; args nil elsewhere), for a "once" handler it has not
// run in this run yet, and the same handler has not run for this event
// already (inv names the event's occurrence and its input; see
// set.firstOf). The once check comes first: a once copy that does not
// run leaves no record, so it never stands in for an identical copy of
// another set that runs on every call.
func (h *hook) takes(c *hooks.Context, hd *handler, inv string, args map[string]any, subjects ...string) bool {
	return h.take(c, hd, inv, args, hd.once, subjects...)
}

// take is takes, with the once check only when once is true: a once
// guard that judged a call judges it again when a rewrite changed it
// (see guard), since the call that runs must be one it judged.
func (h *hook) take(c *hooks.Context, hd *handler, inv string, args map[string]any, once bool, subjects ...string) bool {
	if subjects != nil && !hd.matcher.matches(subjects...) && (!toolEvents[h.event] || !hd.matcher.takesFolded(c, subjects...)) {
		return false
	}
	if hd.rule != nil && len(subjects) > 0 && !hd.rule.matches(subjects[0], args, c.Workdir) {
		return false // with no Workdir, only a path rule cannot judge: it takes the call (rule.matches)
	}
	if once {
		first := false
		h.set.update(c, func(st *runState) {
			fired := strings.Split(st.Fired, "\n")
			if !slices.Contains(fired, hd.where) {
				first = true
				st.Fired = strings.TrimPrefix(st.Fired+"\n"+hd.where, "\n")
			}
		})
		if !first {
			return false
		}
	}
	return h.set.firstOf(c, h.event+"\x00"+inv+"\x00"+hd.key())
}

// background is a run's async handlers, in one settings set: they run
// under ctx, which the run's end cancels (killing what is still running
// with what it started) before waiting for them, so none outlives the
// run. What they leave for the model and the host waits here for the
// next model request.
type background struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	added   []string       // additionalContext and systemMessage, for the next request
	notes   []error        // failures and what was ignored, for the chain's diagnostics
	notices []hooks.Notice // systemMessage, for the host
}

// spawn runs hd with in in the background: the call goes on at once. As
// Claude Code documents it, an async handler cannot block or decide;
// its additionalContext or systemMessage reaches the model at the next
// model request, and the rest of its output is ignored.
func (h *hook) spawn(c *hooks.Context, hd *handler, in input) {
	job, err := hd.job(c, in)
	if err != nil {
		c.Diagnose(hd.fail(err))
		return
	}
	bg := h.set.backgroundOf(c)
	bg.wg.Go(func() {
		r := job(bg.ctx)
		if r.err != nil && bg.ctx.Err() != nil {
			bg.note(hd.fail(context.Cause(bg.ctx)))
			return
		}
		bg.keep(h.event, hd, r)
	})
}

// backgroundOf returns the run's background, made at first use; its
// context keeps the host's values without its cancellation, which would
// otherwise end a handler the moment the call that started it returns.
func (s *set) backgroundOf(c *hooks.Context) *background {
	if b, ok := s.asyncs.Load(c.RunID()); ok {
		return b.(*background)
	}
	var parent context.Context = c
	if c.Context != nil {
		parent = c.Context
	}
	ctx, cancel := context.WithCancelCause(context.WithoutCancel(parent))
	b := &background{ctx: ctx, cancel: func() { cancel(errRunEnded) }}
	if prev, loaded := s.asyncs.LoadOrStore(c.RunID(), b); loaded {
		cancel(nil)
		return prev.(*background)
	}
	return b
}

// errRunEnded is why an async handler still running at the run's end was
// killed.
var errRunEnded = &runEnded{}

type runEnded struct{}

func (*runEnded) Error() string { return "the run ended while it ran: killed with what it started" }

// note keeps a failure for the next diagnostics.
func (b *background) note(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.notes = append(b.notes, err)
}

// keep keeps what an async handler's output has for the model and the
// host.
func (b *background) keep(event string, hd *handler, r result) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if r.err != nil {
		b.notes = append(b.notes, r.err)
		return
	}
	b.notes = append(b.notes, r.notes...)
	if r.out == nil {
		return
	}
	if text := cut(r.out.HookSpecificOutput.AdditionalContext); text != "" {
		b.added = append(b.added, text)
	}
	if msg := cut(r.out.SystemMessage); msg != "" {
		b.added = append(b.added, msg)
		b.notices = append(b.notices, hooks.Notice{Title: "Claude Code hook (" + event + ", async)", Body: msg})
	}
}

// drain hands what the run's async handlers left since the last drain to
// c (diagnostics, notices) and returns the text for the model.
func (s *set) drain(c *hooks.Context) string {
	v, ok := s.asyncs.Load(c.RunID())
	if !ok {
		return ""
	}
	b := v.(*background)
	b.mu.Lock()
	added, notes, notices := b.added, b.notes, b.notices
	b.added, b.notes, b.notices = nil, nil, nil
	b.mu.Unlock()
	for _, n := range notes {
		c.Diagnose(n)
	}
	for _, n := range notices {
		c.Notify(n)
	}
	return strings.Join(added, "\n\n")
}

// endBackground kills the run's async handlers still running, waits for
// them, and reports what they left.
func (s *set) endBackground(c *hooks.Context) {
	v, ok := s.asyncs.Load(c.RunID())
	if !ok {
		return
	}
	b := v.(*background)
	b.cancel()
	b.wg.Wait()
	s.drain(c)
	s.asyncs.Delete(c.RunID())
}
