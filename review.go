package hooks

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"
)

// What a person decided, as the trace reports it (TraceEvent.Review) and
// as Verdict.Kind names it.
const (
	ReviewApproved = "approved" // yes: the call runs as it is
	ReviewEdited   = "edited"   // yes, with the person's arguments
	ReviewRejected = "rejected" // no: the model reads the person's message
	ReviewAnswered = "answered" // the person's result stands for the tool's, which does not run
)

// The verdict of a hook's review, as its Context records it (in the
// Context's padding: a Context stays in its size class). It is written by
// the hook's own goroutine while it runs, and read by the walk once it has
// returned.
const (
	reviewNone uint8 = iota
	reviewApproved
	reviewEdited
	reviewRejected
	reviewAnswered

	reviewKindMask  uint8 = 7
	reviewEditedBit uint8 = 8  // some review of the hook's call edited it
	reviewNoBit     uint8 = 16 // the last review about the call under review was a no (its reason in the run's reviewNos)
)

var reviewKinds = map[string]uint8{ReviewApproved: reviewApproved, ReviewEdited: reviewEdited,
	ReviewRejected: reviewRejected, ReviewAnswered: reviewAnswered}

// reviewNames are the kinds' names, by their number.
var reviewNames = [...]string{"", ReviewApproved, ReviewEdited, ReviewRejected, ReviewAnswered}

// reviewLock marks callLife.open while a review of its open hook is
// being recorded.
const reviewLock uint32 = 1 << 31

// errHookReturned is the error of a review asked from a goroutine its
// hook left behind, once the hook has returned: its verdict can decide
// nothing, so the person is not asked.
var errHookReturned = errors.New("the hook that asked has returned: its review decides nothing")

// place returns the list place of c among its call's hook Contexts, and
// whether it is one of them (a Context a tool or a wrap hook got is not).
func (c *Context) place() (int, bool) {
	if c.life == nil || c.life.slots <= 0 {
		return 0, false
	}
	slots := c.life.hookSlots()
	base, size := uintptr(unsafe.Pointer(&slots[0])), unsafe.Sizeof(Context{})
	off := uintptr(unsafe.Pointer(c)) - base
	if uintptr(unsafe.Pointer(c)) < base || off >= size*uintptr(len(slots)) || off%size != 0 {
		return 0, false
	}
	return int(off / size), true
}

// walked reports whether the reviews of c are recorded under its call's
// open place (a hook Context of a BeforeToolExecute walk), and its place.
func (c *Context) walked() (int, bool) {
	if c.Point() != BeforeToolExecute {
		return 0, false
	}
	return c.place()
}

// reviewGone returns why a review asked through c can decide nothing: the
// call's end or cancellation, or, in a BeforeToolExecute walk, the return
// of the hook that asked (a goroutine it left behind asks too late).
func (c *Context) reviewGone() error {
	if err := c.Err(); err != nil {
		return err
	}
	if k, ok := c.walked(); ok && c.life.open.Load()&^reviewLock != uint32(k+1) {
		return errHookReturned
	}
	return nil
}

// openReviews lets the hook at place k of a BeforeToolExecute walk record
// its reviews, while it runs.
func (l *callLife) openReviews(k int) { l.open.Store(uint32(k + 1)) }

// closeReviews ends that, once the hook has returned (or panicked): a
// review being recorded now is waited for (a few stores), and any later
// one finds the hook closed. After it, the walk reads the hook's review
// bits with no writer left.
func (l *callLife) closeReviews() {
	for {
		if v := l.open.Load(); v&reviewLock == 0 && l.open.CompareAndSwap(v, 0) {
			return
		}
		runtime.Gosched()
	}
}

// reviewed returns what the hook of c decided in its last review of this
// call (reviewNone when it asked none).
func (c *Context) reviewed() uint8 {
	if c == nil {
		return reviewNone
	}
	return c.review & reviewKindMask
}

// personEdited reports whether a review of the hook's call edited it.
func (c *Context) personEdited() bool { return c.review&reviewEditedBit != 0 }

// DefaultRejection is the reason the model reads when a person rejects a
// call without saying why.
const DefaultRejection = "The user rejected this tool call. Do not retry it unchanged; ask the user or go on another way."

// Kind names what v decides for a tool call: ReviewAnswered (a Result),
// ReviewEdited (approved with Arguments), ReviewApproved, or
// ReviewRejected (anything else, a contradictory verdict included, as
// Patch reads it).
func (v Verdict) Kind() string {
	switch {
	case v.Check() != nil:
		return ReviewRejected
	case v.Result != nil:
		return ReviewAnswered
	case v.Approved && v.Arguments != nil:
		return ReviewEdited
	case v.Approved:
		return ReviewApproved
	}
	return ReviewRejected
}

