package claudecode

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/rienda/hooks"
)

// runs holds, by run id, the handlers run in a run that a later settings
// set may find it need not run: Claude Code runs an identical handler
// once, however many settings files (user, project, local) list it, and
// so does a chain built from their Hooks. A handler run by one set is
// recorded, with the occurrence of the event it ran for (a tool call's
// id, name and arguments; a model call's count), while more than one set
// takes part in the run; another set about to run an identical handler
// for the same occurrence takes the record and skips it. A set never
// skips on its own record, so a handler is skipped only when an
// identical one ran on the same input. An entry lives from a set's first
// use to the last set's AfterRun.
var runs sync.Map // run id -> *ran

// ran is one run's record.
type ran struct {
	mu   sync.Mutex
	seen map[string][]*set // the sets that ran a handler for an occurrence, not yet taken
	sets map[*set]bool     // the sets taking part
}

// key is what makes two handlers the same: their type and what they run,
// and what they can decide. A copy that cannot decide as this one does
// must not stand in for it: an async copy decides nothing, a fail-open
// copy that fails lets the call through where a failClosed one refuses,
// and a shorter timeout fails where a longer one decides. So the failure
// policy, async and the timeout are part of the key; "once" is not, since
// a once copy records only when it actually runs (see hook.takes).
func (h *handler) key() string {
	power := fmt.Sprintf("\x00failClosed=%t\x00async=%t\x00timeout=%d", h.failClosed, h.async, h.timeout)
	if h.http != nil {
		headers := make([]string, 0, len(h.http.headers))
		for k, v := range h.http.headers {
			headers = append(headers, k+"="+v)
		}
		sort.Strings(headers)
		return "http\x00" + h.http.url + "\x00" + strings.Join(headers, "\x00") + "\x00" + strings.Join(h.http.allowed, "\x00") + power
	}
	if h.prompt != nil {
		return "prompt\x00" + h.prompt.model + "\x00" + h.prompt.text + power
	}
	return "command\x00" + strings.Join(h.argv, "\x00") + power
}

// join records that s takes part in the run, so that the sets before it
// start recording.
func (s *set) join(c *hooks.Context) *ran {
	v, _ := runs.LoadOrStore(c.RunID(), &ran{seen: map[string][]*set{}, sets: map[*set]bool{}})
	r := v.(*ran)
	r.mu.Lock()
	r.sets[s] = true
	r.mu.Unlock()
	return r
}

// firstOf reports whether s should run the handler of key for this
// occurrence: false when another set ran an identical one for it.
func (s *set) firstOf(c *hooks.Context, key string) bool {
	if c.RunID() == "" {
		return true
	}
	r := s.join(c)
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, by := range r.seen[key] {
		if by != s {
			r.seen[key] = append(r.seen[key][:i:i], r.seen[key][i+1:]...)
			if len(r.seen[key]) == 0 {
				delete(r.seen, key)
			}
			return false
		}
	}
	if len(r.sets) > 1 {
		r.seen[key] = append(r.seen[key], s)
	}
	return true
}

// leave forgets this set's part in the run's record, and the record once
// no set takes part.
func (s *set) leave(c *hooks.Context) {
	v, ok := runs.Load(c.RunID())
	if !ok {
		return
	}
	r := v.(*ran)
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.sets, s)
	if len(r.sets) == 0 {
		runs.CompareAndDelete(c.RunID(), r)
	}
}
