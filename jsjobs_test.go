package hooks_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
)

// hostLog records what a run's hooks told its host (Notify and Log).
type hostLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *hostLog) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, s)
}

func (l *hostLog) all() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func (l *hostLog) host() hooks.Host {
	return hooks.Host{
		Notify: func(hook string, n hooks.Notice) { l.add("notify " + n.Title + ": " + n.Body) },
		Log:    func(hook string, line string) { l.add("log " + line) },
	}
}

// jobRoutes are the ways the host runs a hook's code after its export
// returned, while reading what it returned or threw: each queues a
// Promise job (queue) that acts through the call's ctx.
var jobRoutes = map[string]string{
	"getter":          `return { get reason() { queue(); return "r"; } };`,
	"Proxy ownKeys":   `return new Proxy({}, { ownKeys() { queue(); return []; } });`,
	"Proxy get":       `return new Proxy({ reason: "r" }, { get(t, k) { queue(); return t[k]; } });`,
	"Proxy gOPD":      `return new Proxy({ reason: "r" }, { getOwnPropertyDescriptor(t, k) { queue(); return Reflect.getOwnPropertyDescriptor(t, k); } });`,
	"toJSON":          `return { toJSON() { queue(); return {}; } };`,
	"nested toJSON":   `return { arguments: { a: { toJSON() { queue(); return 1; } } } };`,
	"thrown toString": `throw { toString() { queue(); return "boom"; } };`,
	"Error toString":  `const e = new Error("x"); e.toString = () => { queue(); return "boom"; }; throw e;`,
	"rejection stack": `return Promise.reject({ get stack() { queue(); return "s"; } });`,
	"thenable":        `return (async () => ({ then(res) { queue(); res({}); } }))();`,
	"returned then":   `return { then(res) { queue(); res({}); } };`,
}

// jobHook is a hook that, called with a secret, takes route; called
// without, it answers what its ctx.memo holds.
func jobHook(route string) string {
	return `exports.beforeToolExecute = (ctx, call) => {
		const secret = call.arguments.secret;
		if (!secret) return { block: "memo:" + ctx.memo("k", () => "mine") + ":" + ctx.state };
		const queue = () => Promise.resolve().then(() => {
			ctx.notify({ title: "job", body: secret });
			ctx.log("job " + secret);
			ctx.memo("k", () => secret);
		});
		` + route + `
	};`
}

// TestJSPromiseJobsNeverOutliveTheirCall: a Promise job queued while the
// host read what a hook returned or threw runs in that call, or nowhere:
// never in the next call of the runtime, another run's.
func TestJSPromiseJobsNeverOutliveTheirCall(t *testing.T) {
	for name, route := range jobRoutes {
		t.Run(name, func(t *testing.T) {
			var rec recorder
			h, err := hooks.CompileJS("jobs", jobHook(route), rec.diagnose)
			require.NoError(t, err)
			var log1, log2 hostLog
			run1 := startWith(t, &rec, log1.host(), h)
			run2 := startWith(t, &rec, log2.host(), h)
			for range 3 {
				_, err = run1.BeforeToolExecute(bg, hooks.ToolCall{Name: "x", Arguments: map[string]any{"secret": "run-1-secret"}})
				require.NoError(t, err)
				step, err := run2.BeforeToolExecute(bg, hooks.ToolCall{Name: "x"})
				require.NoError(t, err)
				assert.Equal(t, "memo:mine:null", step.Reason, "run 2's memo is its own")
			}
			assert.NotContains(t, log2.all(), "run-1-secret", "run 2's host heard nothing of run 1")
		})
	}
}

// TestJSALoopingLeftoverJobNeverHoldsTheNextCall: a job that loops, queued
// while the host read a hook's return, holds its own call until that
// call's deadline, and the next call (another run's) is not held by it.
func TestJSALoopingLeftoverJobNeverHoldsTheNextCall(t *testing.T) {
	for name, route := range jobRoutes {
		t.Run(name, func(t *testing.T) {
			var rec recorder
			src := strings.Replace(jobHook(route), "ctx.notify({ title: \"job\", body: secret });", "for (;;) {}", 1)
			h, err := hooks.CompileJS("loop", src, rec.diagnose)
			require.NoError(t, err)
			run1 := start(t, &rec, h)
			run2 := start(t, &rec, h)
			ctx1, cancel1 := context.WithTimeout(bg, 100*time.Millisecond)
			defer cancel1()
			_, _ = run1.BeforeToolExecute(ctx1, hooks.ToolCall{Name: "x", Arguments: map[string]any{"secret": "s"}})
			ctx2, cancel2 := context.WithTimeout(bg, 5*time.Second)
			defer cancel2()
			began := time.Now()
			step, err := run2.BeforeToolExecute(ctx2, hooks.ToolCall{Name: "x"})
			require.NoError(t, err, "run 2's call is not held by run 1's job")
			assert.Less(t, time.Since(began), 2*time.Second)
			assert.Equal(t, "memo:mine:null", step.Reason)
		})
	}
}