// Check reports a verdict that contradicts itself, which Patch reads as a
// rejection: a Result together with Arguments (the tool cannot both run
// with the person's arguments and not run), Arguments on a rejection
// (nothing runs them), or Arguments that cannot be copied (a map that
// contains itself, or nested deeper than 10,000 levels).
func (v Verdict) Check() error {
	switch {
	case v.Result != nil && v.Arguments != nil:
		return errors.New("the verdict both answers the call (Result) and edits it (Arguments)")
	case !v.Approved && v.Result == nil && v.Arguments != nil:
		return errors.New("the verdict rejects the call and edits its arguments: nothing would run them")
	}
	if v.Arguments != nil {
		if _, ok := copyJSON(v.Arguments); !ok {
			return errors.New("the verdict's arguments contain themselves or are nested too deeply")
		}
	}
	if v.Result != nil {
		if _, ok := copyJSON(v.Result.Value); !ok {
			return errors.New("the verdict's result value contains itself or is nested too deeply")
		}
	}
	return nil
}

// Patch is what v decides for the tool call under review, as a
// BeforeToolExecute hook returns it. It is the one reading of a verdict,
// for every hook kind:
//   - a Result answers the call: the tool does not run, the model reads
//     the result (IsError as the person set it), whatever Approved says;
//   - approved with Arguments: the tool runs with the person's arguments
//     (a copy: the host may reuse its map). Arguments replace the
//     arguments only; the tool and the call ID stay the model's;
//   - approved: nil, no opinion: the call goes on to the next hook;
//   - rejected: a refusal whose reason is Message, or DefaultRejection
//     when it is empty.
//
// A Message with an approval is not sent to the model (neither LangChain's
// approve nor Claude Code's allow carries one): a hook that wants the
// model to read it writes it into the result after the call. A
// contradictory verdict (Check) is a rejection, with Message as its
// reason when there is one.
//
// Arguments a person edited are checked again by the guards listed before
// the hook that asked (see "A person's verdict" in docs/semantics.md).
func (v Verdict) Patch() *ToolCallPatch {
	if v.Check() != nil || (v.Result == nil && !v.Approved) {
		reason := v.Message
		if reason == "" {
			reason = DefaultRejection
		}
		return Refuse(reason)
	}
	if v.Result != nil {
		res := *v.Result
		res.Value, _ = copyJSON(res.Value)
		return &ToolCallPatch{Result: &res}
	}
	if v.Arguments != nil {
		args, _ := copyJSON(v.Arguments)
		return &ToolCallPatch{Arguments: args.(map[string]any)}
	}
	return nil
}

// clone returns v with its own copies of Arguments and Result, so that a
// host that reuses its maps, or a hook that changes the verdict it got,
// changes nothing another party holds. A verdict that cannot be copied
// (Check) is a rejection carrying its message.
func (v Verdict) clone() Verdict {
	if v.Check() != nil {
		return Verdict{Message: v.Message}
	}
	if v.Arguments != nil {
		args, _ := copyJSON(v.Arguments)
		v.Arguments = args.(map[string]any)
	}
	if v.Result != nil {
		res := *v.Result
		res.Value, _ = copyJSON(res.Value)
		v.Result = &res
	}
	return v
}

// reviewError names the hook whose review could not be read.
func reviewError(hook string, err error) error {
	return fmt.Errorf("review asked by hook %q: %w", hook, err)
}

// Review asks a person to decide about r and blocks until they answer: to
// approve, to approve with edited arguments, to reject with a message the
// model reads, or to answer instead of the tool (Verdict.Patch reads the
// answer for a tool call). Without a Host.Review the host's Confirm
// answers yes or no; without either, Host.AutoApprove.
//
// The verdict is the caller's own copy, and so is the call the host is
// shown. An error from the host, a panic in it, a verdict that contradicts
// itself (Verdict.Check) or a cancelled context is a rejection, returned
// with the error; each but the cancellation is also a Diagnostic naming
// the hook. A verdict that comes after the call's deadline is a rejection
// with the call's error, and a review asked from a goroutine a
// BeforeToolExecute hook left behind, once the hook has returned, asks
// nobody and is a rejection with an error: neither decides anything. In a tool point, the trace event of the hook that asked
// records the verdict (TraceEvent.Review), and arguments the person edited
// are checked again by the BeforeToolExecute hooks listed before it.
func (c *Context) Review(r Review) (Verdict, error) {
	if c.run() == nil {
		return Verdict{}, nil // nobody to ask
	}
	if err := c.reviewGone(); err != nil {
		return Verdict{}, err // too late to decide anything: nobody is asked
	}
	h := &c.run().host
	switch {
	case h.Review != nil:
		return c.askReview(r)
	case h.Confirm != nil:
		ok, err := h.Confirm(c.base(), r.Prompt)
		if err == nil {
			err = c.reviewGone() // a yes past the deadline is no yes
		}
		if c.hostFailed("confirm", r.Prompt.Title, err) {
			c.noteReview(r, Verdict{}, err)
			return Verdict{}, err
		}
		return c.kept(r, Verdict{Approved: ok})
	}
	return c.kept(r, Verdict{Approved: h.AutoApprove})
}

// kept records v, the verdict of review r, and returns it; a verdict that
// comes after its hook returned is a rejection, with the error.
func (c *Context) kept(r Review, v Verdict) (Verdict, error) {
	if !c.noteReview(r, v, nil) {
		return Verdict{}, errHookReturned
	}
	return v, nil
}

