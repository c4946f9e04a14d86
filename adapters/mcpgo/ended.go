package mcpgo

import "sync"

// endedCapacity is how many recently unregistered sessions are
// remembered: enough for the calls that race their session's end, bounded
// so that a long-lived server does not grow.
const endedCapacity = 1024

// endedSessions remembers the IDs of the last sessions unregistered, so
// that a tools/call racing its session's end does not start a run that
// nothing would end. The zero value is ready.
type endedSessions struct {
	mu   sync.Mutex
	ids  map[string]struct{}
	ring []string // insertion order, for eviction
	next int
}

func (e *endedSessions) add(id string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ids == nil {
		e.ids = make(map[string]struct{}, endedCapacity)
		e.ring = make([]string, 0, endedCapacity)
	}
	if _, ok := e.ids[id]; ok {
		return
	}
	if len(e.ring) < endedCapacity {
		e.ring = append(e.ring, id)
	} else {
		delete(e.ids, e.ring[e.next])
		e.ring[e.next] = id
		e.next = (e.next + 1) % endedCapacity
	}
	e.ids[id] = struct{}{}
}

func (e *endedSessions) has(id string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	_, ok := e.ids[id]
	return ok
}

// forget drops id (a session registered again under it). Its slot in the
// ring stays; when it comes round it may drop the ID again early, which
// only loses the guard for that ID.
func (e *endedSessions) forget(id string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.ids, id)
}
