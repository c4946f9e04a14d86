package hooks

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRefillPolicy: when a call starts a refill, and when calls that come
// back to back stop refilling until a pause.
func TestRefillPolicy(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		fromPool, spaced, dry bool
		ready                 int
		wantDry, wantRefill   bool
	}{
		{name: "ready, spaced, plenty left", fromPool: true, spaced: true, ready: lowWater + 1},
		{name: "ready, spaced, down to the low water", fromPool: true, spaced: true, ready: lowWater, wantRefill: true},
		{name: "ready, back to back, low, not dry", fromPool: true, ready: 0, wantRefill: true},
		{name: "ready, back to back, low, dry", fromPool: true, dry: true, ready: 0, wantDry: true},
		{name: "a pause ends a dry spell", fromPool: true, spaced: true, dry: true, ready: 1, wantRefill: true},
		{name: "none ready after a pause", spaced: true, dry: true, wantRefill: true},
		{name: "none ready, back to back: dry, no refill", ready: 0, wantDry: true},
		{name: "none ready, back to back, already dry", dry: true, wantDry: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dry, refill := refillPolicy(tc.fromPool, tc.spaced, tc.dry, tc.ready)
			assert.Equal(t, tc.wantDry, dry, "dry")
			assert.Equal(t, tc.wantRefill, refill, "refill")
		})
	}
}

// TestPoolTakeAndDone: a pool hands out its prepared runtimes newest
// first, makes one cold when empty, refills to its share after a call
// that asked for it, and never holds more than its share.
func TestPoolTakeAndDone(t *testing.T) {
	made := 0
	newInstance := func(context.Context) (*jsInstance, error) { made++; return &jsInstance{}, nil }
	p := &jsPool{prepare: newInstance, timeout: evalTimeout}
	first, second := &jsInstance{}, &jsInstance{}
	require.True(t, p.ready.put(first))
	require.True(t, p.ready.put(second))

	in, refill, err := p.take(func() (*jsInstance, error) { t.Fatal("a runtime was ready"); return nil, nil })
	require.NoError(t, err)
	assert.Same(t, second, in, "newest first")
	assert.True(t, refill, "down to the low water after a pause (the first call)")
	p.done(refill)
	p.refills.Wait()
	assert.Equal(t, prepared, p.ready.len(), "refilled to its share")
	assert.Equal(t, prepared-1, made)

	for range prepared {
		assert.NotNil(t, p.ready.get())
	}
	cold := &jsInstance{}
	in, _, err = p.take(func() (*jsInstance, error) { return cold, nil })
	require.NoError(t, err)
	assert.Same(t, cold, in, "none ready: the call makes its own")

	boom := errors.New("boom")
	_, refill, err = p.take(func() (*jsInstance, error) { return nil, boom })
	assert.ErrorIs(t, err, boom)
	assert.False(t, refill)

	for range prepared {
		p.ready.put(&jsInstance{})
	}
	assert.False(t, p.ready.put(&jsInstance{}), "never more than its share")
}
