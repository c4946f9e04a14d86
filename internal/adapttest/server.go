package adapttest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Replies is an API endpoint at one path that records each request body
// and answers with its JSON replies in turn; a request past them fails the
// test and gets Failure (the API's error body) with status 500.
type Replies struct {
	URL    string       // the server's URL
	Client *http.Client // a client of the server

	t       testing.TB
	path    string
	failure string
	mu      sync.Mutex
	bodies  [][]byte
	replies []string
}

// NewReplies starts a Replies server, closed when the test ends.
func NewReplies(t testing.TB, path, failure string, replies ...string) *Replies {
	f := &Replies{t: t, path: path, failure: failure, replies: replies}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	f.URL, f.Client = srv.URL, srv.Client()
	return f
}

func (f *Replies) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || r.URL.Path != f.path || err != nil {
		http.Error(w, "unexpected request "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	f.mu.Lock()
	n := len(f.bodies)
	f.bodies = append(f.bodies, body)
	f.mu.Unlock()
	if n >= len(f.replies) {
		f.t.Errorf("request %d: the test scripted only %d replies", n+1, len(f.replies))
		http.Error(w, f.failure, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, f.replies[n])
}

// Requests are the bodies received so far.
func (f *Replies) Requests() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]byte(nil), f.bodies...)
}

// SSE is an endpoint at one path that answers every request with one
// stream of server-sent events, written one event at a time; before each
// event it may wait for the test (Gate), so a test can tell that the
// caller got a chunk while the stream was still open. Set Gate and Next
// before the first request.
type SSE struct {
	URL    string                       // the server's URL
	Client *http.Client                 // a client of the server
	Events []string                     // the events of every request
	Next   func() []string              // non-nil: the events of each request, in turn
	Gate   func(i int, r *http.Request) // called before event i is written

	path   string
	mu     sync.Mutex
	bodies [][]byte
}

// NewSSE starts an SSE server, closed when the test ends.
func NewSSE(t testing.TB, path string, events ...string) *SSE {
	f := &SSE{Events: events, path: path}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	f.URL, f.Client = srv.URL, srv.Client()
	return f
}

func (f *SSE) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || r.URL.Path != f.path || err != nil {
		http.Error(w, "unexpected request "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	f.mu.Lock()
	f.bodies = append(f.bodies, body)
	events := f.Events
	if f.Next != nil {
		events = f.Next()
	}
	f.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	for i, ev := range events {
		if f.Gate != nil {
			f.Gate(i, r)
		}
		if _, err := io.WriteString(w, ev); err != nil {
			return // the client closed the stream
		}
		w.(http.Flusher).Flush()
	}
}

// Body is request i's body decoded.
func (f *SSE) Body(t *testing.T, i int) map[string]any {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	require.Greater(t, len(f.bodies), i)
	var m map[string]any
	require.NoError(t, json.Unmarshal(f.bodies[i], &m))
	return m
}

// SSEFile is a testdata file of server-sent events, split into its events.
func SSEFile(t testing.TB, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var evs []string
	for _, ev := range strings.SplitAfter(string(b), "\n\n") {
		if strings.TrimSpace(ev) != "" {
			evs = append(evs, ev)
		}
	}
	return evs
}
