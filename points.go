package hooks

import (
	"fmt"
	"slices"
	"strings"
)

// Point names a fixed point of the agent loop where hooks run. Its value is
// also the name a JavaScript hook exports for it.
type Point string

// The six points of a run's loop, and the trust point that lives outside
// it. The two wrap points below are not points of the loop: they wrap the
// calls between them.
const (
	BeforeRun          Point = "beforeRun"
	AfterRun           Point = "afterRun"
	BeforeModelRequest Point = "beforeModelRequest"
	AfterModelResponse Point = "afterModelResponse"
	BeforeToolExecute  Point = "beforeToolExecute"
	AfterToolExecute   Point = "afterToolExecute"

	// BeforeTrustDecision runs when a project's trust is decided
	// (see Chain.DecideTrust). It is not in Points().
	BeforeTrustDecision Point = "beforeTrustDecision"
)

// The points of wrap hooks. They are not in Points(): they wrap the call
// between BeforeToolExecute and AfterToolExecute (and between
// BeforeModelRequest and AfterModelResponse) rather than mark a point of
// the loop. A TraceEvent, Diagnostic or HookError of a wrap hook names them.
const (
	WrapToolCall  Point = "wrapToolCall"
	WrapModelCall Point = "wrapModelCall"
)

// allPoints are the seven points a hook exports or a setting names: the
// six of a run's loop, in declaration order, then the trust decision. The
// wraps are not among them: a JavaScript or command hook cannot wrap.
var allPoints = [...]Point{BeforeRun, AfterRun, BeforeModelRequest, AfterModelResponse,
	BeforeToolExecute, AfterToolExecute, BeforeTrustDecision}

// runPoints are the six points of a run's loop.
var runPoints = allPoints[:6]

// Points returns the six points of a run's loop in declaration order. The slice is the
// caller's to keep.
func Points() []Point {
	return slices.Clone(runPoints)
}

// ParsePoint returns the point named s (any of the seven points, spelled
// exactly). An unknown name is an error that lists the valid ones.
func ParsePoint(s string) (Point, error) {
	if i := slices.Index(allPoints[:], Point(s)); i >= 0 {
		return allPoints[i], nil
	}
	return "", fmt.Errorf("hooks: unknown point %q (valid points: %s)", s, validPoints)
}

// validPoints names the seven points, for messages.
var validPoints = func() string {
	names := make([]string, len(allPoints))
	for i, p := range allPoints {
		names[i] = string(p)
	}
	return strings.Join(names, ", ")
}()