// askReview asks the host's Review, with its own copy of the call, and
// returns a verdict the caller owns: a host that fails, panics or
// contradicts itself gives a rejection, with the error.
func (c *Context) askReview(r Review) (v Verdict, err error) {
	if r.Call != nil {
		call := *r.Call
		args, _ := copyJSON(call.Arguments)
		call.Arguments, _ = args.(map[string]any)
		r.Call = &call
	}
	v, err = c.callReview(r)
	if err == nil {
		err = c.reviewGone() // a verdict past the deadline, or after the hook returned, decides nothing
		if err != nil {
			v = Verdict{}
		}
	}
	if err == nil {
		if bad := v.Check(); bad != nil {
			err = reviewError(c.Hook(), bad)
		}
	}
	if c.hostFailed("review", r.Prompt.Title, err) {
		c.noteReview(r, Verdict{Message: v.Message}, err)
		return Verdict{Message: v.Message}, err
	}
	return c.kept(r, v.clone())
}

// callReview calls the host's Review, a panic in it its error.
func (c *Context) callReview(r Review) (v Verdict, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = Verdict{}, fmt.Errorf("panicked: %v", p)
		}
	}()
	return c.run().host.Review(c.base(), r)
}

// noteReview records the verdict of the running hook's review r for its
// trace event and, when r is about the call under review in
// BeforeToolExecute, the person's no, which stands whatever the hook
// returns (personsNo). Nothing is recorded when the call was cancelled
// while the person was asked (a pause: nothing was decided), nor, in a
// BeforeToolExecute walk, once the hook has returned (a goroutine it left
// behind): it reports false then. The last review of a hook's call is the
// one recorded. In a walk the record is made under the call's open place
// (callLife.open), so that a goroutine of the hook never writes while the
// walk reads.
func (c *Context) noteReview(r Review, v Verdict, err error) bool {
	if c.Err() != nil {
		return false
	}
	kind := reviewRejected // read before the lock: Kind may run a host's MarshalJSON
	if err == nil {
		kind = reviewKinds[v.Kind()]
	}
	if k, ok := c.walked(); ok {
		open := uint32(k + 1)
		for !c.life.open.CompareAndSwap(open, open|reviewLock) {
			if c.life.open.Load()&^reviewLock != open {
				return false // the hook has returned
			}
			runtime.Gosched() // another goroutine of the hook is recording
		}
		defer c.life.open.Store(open)
	}
	bits := c.review&reviewEditedBit | kind
	if kind == reviewEdited {
		bits |= reviewEditedBit
	}
	if r.Call == nil || c.Point() != BeforeToolExecute {
		c.review = bits | c.review&reviewNoBit
		return true
	}
	if kind != reviewRejected {
		c.run().reviewNos.Delete(c)
		c.review = bits
		return true
	}
	reason := v.Message
	if reason == "" {
		reason = DefaultRejection
	}
	c.run().reviewNos.Store(c, reason)
	c.review = bits | reviewNoBit
	return true
}

// personsNo makes a person's no to the call under review stand: a hook
// that asked (Context.Review with the call) and was told no, and then
// returned anything but a refusal or an answer (nothing, an allow, new
// arguments, an error or a panic its policy would let pass: a JavaScript
// hook that tested the verdict object as if it were confirm's boolean, an
// object being always true), refuses the call with the person's reason,
// and the slip is reported. p and err are what the hook returned.
func (c *Context) personsNo(p *ToolCallPatch, err error) (*ToolCallPatch, error) {
	c.review &^= reviewNoBit
	reason := DefaultRejection
	if r, ok := c.run().reviewNos.LoadAndDelete(c); ok {
		reason = r.(string)
	}
	if err == nil && p != nil && (p.Result != nil || p.Allow != nil && !*p.Allow) {
		return p, nil // it refused, or answered: what the person asked for, or stricter
	}
	if err != nil {
		c.diagnose(BeforeToolExecute, fmt.Errorf("failed after a person rejected the call: the person's no stands: %w", err))
	} else {
		c.diagnose(BeforeToolExecute, errors.New("asked a person, who rejected the call, and returned no refusal: the person's no stands"))
	}
	return Refuse(reason), nil
}

// ApplyVerdict returns v's patch (Verdict.Patch) and records v as the
// person's verdict about the call under review, as Review does for the
// verdicts it returns: in the hook's trace event, for the second look the
// guards listed before the hook take at an edit, and as a no that stands.
// A hook that keeps verdicts (Context.Memo, a durable engine's recorded
// answers) applies a kept one with it, so that an edit replayed after a
// resume passes the same guards as when the person made it. Outside a run
// it is Patch.
func (c *Context) ApplyVerdict(v Verdict) *ToolCallPatch {
	if c.run() != nil {
		if call, ok := c.OriginalCall(); ok {
			c.noteReview(Review{Call: &call}, v, nil)
		}
	}
	return v.Patch()
}
