package hooks

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/rienda/hooks/internal/suggest"
)

// Option configures a Chain (see NewChain).
type Option interface{ apply(*options) }

type options struct {
	diagnostics func(Diagnostic)
	listOrder   bool
	trace       func(TraceEvent)
}

type optionFunc func(*options)

func (f optionFunc) apply(o *options) { f(o) }

// WithDiagnostics sends the chain's diagnostics to fn instead of slog. fn
// is called from the goroutine of the failing hook's call, so it must be
// safe for concurrent use.
func WithDiagnostics(fn func(Diagnostic)) Option {
	return optionFunc(func(o *options) { o.diagnostics = fn })
}

// InListOrder runs the after-points (AfterModelResponse, AfterToolExecute,
// AfterRun) and the stream hooks in list order too, instead of the
// default reverse order.
func InListOrder() Option {
	return optionFunc(func(o *options) { o.listOrder = true })
}

// entry is one hook at one point: its handler, its place in the list, and
// its error policy.
type entry[H any] struct {
	h      H
	index  int
	policy Policy
}

// Chain is an ordered list of hooks, sorted by point once, when it is
// built. A Chain is immutable and safe for any number of concurrent runs;
// the zero Chain (and a nil *Chain) has no hooks.
type Chain struct {
	hooks []Hook
	names []string
	opts  options

	beforeRun   []entry[BeforeRunHook]
	afterRun    []entry[AfterRunHook] // in execution order
	beforeModel []entry[BeforeModelRequestHook]
	afterModel  []entry[AfterModelResponseHook] // in execution order
	beforeTool  []entry[BeforeToolExecuteHook]
	afterTool   []entry[AfterToolExecuteHook] // in execution order
	wrapTool    []entry[WrapToolHook]         // outermost first
	wrapModel   []entry[WrapModelHook]        // outermost first
	stream      []entry[StreamHook]           // in execution order, as the after-points

	wrapToolNames, wrapModelNames []string // for the diagnostic of a host that skips the wraps
	// Trust: the hooks that may deny decide first, then the others
	// recommend (Chain.DecideTrust); each list in list order.
	trustDeciders     []entry[TrustDeciderHook]
	trustRecommenders []entry[BeforeTrustDecisionHook]
}

// NewChain builds a chain from hooks, in list order. It fails, naming the
// hook, for a nil hook, an empty or duplicate name, and a hook whose type
// handles no point (almost always a typo in a method name) unless it is a
// Funcs or a PointHandler.
func NewChain(hooks []Hook, opts ...Option) (*Chain, error) {
	c := &Chain{hooks: append([]Hook(nil), hooks...), names: make([]string, len(hooks))}
	for _, o := range opts {
		o.apply(&c.opts)
	}
	seen := make(map[string]int, len(hooks))
	for i, h := range hooks {
		name, err := c.register(i, h)
		if err != nil {
			return nil, err
		}
		if j, dup := seen[name]; dup {
			return nil, fmt.Errorf("hooks: duplicate hook name %q (#%d and #%d)", name, j, i)
		}
		seen[name] = i
	}
	if !c.opts.listOrder {
		slices.Reverse(c.afterRun)
		slices.Reverse(c.afterModel)
		slices.Reverse(c.afterTool)
		slices.Reverse(c.stream) // stream hooks layer as the after-hooks do: the first listed sees the final text
	}
	observersLast(c.stream)
	observersLast(c.afterRun)
	observersLast(c.afterModel)
	observersLast(c.afterTool)
	c.wrapToolNames, c.wrapModelNames = wrapNames(c, c.wrapTool), wrapNames(c, c.wrapModel)
	return c, nil
}

// ObserverHook is a hook that only watches the after-points it handles and
// must see what the model or the run finally got, whatever its place in
// the list: an audit log, the advisory command events ("the post hook
// observes the final result"). When ObservesFinal reports true, NewChain
// runs it after every other hook of each after-point (AfterModelResponse,
// AfterToolExecute, AfterRun) and of the stream (StreamHook), keeping the
// list order among observers.
// Its patches still apply, but nothing runs after them.
type ObserverHook interface {
	Hook
	ObservesFinal() bool
}

