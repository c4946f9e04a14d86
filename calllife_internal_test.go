package hooks

import (
	"context"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A point call is one allocation: its life, then its hooks' Contexts. Its
// size decides how often the garbage collector runs under a busy agent, so
// the life is kept small enough that one Context and the life fill the
// 256-byte size class, and ten Contexts and the life (with the 8-byte
// header the runtime puts on objects past 512 bytes) the 1,792-byte one.
func TestCallLifeStaysSmall(t *testing.T) {
	assert.EqualValues(t, 88, unsafe.Sizeof(callLife{}), "callLife")
	assert.EqualValues(t, 168, unsafe.Sizeof(Context{}), "Context")
	assert.LessOrEqual(t, shapeOf(1).size, uintptr(256), "a call with one hook")
	assert.LessOrEqual(t, shapeOf(10).size+8, uintptr(1792), "a call with ten hooks")
}

// Every shape puts the Contexts where newCall and hookSlots look for
// them, and the Contexts it hands out are the allocation's own, each
// distinct, for small and large numbers of hooks.
func TestCallShapesHoldTheirContexts(t *testing.T) {
	r := emptyChain.newRun(Host{}, "r", "")
	for _, n := range []int{1, 2, 3, 10, 16, 17, 31, 32, 33, 100} {
		s := shapeOf(n)
		require.Same(t, s, shapeOf(n), "a shape is made once per size")
		assert.Equal(t, n, s.n)
		l, slots := r.newCall(BeforeToolExecute, s)
		require.Len(t, slots, n)
		assert.Len(t, l.hookSlots(), n)
		assert.Same(t, &slots[0], &l.hookSlots()[0])
		end := uintptr(unsafe.Pointer(l)) + s.size
		assert.Equal(t, end, uintptr(unsafe.Pointer(&slots[n-1]))+unsafe.Sizeof(Context{}), "n=%d: the last Context ends the allocation", n)
		c := l.enter(&slots[n-1], context.Background(), 0, true)
		assert.Equal(t, BeforeToolExecute, c.Point())
		assert.True(t, c.Rewritten())
		l.end()
		assert.ErrorIs(t, c.Err(), context.Canceled)
	}
}
