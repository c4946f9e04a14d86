package claudecode_test

import (
	"context"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"go.uber.org/goleak"
)

var bg = context.Background()

// TestMain checks that no test leaves a goroutine of this package, or of
// the library under it, running; but regexp2's timeout clock, which an
// ECMAScript-only matcher starts and which ends by itself about a second
// after its last match (the exception the Guarantees name; see
// TestMatchersStartNoGoroutine).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/dlclark/regexp2.runClock"))
}

// recorder keeps what tools ran and what the chain diagnosed.
type recorder struct {
	mu    sync.Mutex
	calls []string
	diags []hooks.Diagnostic
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, s)
}

func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

func (r *recorder) diagnose(d hooks.Diagnostic) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.diags = append(r.diags, d)
}

func (r *recorder) diagnostics() []hooks.Diagnostic {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hooks.Diagnostic(nil), r.diags...)
}

// echoTool records its call and answers its "text" argument.
func echoTool(rec *recorder) hooks.ToolFunc {
	return func(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
		rec.add("tool:" + call.Name)
		text, _ := call.Arguments["text"].(string)
		return hooks.ToolResult{Text: text}, nil
	}
}
