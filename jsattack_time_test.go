package hooks

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// timeRoutes are returns of beforeToolExecute whose reading by the host
// runs hook code that never ends: the host's reads (a getter found only
// by the refusal's second look, a thenable's then, toJSON, a Proxy trap, a
// Promise job) are bounded by the call's deadline like the export itself.
var timeRoutes = map[string]string{
	"inherited getter that loops":  `class D { get allow() { for (;;); } } return new D();`,
	"thenable whose then loops":    `return { then() { for (;;); } };`,
	"thenable getter that loops":   `return { get then() { for (;;); } };`,
	"toJSON that loops":            `return { toJSON() { for (;;); } };`,
	"Proxy get that loops":         `return new Proxy({}, { get() { for (;;); } });`,
	"a job that loops":             `Promise.resolve().then(() => { for (;;); }); return { allow: true };`,
	"a job queued by the getter":   `return { get allow() { Promise.resolve().then(() => { for (;;); }); return true; } };`,
	"a job that requeues itself":   `const f = () => Promise.resolve().then(f); f(); return { allow: true };`,
	"a getter flipping under load": `let n = 0; return { get allow() { return n++ % 2 === 0; } };`,
}

// TestJSAttackTimeReadsAreBounded: each route comes back within its
// deadline (plus attackSlack), and the next call of the hook, with no
// deadline, is served cleanly: nothing of the stopped call runs in it.
func TestJSAttackTimeReadsAreBounded(t *testing.T) {
	if !inChild(t) {
		return
	}
	for name, route := range timeRoutes {
		t.Run(name, func(t *testing.T) {
			var diags diagnostics
			h := chaosJS(t, `exports.beforeToolExecute = (ctx, call) => {
				if (call.name === "plain") return { block: "plain " + (typeof late) };
				`+route+`
			};`, &diags)
			run := chaosRun(t, Host{}, &diags, h)
			ctx, cancel := context.WithTimeout(context.Background(), attackDeadline)
			defer cancel()
			start := time.Now()
			_, _ = run.BeforeToolExecute(ctx, ToolCall{Name: "x"})
			assert.Less(t, time.Since(start), attackDeadline+attackSlack, "the call outlived its deadline")

			step, err := run.BeforeToolExecute(context.Background(), ToolCall{Name: "plain"})
			require.NoError(t, err)
			assert.Equal(t, "plain undefined", step.Reason)
		})
	}
}

// TestJSAttackCancelledContextRunsNothing: under a context cancelled
// before the call, the hook's code does not run (no ctx.log reaches the
// host), and the call says so.
func TestJSAttackCancelledContextRunsNothing(t *testing.T) {
	var diags diagnostics
	logged := make(chan string, 8)
	h := chaosJS(t, `ctx_seen = 1; exports.beforeToolExecute = (ctx) => { ctx.log("ran"); return { allow: true }; };`, &diags)
	run := chaosRun(t, Host{Log: func(_, line string) { logged <- line }}, &diags, h)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	step, err := run.BeforeToolExecute(ctx, ToolCall{Name: "x"})
	assert.Error(t, err, "a cancelled call is no allow")
	assert.False(t, step.Refused && err == nil)
	assert.Empty(t, logged)
}
