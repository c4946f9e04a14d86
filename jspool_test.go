package hooks

import (
	"context"
	"runtime"
	"sync"
	"testing"

	"github.com/dop251/goja"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// poolHook compiles source and starts a run of it alone.
func poolHook(t *testing.T, source string) (*jsHook, *Run) {
	t.Helper()
	h, err := CompileJS("pool", source, func(d Diagnostic) { t.Error(d.Err) })
	require.NoError(t, err)
	chain, err := NewChain([]Hook{h})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), Host{}, RunStart{})
	require.NoError(t, err)
	return h.(*jsHook), run
}

// TestPoolReusesOneRuntimeForSequentialCalls: calls one after another use
// the runtime the load made; none is made in the background.
func TestPoolReusesOneRuntimeForSequentialCalls(t *testing.T) {
	h, run := poolHook(t, `exports.beforeToolExecute = () => undefined;`)
	require.Equal(t, 1, h.idleCount())
	first := h.idle[0]
	for range 5 {
		_, err := run.CallTool(bg, ToolCall{Name: "x"}, noTool)
		require.NoError(t, err)
	}
	require.Equal(t, 1, h.idleCount())
	assert.Same(t, first, h.idle[0])
	assert.Equal(t, 5, first.calls)
}

// TestPoolKeepsAtMostMaxIdle: parallel calls make the runtimes they need,
// and the hook keeps maxIdle of them.
func TestPoolKeepsAtMostMaxIdle(t *testing.T) {
	h, _ := poolHook(t, `exports.beforeToolExecute = () => undefined;`)
	ins := make([]*jsInstance, 3*maxIdle)
	for i := range ins {
		in, err := h.get(bg)
		require.NoError(t, err)
		ins[i] = in
	}
	var wg sync.WaitGroup
	for _, in := range ins {
		wg.Go(func() { h.put(in, bg, nil) })
	}
	wg.Wait()
	assert.Equal(t, maxIdle, h.idleCount())
}

// TestPoolDropsARuntimeAfterMaxCallsOrAnInterrupt: a runtime that served
// maxCalls, or whose call was interrupted or did not end as JavaScript
// ends, is not kept; one whose hook threw is.
func TestPoolDropsARuntimeAfterMaxCallsOrAnInterrupt(t *testing.T) {
	h, _ := poolHook(t, `exports.beforeToolExecute = () => undefined;`)
	in, err := h.get(bg)
	require.NoError(t, err)
	in.calls = maxCalls
	h.put(in, bg, nil)
	assert.Zero(t, h.idleCount(), "served its share")

	in, err = h.get(bg)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(bg)
	cancel()
	h.put(in, ctx, nil)
	assert.Zero(t, h.idleCount(), "its call's context ended")

	in, err = h.get(bg)
	require.NoError(t, err)
	h.put(in, bg, &PanicError{Value: "x"})
	assert.Zero(t, h.idleCount(), "a Go panic")

	js, run := poolHook(t, `exports.beforeToolExecute = () => { throw new Error("no") };`)
	_, err = run.CallTool(bg, ToolCall{Name: "x"}, noTool)
	require.NoError(t, err)
	assert.Equal(t, 1, js.idleCount(), "a throw is JavaScript's own end")
}

var bg = context.Background()

func noTool(*Context, ToolCall) (ToolResult, error) { return ToolResult{}, nil }

// TestPoolDropsARuntimeThatRetainedMemory: a call that left memory only
// the runtime's end gives back (a Symbol.for key, a WeakMap entry keyed by
// a built-in) is the runtime's last; other calls keep it.
func TestPoolDropsARuntimeThatRetainedMemory(t *testing.T) {
	for name, body := range map[string]string{
		"Symbol.for":            `Symbol.for("k" + Math.random())`,
		"WeakMap on a built-in": `new WeakMap().set(Object.prototype, new Array(1000).fill(1))`,
		"WeakSet on a built-in": `new WeakSet().add(Array.prototype)`,
	} {
		t.Run(name, func(t *testing.T) {
			h, run := poolHook(t, `exports.beforeToolExecute = (ctx, call) => { if (call.name === "leak") `+body+`; };`)
			first := h.idle[0]
			_, err := run.CallTool(bg, ToolCall{Name: "x"}, noTool)
			require.NoError(t, err)
			require.Equal(t, 1, h.idleCount())
			assert.Same(t, first, h.idle[0], "kept")
			_, err = run.CallTool(bg, ToolCall{Name: "leak"}, noTool)
			require.NoError(t, err)
			assert.Zero(t, h.idleCount(), "dropped")
		})
	}
	h, run := poolHook(t, `exports.beforeToolExecute = () => { new WeakMap().set({}, 1); };`)
	_, err := run.CallTool(bg, ToolCall{Name: "x"}, noTool)
	require.NoError(t, err)
	assert.Equal(t, 1, h.idleCount(), "a key of the call's own goes with the call")
}

// TestJSMemoryHeldPerHookIsBounded: 10,000 calls of a hook (maxCalls, all
// in one runtime) hold no more than that runtime: the live heap after them
// is within 2 MB of the live heap after the first 100.
func TestJSMemoryHeldPerHookIsBounded(t *testing.T) {
	h, run := poolHook(t, `const seen = new Map();
		exports.beforeToolExecute = (ctx, call) => {
			seen.set(call.id, { call, at: Date.now(), text: "x".repeat(100) });
			const re = /(\w+)\s+(\w+)/g; re.test(call.arguments.command);
			return { arguments: { ...call.arguments, seen: seen.size } };
		};`)
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	call := ToolCall{ID: "1", Name: "shell", Arguments: map[string]any{"command": "ls -la"}}
	var after100 uint64
	for i := range 10_000 {
		if i == 100 {
			after100 = heap()
		}
		_, err := run.CallTool(bg, call, noTool)
		require.NoError(t, err)
	}
	after := heap()
	assert.Zero(t, h.idleCount(), "the runtime served its maxCalls: dropped")
	assert.Less(t, int64(after)-int64(after100), int64(2<<20), "heap grew from %d to %d bytes", after100, after)
}

// TestJSCtxOfAnEndedCallActsForNobody: a ctx kept past its call (were
// anything of a call to run later) throws instead of acting, and never
// acts for the call the runtime serves then.
func TestJSCtxOfAnEndedCallActsForNobody(t *testing.T) {
	h, run := poolHook(t, `exports.beforeToolExecute = () => undefined;`)
	c := run.context(context.Background(), BeforeToolExecute)
	in, err := h.get(c.base())
	require.NoError(t, err)
	var kept *goja.Object
	_, err = in.call(c, h.prog, BeforeToolExecute, func(in *jsInstance) ([]goja.Value, error) {
		kept = in.ctx
		return nil, nil
	})
	require.NoError(t, err)
	require.NotNil(t, kept)
	c2 := run.context(context.Background(), BeforeToolExecute)
	in.cur = c2 // as if another call were running in the runtime now
	defer func() { in.cur = nil }()
	for _, member := range []string{"log", "notify", "confirm", "memo", "state", "workdir", "file", "http"} {
		ex := in.rt.Try(func() {
			v := kept.Get(member)
			if fn, ok := goja.AssertFunction(v); ok {
				_, err := fn(goja.Undefined(), in.rt.ToValue("x"), in.rt.ToValue(func() string { return "y" }))
				if err != nil {
					panic(err)
				}
			}
		})
		if !assert.NotNil(t, ex, member) {
			continue
		}
		assert.Contains(t, ex.Error(), "ctx of a hook call that has ended", member)
	}
}
