package genkit

import (
	"bytes"
	"encoding/json"
	"runtime"
	"slices"
	"sync"
	"weak"

	"github.com/firebase/genkit/go/ai"
	"github.com/rienda/hooks"
)

// genkit does not tell a tool's function the ID of its call. The model
// middleware records the tool requests of each reply of a run, and the
// tool wrapper finds its call among them, so that the tool hooks see the
// ID the model hooks saw.

// pendingCalls are the tool requests of a run's last reply whose tools
// have not run yet.
type pendingCalls struct {
	mu   sync.Mutex
	reqs []*ai.ToolRequest // genkit's own: it fills an empty Ref in place before the tools run
}

// pending maps a run (weakly: a run nobody holds any more drops its entry)
// to its pendingCalls.
var pending sync.Map // weak.Pointer[hooks.Run] → *pendingCalls

// callsOf is run's pendingCalls; made when create is true, else nil when none.
func callsOf(run *hooks.Run, create bool) *pendingCalls {
	key := weak.Make(run)
	if v, ok := pending.Load(key); ok || !create {
		p, _ := v.(*pendingCalls)
		return p
	}
	v, loaded := pending.LoadOrStore(key, &pendingCalls{})
	if !loaded {
		runtime.AddCleanup(run, func(k weak.Pointer[hooks.Run]) { pending.Delete(k) }, key)
	}
	return v.(*pendingCalls)
}

// recordCalls keeps the tool requests of msg, the reply genkit receives,
// in place of the previous reply's: genkit has run those (or given up on
// them) before it calls the model again.
func recordCalls(run *hooks.Run, msg *ai.Message) {
	var reqs []*ai.ToolRequest
	if msg != nil {
		for _, p := range msg.Content {
			if p.IsToolRequest() {
				reqs = append(reqs, p.ToolRequest)
			}
		}
	}
	p := callsOf(run, reqs != nil)
	if p == nil {
		return
	}
	p.mu.Lock()
	p.reqs = reqs
	p.mu.Unlock()
}

// takeCallID returns the ID of a pending request of tool name whose input,
// decoded as the tool's input type In, encodes to raw (the input the tool
// got, as JSON), and forgets that request; "" when none does (a tool
// called without the middleware).
func takeCallID[In any](run *hooks.Run, name string, raw []byte) string {
	p := callsOf(run, false)
	if p == nil {
		return ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, r := range p.reqs {
		if r.Name != name || !sameInput[In](r.Input, raw) {
			continue
		}
		p.reqs = slices.Delete(p.reqs, i, i+1)
		return r.Ref
	}
	return ""
}

// sameInput reports whether input, as genkit decodes it for a tool of In,
// encodes to raw.
func sameInput[In any](input any, raw []byte) bool {
	b, err := json.Marshal(input)
	if err != nil {
		return false
	}
	var in In
	if json.Unmarshal(b, &in) != nil {
		return false
	}
	got, err := json.Marshal(in)
	return err == nil && bytes.Equal(got, raw)
}
