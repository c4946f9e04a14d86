package hooks

import (
	"context"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// callLife is the life of one point call, shared by the Contexts the call
// hands to hooks, tools and models. A Context is never recycled: user code
// may keep it (a goroutine, a client that finishes in the background), and
// once the call has returned the kept Context reports that end, as a
// context.Context whose call is over should: Err is context.Canceled (or
// the call's own error) and Done is closed. It never answers for another
// call, and never panics.
//
// A callLife is always made by newCall, followed in the same allocation
// by the Contexts of the hooks the call may enter (see callShape): so a
// point call costs one allocation whatever the number of its hooks. Its
// fields are ordered to keep it at 88 bytes, so that with one Context it
// fits the 256-byte size class and with ten the 1,792-byte one
// (TestCallLifeStaysSmall).
type callLife struct {
	ended atomic.Bool              // the call has returned
	slots int32                    // how many hook Contexts follow the life (forHook's bound)
	done  atomic.Pointer[callDone] // made on the first Done
	run   *Run
	point Point
	call  ToolCall // in tool points: the call as the model asked for it

	hasCall bool
	// open is, in a BeforeToolExecute walk, the list place + 1 of the hook
	// running now (0: none), whose reviews decide the call; reviewLock is
	// set while one of them is being recorded. A review from a goroutine
	// the hook left behind finds its hook closed and decides nothing
	// (review.go). It sits in the padding after hasCall.
	open atomic.Uint32
}

// callDone is the context.Context a call's Done channel is taken from,
// made on demand: most calls never ask, and a cancelable context per call
// would cost every call an allocation and a registration.
type callDone struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// callShape is one allocation of a point call: its callLife, then n
// Contexts. Go has no struct with an array of a length known only at run
// time, so the allocation's type is one of callOf's instances for the
// common sizes (new of a type the compiler knows), and made with reflect
// past them; the Contexts are reached by their offset, the same for every
// n.
type callShape struct {
	n     int
	size  uintptr               // the allocation's
	alloc func() unsafe.Pointer // a new zero allocation
}

// callOf is the allocation of a call whose Contexts are the array A.
type callOf[A any] struct {
	life  callLife
	slots A
}

// allocOf allocates a callOf[A].
func allocOf[A any]() unsafe.Pointer { return unsafe.Pointer(new(callOf[A])) }

// slotsOffset is where a shape's Contexts begin: right after the life.
var slotsOffset = unsafe.Offsetof(callOf[[1]Context]{}.slots)

// compiledShapes are callOf's instances for calls of up to 16 hooks, by n.
var compiledShapes = [...]struct {
	alloc func() unsafe.Pointer
	size  uintptr
}{
	{},
	{allocOf[[1]Context], unsafe.Sizeof(callOf[[1]Context]{})},
	{allocOf[[2]Context], unsafe.Sizeof(callOf[[2]Context]{})},
	{allocOf[[3]Context], unsafe.Sizeof(callOf[[3]Context]{})},
	{allocOf[[4]Context], unsafe.Sizeof(callOf[[4]Context]{})},
	{allocOf[[5]Context], unsafe.Sizeof(callOf[[5]Context]{})},
	{allocOf[[6]Context], unsafe.Sizeof(callOf[[6]Context]{})},
	{allocOf[[7]Context], unsafe.Sizeof(callOf[[7]Context]{})},
	{allocOf[[8]Context], unsafe.Sizeof(callOf[[8]Context]{})},
	{allocOf[[9]Context], unsafe.Sizeof(callOf[[9]Context]{})},
	{allocOf[[10]Context], unsafe.Sizeof(callOf[[10]Context]{})},
	{allocOf[[11]Context], unsafe.Sizeof(callOf[[11]Context]{})},
	{allocOf[[12]Context], unsafe.Sizeof(callOf[[12]Context]{})},
	{allocOf[[13]Context], unsafe.Sizeof(callOf[[13]Context]{})},
	{allocOf[[14]Context], unsafe.Sizeof(callOf[[14]Context]{})},
	{allocOf[[15]Context], unsafe.Sizeof(callOf[[15]Context]{})},
	{allocOf[[16]Context], unsafe.Sizeof(callOf[[16]Context]{})},
}

var (
	smallShapes [32]atomic.Pointer[callShape] // by n: the common sizes, found without a lock
	largeShapes sync.Map                      // n → *callShape, past them
)

// shapeOf returns the shape of a call with n hook Contexts (n ≥ 1).
func shapeOf(n int) *callShape {
	if n < len(smallShapes) {
		if s := smallShapes[n].Load(); s != nil {
			return s
		}
	} else if s, ok := largeShapes.Load(n); ok {
		return s.(*callShape)
	}
	s := &callShape{n: n}
	if n < len(compiledShapes) {
		s.alloc, s.size = compiledShapes[n].alloc, compiledShapes[n].size
	} else {
		typ := reflect.StructOf([]reflect.StructField{
			{Name: "Life", Type: reflect.TypeFor[callLife]()},
			{Name: "Slots", Type: reflect.ArrayOf(n, reflect.TypeFor[Context]())},
		})
		if typ.Field(1).Offset != slotsOffset {
			panic("hooks: a call's Contexts are not where newCall looks for them") // a layout the tests would catch
		}
		s.alloc = func() unsafe.Pointer { return reflect.New(typ).UnsafePointer() }
		s.size = typ.Size()
	}
	if n < len(smallShapes) {
		smallShapes[n].Store(s)
	} else {
		largeShapes.Store(n, s)
	}
	return s
}

// newCall allocates one point call at p of run r: its life, and after it,
// in the same allocation, the Contexts of the call's hooks (shape.n of
// them, all zero until forHook or enter fills one).
func (r *Run) newCall(p Point, shape *callShape) (*callLife, []Context) {
	base := shape.alloc()
	l := (*callLife)(base)
	l.run, l.point, l.slots = r, p, int32(shape.n)
	return l, unsafe.Slice((*Context)(unsafe.Add(base, slotsOffset)), shape.n)
}

// callSite is what a point's walk keeps of its call: the context the
// host passed, the call's life and its hooks' Contexts. A walk holds it by
// pointer, so that handing a hook a Context made from it does not move
// the walk's own state (the caller's step) to the heap: escape analysis
// does not tell one field of a struct from another.
type callSite struct {
	ctx   context.Context
	life  *callLife
	slots []Context // the hooks' Contexts, by their place in the point's list
}

// hookSlots returns the Contexts that follow l in its allocation.
func (l *callLife) hookSlots() []Context {
	return unsafe.Slice((*Context)(unsafe.Add(unsafe.Pointer(l), slotsOffset)), l.slots)
}

// enter fills d, a Context of the call's allocation, for the hook at list
// index: the run's fields as the run's template has them, the call's
// context and life. Each hook gets its own, so that a hook that keeps it
// never sees another hook's name or state, nor a change made after it
// returned.
func (l *callLife) enter(d *Context, ctx context.Context, index int, rewritten bool) *Context {
	*d = l.run.template
	d.Context, d.life, d.hook, d.rewritten = ctx, l, int32(index), rewritten
	return d
}

// run returns the run c belongs to, or nil for a Context made outside one.
func (c *Context) run() *Run {
	if c.life == nil {
		return nil
	}
	return c.life.run
}

// end marks the call over and closes Done for whoever asked for it. Most
// calls are never asked: they pay an atomic store and load, no lock. The
// stores and loads of ended and done are sequentially consistent, so of
// end and a concurrent first Done at least one sees the other's store and
// cancels (cancelling twice does nothing more).
func (l *callLife) end() {
	l.ended.Store(true)
	if d := l.done.Load(); d != nil {
		d.cancel()
	}
}

// Err returns the call's context's error, or context.Canceled once the
// call has returned.
func (c *Context) Err() error {
	if err := c.base().Err(); err != nil {
		return err
	}
	if c.life != nil && (c.life.ended.Load() || c.life.outlived()) {
		return context.Canceled
	}
	return nil
}

// outlived reports whether the call is of a child run whose life has
// ended (Run.Child): the run, its parent, or the context it was started
// with ended. AfterRun's calls are not: an ended run is still audited.
func (l *callLife) outlived() bool {
	if l.run == nil || l.point == AfterRun {
		return false
	}
	f := l.run.family.Load()
	return f != nil && f.stop != nil && l.run.childGone(f) != nil
}

// childStop is the life of the child run the call is of, or nil.
func (l *callLife) childStop() context.Context {
	if l.run == nil || l.point == AfterRun {
		return nil
	}
	if f := l.run.family.Load(); f != nil {
		return f.stop
	}
	return nil
}

// Done returns a channel closed when the call's context is done or the
// call has returned, whichever comes first.
func (c *Context) Done() <-chan struct{} {
	l := c.life
	if l == nil {
		return c.base().Done()
	}
	if d := l.done.Load(); d != nil {
		return d.ctx.Done()
	}
	ctx, cancel := context.WithCancel(c.base())
	if stop := l.childStop(); stop != nil { // a child run's call is done when the child's life is
		unhook := context.AfterFunc(stop, cancel)
		cancelCtx := cancel
		cancel = func() { unhook(); cancelCtx() }
	}
	if !l.done.CompareAndSwap(nil, &callDone{ctx: ctx, cancel: cancel}) {
		cancel() // another Done was first: its context is the call's
		return l.done.Load().ctx.Done()
	}
	if l.ended.Load() {
		cancel()
	}
	return ctx.Done()
}

// Deadline returns the call's context's deadline.
func (c *Context) Deadline() (time.Time, bool) { return c.base().Deadline() }

// Value returns the call's context's value for key.
func (c *Context) Value(key any) any { return c.base().Value(key) }
