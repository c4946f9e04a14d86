package claudecode

import (
	"fmt"
	"strings"
	"time"

	"github.com/rienda/hooks"
)

// startKey names a tool call of a run for duration_ms.
func startKey(c *hooks.Context, call hooks.ToolCall) string {
	return fmt.Sprint(c.RunID(), "\x00", c.ModelCalls(), "\x00", call.ID, "\x00", call.Name)
}

// stopClock turns the time a call went to its tool into its duration, in
// milliseconds, for the set's PostToolUse(Failure) handlers, which run
// after the set's last hook at AfterToolExecute (reverse list order).
func (s *set) stopClock(c *hooks.Context, call hooks.ToolCall) {
	if t, ok := s.started.LoadAndDelete(startKey(c, call)); ok {
		s.started.Store(startKey(c, call)+"\x00ms", time.Since(t.(time.Time)).Milliseconds())
	}
}

// duration is duration_ms of a call (Claude Code v2.1.119: the tool's own
// time, without PreToolUse hooks or a permission prompt): from this set's
// last hook before the tool to its first after it, so the hooks of other
// sets listed after this one count too. Nil when unknown (a call the
// set's last hook did not see go to its tool, a run restored between the
// two). The one hook that runs handlers for the result takes it; what a
// refused call or an unread result leaves is dropped at the run's end
// (forgetClocks).
func (s *set) duration(c *hooks.Context, call hooks.ToolCall) *int64 {
	v, ok := s.started.LoadAndDelete(startKey(c, call) + "\x00ms")
	if !ok {
		return nil
	}
	ms := v.(int64)
	return &ms
}

// forgetClocks drops what duration_ms kept of a run that ended.
func (s *set) forgetClocks(c *hooks.Context) {
	prefix := c.RunID() + "\x00"
	s.started.Range(func(k, _ any) bool {
		if strings.HasPrefix(k.(string), prefix) {
			s.started.Delete(k)
		}
		return true
	})
}
