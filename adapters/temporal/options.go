package temporal

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	sdk "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// DefaultHeartbeatTimeout is the heartbeat timeout of steps whose options
// set none: every step heartbeats while it runs (the worker does it, not
// the tool), so a worker that dies mid-step is noticed after this long,
// not after the whole StepTimeout, and a cancellation reaches the step.
const DefaultHeartbeatTimeout = 30 * time.Second

// StepOptions are the activity options of one kind of step (Options), or
// of one tool's steps (Options.Tools). A zero field keeps the value it
// would have had: the tool's kind's, then Input's StepTimeout and Retry.
type StepOptions struct {
	StartToCloseTimeout time.Duration // one attempt
	HeartbeatTimeout    time.Duration // a step silent this long is retried; DefaultHeartbeatTimeout
	RetryPolicy         *sdk.RetryPolicy
	TaskQueue           string // e.g. a queue of workers near the tool's data
	Summary             string // shown in Temporal's UI; tools default to "tool <name>"
}

// Options are the steps' activity options, by kind and by tool name.
type Options struct {
	Start, Model, Tool, End StepOptions
	Tools                   map[string]StepOptions
}

// over returns o with the fields of p that are set.
func (o StepOptions) over(p StepOptions) StepOptions {
	if p.StartToCloseTimeout > 0 {
		o.StartToCloseTimeout = p.StartToCloseTimeout
	}
	if p.HeartbeatTimeout > 0 {
		o.HeartbeatTimeout = p.HeartbeatTimeout
	}
	if p.RetryPolicy != nil {
		o.RetryPolicy = p.RetryPolicy
	}
	if p.TaskQueue != "" {
		o.TaskQueue = p.TaskQueue
	}
	if p.Summary != "" {
		o.Summary = p.Summary
	}
	return o
}

// stepOptions are the activity options of a step of kind (an activity
// name), for tool (a tool step's tool name, else "").
func (f *flow) stepOptions(ctx workflow.Context, kind, tool string) workflow.Context {
	o := StepOptions{StartToCloseTimeout: f.in.StepTimeout, RetryPolicy: f.in.Retry, HeartbeatTimeout: DefaultHeartbeatTimeout}
	if o.StartToCloseTimeout <= 0 {
		o.StartToCloseTimeout = DefaultStepTimeout
	}
	switch kind {
	case ActivityStart:
		o = o.over(f.in.Options.Start)
	case ActivityModel:
		o = o.over(f.in.Options.Model)
	case ActivityTool:
		o.Summary = "tool " + tool
		o = o.over(f.in.Options.Tool).over(f.in.Options.Tools[tool])
	case ActivityEnd:
		o = o.over(f.in.Options.End)
	}
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: o.StartToCloseTimeout, HeartbeatTimeout: o.HeartbeatTimeout, RetryPolicy: o.RetryPolicy,
		TaskQueue: o.TaskQueue, Summary: o.Summary,
		// A cancelled run waits for the step to stop before AfterRun runs:
		// the cancellation reaches a running tool first.
		WaitForCancellation: true,
	})
}

// heartbeater beats for a step while it runs, with the details a long
// tool last reported (Heartbeat).
type heartbeater struct {
	ctx     context.Context // the step's activity context: the SDK keeps it, so never a caller's (a pooled hooks.Context)
	mu      sync.Mutex
	details any
	stop    chan struct{}
	done    chan struct{}
}

type heartbeaterKey struct{}

// beat starts heartbeating for the activity of ctx, every third of its
// heartbeat timeout; the returned context carries it for Heartbeat, and
// stop ends it (and waits for it).
func beat(ctx context.Context) (context.Context, func()) {
	if !activity.IsActivity(ctx) {
		return ctx, func() {}
	}
	timeout := activity.GetInfo(ctx).HeartbeatTimeout
	h := &heartbeater{ctx: ctx, stop: make(chan struct{}), done: make(chan struct{})}
	if activity.HasHeartbeatDetails(ctx) {
		_ = activity.GetHeartbeatDetails(ctx, &h.details)
	}
	if timeout <= 0 {
		close(h.done)
		return context.WithValue(ctx, heartbeaterKey{}, h), func() {}
	}
	go func() {
		defer close(h.done)
		t := time.NewTicker(timeout / 3)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				h.mu.Lock()
				d := h.details
				h.mu.Unlock()
				activity.RecordHeartbeat(ctx, d)
			case <-h.stop:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return context.WithValue(ctx, heartbeaterKey{}, h), sync.OnceFunc(func() { close(h.stop); <-h.done })
}

// Heartbeat reports a long tool's progress (nil: none) to Temporal from a
// step: a step retried after a crash reads it back with Progress. The
// worker heartbeats for every step anyway, so a tool calls this only to
// keep its progress. Outside a step it does nothing.
func Heartbeat(ctx context.Context, progress any) {
	h, ok := ctx.Value(heartbeaterKey{}).(*heartbeater)
	if !ok {
		return
	}
	h.mu.Lock()
	h.details = progress
	h.mu.Unlock()
	activity.RecordHeartbeat(h.ctx, progress)
}

// Progress reads into v what the previous attempt of this step last
// reported with Heartbeat; false if it reported nothing (or this is the
// first attempt).
func Progress(ctx context.Context, v any) bool {
	if !activity.IsActivity(ctx) || !activity.HasHeartbeatDetails(ctx) {
		return false
	}
	return activity.GetHeartbeatDetails(ctx, v) == nil
}

// StepKey is a tool call's idempotency key: the same for every attempt of
// the step (a retry after a crash, a timeout), different for every other
// step of every run; attempt counts from 1. A tool that must not act twice
// passes the key to the service it calls (most payment and cloud APIs take
// one), or records it. Outside a step: "", 0.
//
// A tool step is at-least-once: a worker killed while a tool runs leaves
// no record of how far it got, and the step runs again on another worker.
func StepKey(ctx context.Context) (key string, attempt int) {
	if !activity.IsActivity(ctx) {
		return "", 0
	}
	info := activity.GetInfo(ctx)
	return fmt.Sprintf("%s/%s/%s", info.WorkflowExecution.ID, info.WorkflowExecution.RunID, info.ActivityID), int(info.Attempt)
}