// observersLast moves the observers of an after-point's execution order to
// its end, keeping the order of the rest and of the observers.
func observersLast[H any](list []entry[H]) {
	isObserver := func(e entry[H]) bool {
		o, ok := any(e.h).(ObserverHook)
		return ok && o.ObservesFinal()
	}
	slices.SortStableFunc(list, func(a, b entry[H]) int {
		switch oa, ob := isObserver(a), isObserver(b); {
		case oa == ob:
			return 0
		case oa:
			return 1
		}
		return -1
	})
}

// register files the hook at list index i under its points and returns its
// name. A hook that cannot be one (nil, a nil pointer whose methods panic,
// a Name or Handles that panics) is an error naming its place in the list,
// never a panic out of NewChain.
func (c *Chain) register(i int, h Hook) (name string, err error) {
	inner, _ := policyOf(h)
	if h == nil || inner == nil {
		return "", fmt.Errorf("hooks: hook #%d is nil", i)
	}
	defer func() {
		if x := recover(); x != nil {
			if v := reflect.ValueOf(inner); v.Kind() == reflect.Pointer && v.IsNil() {
				err = fmt.Errorf("hooks: hook #%d is a nil %T", i, inner)
				return
			}
			err = fmt.Errorf("hooks: hook #%d (%T) panicked when asked its name or its points: %v", i, inner, x)
		}
	}()
	name = h.Name()
	if name == "" {
		return "", fmt.Errorf("hooks: hook #%d (%T) has an empty name", i, h)
	}
	c.names[i] = name
	if err := checkReceivers(name, inner); err != nil {
		return "", err
	}
	if err := checkMethods(name, inner); err != nil {
		return "", err
	}
	filed := c.add(i, h)
	if _, ok := inner.(StreamHook); ok && !filed {
		// A stream hook whose Handles turns down every point, its own
		// included, would never run: a redactor that delivers every secret.
		return "", fmt.Errorf("hooks: hook %q (%T) is a StreamHook, but its Handles answers false for %s and every other point: "+
			"it would never run; answer true for hooks.StreamModelText (or drop Handles)", name, h, StreamModelText)
	}
	if !filed && !declaresPoints(h) {
		return "", fmt.Errorf("hooks: hook %q (%T) implements no point method "+
			"(BeforeRun, AfterRun, BeforeModelRequest, AfterModelResponse, BeforeToolExecute, "+
			"AfterToolExecute, WrapTool, WrapModel, BeforeTrustDecision): check the method names", name, h)
	}
	return name, nil
}

// pointMethods maps the name of each method by which a hook handles a
// point to the interface it must implement.
var pointMethods = map[string]reflect.Type{
	"BeforeRun":           reflect.TypeFor[BeforeRunHook](),
	"AfterRun":            reflect.TypeFor[AfterRunHook](),
	"BeforeModelRequest":  reflect.TypeFor[BeforeModelRequestHook](),
	"AfterModelResponse":  reflect.TypeFor[AfterModelResponseHook](),
	"BeforeToolExecute":   reflect.TypeFor[BeforeToolExecuteHook](),
	"AfterToolExecute":    reflect.TypeFor[AfterToolExecuteHook](),
	"WrapTool":            reflect.TypeFor[WrapToolHook](),
	"WrapModel":           reflect.TypeFor[WrapModelHook](),
	"StreamText":          reflect.TypeFor[StreamHook](),
	"BeforeTrustDecision": reflect.TypeFor[BeforeTrustDecisionHook](),
	"DecideTrust":         reflect.TypeFor[TrustDeciderHook](),
}

// pointMethodNames are pointMethods' keys, for suggestions.
var pointMethodNames = slices.Sorted(maps.Keys(pointMethods))

