package hooks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/big"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stateHook is a Go hook whose state and memo a test sets from outside, in
// the run's first tool call.
func stateHook(name string, state any, memo map[string]any) hooks.Funcs {
	return hooks.Funcs{HookName: name,
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			if state != nil {
				c.SetState(state)
			}
			for k, v := range memo {
				if _, err := c.Memo(k, func() (any, error) { return v, nil }); err != nil {
					return nil, err
				}
			}
			return nil, nil
		}}
}

// seenHook records its state and memo results when a tool call reaches it.
type seenHook struct {
	name  string
	keys  []string
	state any
	memo  map[string]any
}

func (s *seenHook) hook() hooks.Funcs {
	return hooks.Funcs{HookName: s.name,
		BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
			s.state, s.memo = c.State(), map[string]any{}
			for _, k := range s.keys {
				v, err := c.Memo(k, func() (any, error) { return "not restored", nil })
				if err != nil {
					return nil, err
				}
				s.memo[k] = v
			}
			return nil, nil
		}}
}

func noTool(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
	return hooks.ToolResult{Text: "ok"}, nil
}

// snapshotAfterOneCall starts a run of the hooks, makes one tool call, and
// returns the run's snapshot (and Snapshot's error).
func snapshotAfterOneCall(t *testing.T, hs ...hooks.Hook) ([]byte, error) {
	t.Helper()
	chain, err := hooks.NewChain(hs)
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{RunID: "r1", Input: "go"})
	require.NoError(t, err)
	_, err = run.CallTool(context.Background(), hooks.ToolCall{ID: "c1", Name: "t"}, noTool)
	require.NoError(t, err)
	return run.Snapshot()
}

// rehydrateAndSee makes the run of snap again in a fresh chain and returns
// what the hook named name sees, and the new run's snapshot.
func rehydrateAndSee(t *testing.T, snap []byte, name string, keys ...string) (*seenHook, []byte) {
	t.Helper()
	seen := &seenHook{name: name, keys: keys}
	chain, err := hooks.NewChain([]hooks.Hook{seen.hook()})
	require.NoError(t, err)
	run, err := chain.Rehydrate(hooks.Host{}, snap)
	require.NoError(t, err, "%s", snap)
	_, err = run.CallTool(context.Background(), hooks.ToolCall{ID: "c2", Name: "t"}, noTool)
	require.NoError(t, err)
	again, err := run.Snapshot()
	require.NoError(t, err)
	return seen, again
}

// An int64 UnixNano kept as a hook's state or memo comes back as the same
// int64 after a hop, not as the float64 1.7672256001234568e+18; a Go
// number at the top of a value keeps its type, and numbers inside maps
// keep their value.
func TestSnapshotKeepsNumbersExactly(t *testing.T) {
	const nano = int64(1767225600123456789)
	state := map[string]any{"started": nano, "calls": 3.0, "big": uint64(math.MaxUint64), "ratio": 0.1,
		"list": []any{nano, -nano, 1e300}}
	memo := map[string]any{"at": nano, "count": 7, "small": uint8(200), "f32": float32(0.1), "neg": int32(-5), "float": 2.5}
	snap, err := snapshotAfterOneCall(t, stateHook("clock", state, memo), stateHook("plain", nano, nil))
	require.NoError(t, err)

	seen, again := rehydrateAndSee(t, snap, "clock", "at", "count", "small", "f32", "neg", "float")
	assert.Equal(t, map[string]any{"started": nano, "calls": 3.0, "big": uint64(math.MaxUint64), "ratio": 0.1,
		"list": []any{nano, -nano, 1e300}}, seen.state)
	assert.Equal(t, memo, seen.memo)

	plain, _ := rehydrateAndSee(t, snap, "plain")
	assert.Equal(t, nano, plain.state, "a top-level int64 comes back an int64")

	seen2, _ := rehydrateAndSee(t, again, "clock", "at", "count", "small", "f32", "neg", "float")
	assert.Equal(t, seen.state, seen2.state, "and again after a second hop")
	assert.Equal(t, seen.memo, seen2.memo)
}

// A number no Go number type holds exactly is refused at Snapshot, with an
// error naming the hook, the key and where in the value it is.
func TestSnapshotRefusesANumberItCannotKeepExactly(t *testing.T) {
	huge, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	_, err := snapshotAfterOneCall(t, stateHook("ledger", map[string]any{"total": json.Number("1.00000000000000000001")}, nil))
	require.Error(t, err)
	assert.ErrorContains(t, err, `state of hook "ledger"`)
	assert.ErrorContains(t, err, ".total")
	assert.ErrorContains(t, err, "1.00000000000000000001")

	_, err = snapshotAfterOneCall(t, stateHook("ledger", nil, map[string]any{"sum": huge}))
	require.Error(t, err)
	assert.ErrorContains(t, err, `memo "sum" of hook "ledger"`)
	assert.ErrorContains(t, err, "123456789012345678901234567890")
}

