package hooktest

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/rienda/hooks"
)

// recorder is the recording side of the Host and the chain.
type recorder struct {
	mu      sync.Mutex
	answers []bool
	host    hooks.Host // the test's own: its Confirm, Notify and Log are called after recording
	diags   []hooks.Diagnostic
	logs    []string
	notices []hooks.Notice
	prompts []hooks.Prompt
	events  []hooks.TraceEvent

	verdicts []hooks.Verdict // Review's scripted answers not yet given
	scripted int             // how many the test scripted
	reviews  []hooks.Review
	fail     func(error) // fails the test, when there is one
}

type recording struct {
	diags   []hooks.Diagnostic
	logs    []string
	notices []hooks.Notice
	prompts []hooks.Prompt
	reviews []hooks.Review
}

func (r *recorder) get() recording {
	r.mu.Lock()
	defer r.mu.Unlock()
	return recording{append([]hooks.Diagnostic(nil), r.diags...), append([]string(nil), r.logs...),
		append([]hooks.Notice(nil), r.notices...), append([]hooks.Prompt(nil), r.prompts...),
		append([]hooks.Review(nil), r.reviews...)}
}

func (r *recorder) confirm(ctx context.Context, p hooks.Prompt) (bool, error) {
	r.mu.Lock()
	r.prompts = append(r.prompts, p)
	if len(r.answers) > 0 {
		answer := r.answers[0]
		r.answers = r.answers[1:]
		r.mu.Unlock()
		return answer, nil
	}
	r.mu.Unlock()
	if r.host.Confirm != nil {
		return r.host.Confirm(ctx, p) // unlocked: it may wait for a person
	}
	return r.host.AutoApprove, nil
}

// review answers a Review: the next scripted verdict, else the next
// answer, else the test's host; a script run out is an error.
func (r *recorder) review(ctx context.Context, rv hooks.Review) (hooks.Verdict, error) {
	r.mu.Lock()
	r.prompts = append(r.prompts, rv.Prompt)
	r.reviews = append(r.reviews, rv)
	switch {
	case len(r.verdicts) > 0:
		v := r.verdicts[0]
		r.verdicts = r.verdicts[1:]
		r.mu.Unlock()
		return v, nil
	case len(r.answers) > 0:
		answer := r.answers[0]
		r.answers = r.answers[1:]
		r.mu.Unlock()
		return hooks.Verdict{Approved: answer}, nil
	}
	scripted, fail := r.scripted, r.fail
	r.mu.Unlock()
	switch {
	case r.host.Review != nil:
		return r.host.Review(ctx, rv) // unlocked: it may wait for a person
	case scripted > 0:
		err := fmt.Errorf("review %q was asked, and no scripted verdict is left (Options.Verdicts had %d)", rv.Prompt.Title, scripted)
		if fail != nil {
			fail(err)
		}
		return hooks.Verdict{}, err
	case r.host.Confirm != nil:
		ok, err := r.host.Confirm(ctx, rv.Prompt)
		return hooks.Verdict{Approved: ok}, err
	}
	return hooks.Verdict{Approved: r.host.AutoApprove}, nil
}

func (r *recorder) setFail(fn func(error)) {
	r.mu.Lock()
	r.fail = fn
	r.mu.Unlock()
}

func (r *recorder) notify(hook string, n hooks.Notice) {
	r.mu.Lock()
	r.notices = append(r.notices, n)
	r.mu.Unlock()
	if r.host.Notify != nil {
		r.host.Notify(hook, n)
	}
}

func (r *recorder) log(hook, line string) {
	r.mu.Lock()
	r.logs = append(r.logs, hook+": "+line)
	r.mu.Unlock()
	if r.host.Log != nil {
		r.host.Log(hook, line)
	}
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
		lines[i] = fmt.Sprintf("  %s %s: %s", e.Hook, e.Point, e)
	}
	return strings.Join(lines, "\n")
}