// checkMethods finds the point methods of h's type that would never run: a
// method named like a point's whose signature is not the point's (the
// chain would skip it silently), and a method whose name is a typo of a
// point's ("AfterToolExecution"). Either is an error: a guard that never
// runs is worse than a program that does not start.
func checkMethods(name string, h Hook) error {
	if _, ok := funcsOf(h); ok {
		return nil
	}
	t := reflect.TypeOf(h)
	for i := range t.NumMethod() {
		m := t.Method(i)
		if iface, ok := pointMethods[m.Name]; ok {
			if !t.Implements(iface) {
				want, _ := iface.MethodByName(m.Name)
				if signature(m.Type, true) == signature(want.Type, false) {
					return fmt.Errorf("hooks: hook %q (%T): method %s would never run: %s also needs %s",
						name, h, m.Name, iface.Name(), missingMethods(t, iface))
				}
				return fmt.Errorf("hooks: hook %q (%T): method %s is %s, but the chain calls %s %s: it would never run",
					name, h, m.Name, signature(m.Type, true), m.Name, signature(want.Type, false))
			}
			continue
		}
		if like, ok := suggest.Closest(m.Name, pointMethodNames); ok {
			return fmt.Errorf("hooks: hook %q (%T): method %s handles no point: did you mean %s?", name, h, m.Name, like)
		}
	}
	return nil
}

// hookMethods are the methods the chain looks for on a hook besides its
// point methods: one of them with a pointer receiver, on a hook passed by
// value, is as silent as a point method would be.
var hookMethods = []string{"HoldBack", "Handles", "ObservesFinal", "DefaultPolicy"}

// checkReceivers finds the methods the chain would call that h's type has
// only on its pointer (a hook written with pointer receivers and passed by
// value, hookPtr{} for &hookPtr{}): the value does not implement them, so
// they would never run, and a StreamText that never runs delivers every
// secret it was meant to redact.
func checkReceivers(name string, h Hook) error {
	if _, ok := funcsOf(h); ok {
		return nil
	}
	t := reflect.TypeOf(h)
	if t.Kind() == reflect.Pointer {
		return nil
	}
	pt := reflect.PointerTo(t)
	var lost []string
	for _, m := range append(slices.Clone(pointMethodNames), hookMethods...) {
		if _, onPtr := pt.MethodByName(m); onPtr {
			if _, onValue := t.MethodByName(m); !onValue {
				lost = append(lost, m)
			}
		}
	}
	if len(lost) == 0 {
		return nil
	}
	return fmt.Errorf("hooks: hook %q (%T): %s declared on *%s (a pointer receiver), so the %T value given would never run it: pass a pointer (&%s{…})",
		name, h, strings.Join(lost, ", "), t.Name(), h, t.Name())
}

// missingMethods names the methods of iface that t lacks or has with
// another signature.
func missingMethods(t, iface reflect.Type) string {
	var out []string
	for i := range iface.NumMethod() {
		want := iface.Method(i)
		if m, ok := t.MethodByName(want.Name); !ok || signature(m.Type, true) != signature(want.Type, false) {
			out = append(out, want.Name+" "+signature(want.Type, false))
		}
	}
	return strings.Join(out, ", ")
}

// signature prints a method's type as its declaration reads, without the
// receiver when the type has one.
func signature(t reflect.Type, receiver bool) string {
	in := make([]reflect.Type, 0, t.NumIn())
	for i := range t.NumIn() {
		if i == 0 && receiver {
			continue
		}
		in = append(in, t.In(i))
	}
	out := make([]reflect.Type, t.NumOut())
	for i := range out {
		out[i] = t.Out(i)
	}
	return strings.TrimPrefix(reflect.FuncOf(in, out, t.IsVariadic()).String(), "func")
}

// declaresPoints reports whether h says itself which points it handles, so
// that handling none is not a mistake.
func declaresPoints(h Hook) bool {
	h, _ = policyOf(h)
	switch h.(type) {
	case Funcs, *Funcs, PointHandler:
		return true
	}
	return false
}