// A snapshot whose model-call count is MaxInt64 reads back; the count
// saturates on the next call instead of wrapping negative, so the next
// snapshot reads back too.
func TestSnapshotAtMaxModelCallsReadsBack(t *testing.T) {
	snap, err := snapshotAfterOneCall(t)
	require.NoError(t, err)
	doc := decodeDoc(t, snap)
	doc["modelCalls"] = json.Number("9223372036854775807")
	snap, err = json.Marshal(doc)
	require.NoError(t, err)

	chain, err := hooks.NewChain(nil)
	require.NoError(t, err)
	run, err := chain.Rehydrate(hooks.Host{}, snap)
	require.NoError(t, err)
	_, err = run.BeforeModelRequest(context.Background(), hooks.ModelRequest{Messages: []hooks.Message{{Role: "user", Text: "hi"}}})
	require.NoError(t, err)
	next, err := run.Snapshot()
	require.NoError(t, err)
	assert.Contains(t, string(next), `"modelCalls":9223372036854775807`)
	_, err = chain.Resume(context.Background(), hooks.Host{}, next)
	assert.NoError(t, err, "a snapshot the library wrote reads back")
}

// A foreign snapshot whose recorded number type does not fit its value is
// refused, naming the hook.
func TestSnapshotRefusesAMismatchedNumberType(t *testing.T) {
	snap, err := snapshotAfterOneCall(t, stateHook("clock", int8(5), nil))
	require.NoError(t, err)
	doc := decodeDoc(t, snap)
	doc["states"].(map[string]any)["clock"] = 300.0
	bad, err := json.Marshal(doc)
	require.NoError(t, err)
	chain, err := hooks.NewChain([]hooks.Hook{stateHook("clock", nil, nil)})
	require.NoError(t, err)
	_, err = chain.Rehydrate(hooks.Host{}, bad)
	assert.ErrorContains(t, err, `state of hook "clock"`)
	assert.ErrorContains(t, err, "int8")
}

// FuzzSnapshotRoundTrip: whatever numbers and strings a hook keeps,
// Snapshot → Rehydrate gives the same values back (or Snapshot refuses, for
// NaN and infinities, which JSON cannot write, and strings that are not
// UTF-8, which JSON would change), and Snapshot of the
// rehydrated run is the same snapshot.
func FuzzSnapshotRoundTrip(f *testing.F) {
	f.Add(int64(1767225600123456789), uint64(math.MaxUint64), 0.1, float32(0.1), "x", int64(math.MaxInt64))
	f.Add(int64(math.MinInt64), uint64(1)<<53+1, 1e300, float32(3.4e38), "\"\\e", int64(0))
	f.Add(int64(-1)<<53-1, uint64(0), math.SmallestNonzeroFloat64, float32(math.Copysign(0, -1)), "ü", int64(5))
	f.Fuzz(func(t *testing.T, i int64, u uint64, fl float64, f32 float32, s string, calls int64) {
		state := map[string]any{"i": i, "u": u, "f": fl, "s": s, "l": []any{i, u}}
		memo := map[string]any{"i": i, "u": u, "f": fl, "f32": f32, "s": s}
		snap, err := snapshotAfterOneCall(t, stateHook("h", state, memo), stateHook("top", i, nil))
		if math.IsNaN(fl) || math.IsInf(fl, 0) || math.IsNaN(float64(f32)) || math.IsInf(float64(f32), 0) || !utf8.ValidString(s) {
			require.Error(t, err)
			return
		}
		require.NoError(t, err)
		if calls >= 0 {
			doc := decodeDoc(t, snap)
			doc["modelCalls"] = calls
			snap, err = json.Marshal(doc)
			require.NoError(t, err)
		}
		seen, again := rehydrateAndSee(t, snap, "h", "i", "u", "f", "f32", "s")
		wantState := map[string]any{"i": number(i), "u": number(u), "f": fl, "s": s, "l": []any{number(i), number(u)}}
		assert.Equal(t, wantState, seen.state)
		assert.True(t, reflect.DeepEqual(memo, seen.memo), "memo %#v, want %#v", seen.memo, memo)
		top, _ := rehydrateAndSee(t, snap, "top")
		assert.Equal(t, i, top.state)

		_, third := rehydrateAndSee(t, again, "h", "i", "u", "f", "f32", "s")
		assert.JSONEq(t, string(again), string(third), "Snapshot → Rehydrate → Snapshot is the same snapshot")
	})
}

// number is how a number inside a map comes back: a float64 if a float64
// holds it exactly, else an int64 if it fits, else a uint64.
func number[T int64 | uint64](n T) any {
	f := float64(n)
	if f < 1<<63 && f >= -(1<<63) && T(f) == n {
		return f
	}
	if u, ok := any(n).(uint64); ok && u > math.MaxInt64 {
		return u
	}
	return int64(n)
}

// decodeDoc decodes a snapshot to edit it, keeping its numbers as written.
func decodeDoc(t *testing.T, snap []byte) map[string]any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(snap))
	d.UseNumber()
	var doc map[string]any
	require.NoError(t, d.Decode(&doc))
	return doc
}

// A string that is not UTF-8 would come back changed (JSON writes U+FFFD
// for its bad bytes): Snapshot refuses it, naming the hook and the key.
func TestSnapshotRefusesAStringJSONWouldChange(t *testing.T) {
	_, err := snapshotAfterOneCall(t, stateHook("reader", nil, map[string]any{"page": "caf\xe9"}))
	require.Error(t, err)
	assert.ErrorContains(t, err, `memo "page" of hook "reader"`)
	assert.ErrorContains(t, err, "UTF-8")

	_, err = snapshotAfterOneCall(t, stateHook("reader", map[string]any{"note": `a \ufffd written out, and a real �`}, nil))
	assert.NoError(t, err, "a backslash before ufffd, and a real U+FFFD, are kept as they are")
}