// add files h under every point it handles and reports whether there was one.
func (c *Chain) add(i int, h Hook) bool {
	inner, policy := policyOf(h)
	if f, ok := funcsOf(inner); ok {
		inner = funcsHook{f}
	}
	n := c.entries()
	if x, ok := inner.(BeforeRunHook); ok && handles(h, BeforeRun) {
		c.beforeRun = append(c.beforeRun, entry[BeforeRunHook]{x, i, policy})
	}
	if x, ok := inner.(AfterRunHook); ok && handles(h, AfterRun) {
		c.afterRun = append(c.afterRun, entry[AfterRunHook]{x, i, policy})
	}
	if x, ok := inner.(BeforeModelRequestHook); ok && handles(h, BeforeModelRequest) {
		c.beforeModel = append(c.beforeModel, entry[BeforeModelRequestHook]{x, i, policy})
	}
	if x, ok := inner.(AfterModelResponseHook); ok && handles(h, AfterModelResponse) {
		c.afterModel = append(c.afterModel, entry[AfterModelResponseHook]{x, i, policy})
	}
	if x, ok := inner.(BeforeToolExecuteHook); ok && handles(h, BeforeToolExecute) {
		c.beforeTool = append(c.beforeTool, entry[BeforeToolExecuteHook]{x, i, policy})
	}
	if x, ok := inner.(AfterToolExecuteHook); ok && handles(h, AfterToolExecute) {
		c.afterTool = append(c.afterTool, entry[AfterToolExecuteHook]{x, i, policy})
	}
	if x, ok := inner.(WrapToolHook); ok && handles(h, WrapToolCall) {
		c.wrapTool = append(c.wrapTool, entry[WrapToolHook]{x, i, policy})
	}
	if x, ok := inner.(WrapModelHook); ok && handles(h, WrapModelCall) {
		c.wrapModel = append(c.wrapModel, entry[WrapModelHook]{x, i, policy})
	}
	if x, ok := inner.(StreamHook); ok && handles(h, StreamModelText) {
		c.stream = append(c.stream, entry[StreamHook]{x, i, policy})
	}
	if handles(h, BeforeTrustDecision) {
		if x, ok := inner.(TrustDeciderHook); ok {
			c.trustDeciders = append(c.trustDeciders, entry[TrustDeciderHook]{x, i, policy})
		} else if x, ok := inner.(BeforeTrustDecisionHook); ok {
			c.trustRecommenders = append(c.trustRecommenders, entry[BeforeTrustDecisionHook]{x, i, policy})
		}
	}
	return c.entries() > n
}

// entries counts the chain's hooks over all points.
func (c *Chain) entries() int {
	return len(c.beforeRun) + len(c.afterRun) + len(c.beforeModel) + len(c.afterModel) +
		len(c.beforeTool) + len(c.afterTool) + len(c.wrapTool) + len(c.wrapModel) + len(c.stream) +
		len(c.trustDeciders) + len(c.trustRecommenders)
}

// handles reports whether h handles p: it implements p's method and, if it
// is a PointHandler, says so.
func handles(h Hook, p Point) bool {
	h, _ = policyOf(h)
	if f, ok := funcsOf(h); ok {
		return f.Handles(p)
	}
	if ph, ok := h.(PointHandler); ok && !ph.Handles(p) {
		return false
	}
	var ok bool
	switch p {
	case BeforeRun:
		_, ok = h.(BeforeRunHook)
	case AfterRun:
		_, ok = h.(AfterRunHook)
	case BeforeModelRequest:
		_, ok = h.(BeforeModelRequestHook)
	case AfterModelResponse:
		_, ok = h.(AfterModelResponseHook)
	case BeforeToolExecute:
		_, ok = h.(BeforeToolExecuteHook)
	case AfterToolExecute:
		_, ok = h.(AfterToolExecuteHook)
	case WrapToolCall:
		_, ok = h.(WrapToolHook)
	case WrapModelCall:
		_, ok = h.(WrapModelHook)
	case StreamModelText:
		_, ok = h.(StreamHook)
	case BeforeTrustDecision:
		_, ok = h.(BeforeTrustDecisionHook)
		if _, decides := h.(TrustDeciderHook); decides {
			ok = true
		}
	}
	return ok
}

// Hooks returns the chain's hooks in list order, as given to NewChain.
func (c *Chain) Hooks() []Hook {
	if c == nil {
		return nil
	}
	return append([]Hook(nil), c.hooks...)
}
