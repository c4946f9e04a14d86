package genai_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	sdk "google.golang.org/genai"
)

// fakeAPI is a Gemini API endpoint: it records each request (path and
// body) and answers with its replies in turn; a streamed request gets its
// reply's chunks as server-sent events, one event each.
type fakeAPI struct {
	t      testing.TB
	mu     sync.Mutex
	paths  []string
	bodies [][]byte
	// replies are, per request, the JSON responses to send: one for
	// generateContent, the chunks for streamGenerateContent.
	replies [][]string
	client  *sdk.Client
}

func newFakeAPI(t testing.TB, replies ...[]string) *fakeAPI {
	f := &fakeAPI{t: t, replies: replies}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	client, err := sdk.NewClient(t.Context(), &sdk.ClientConfig{APIKey: "test-key", Backend: sdk.BackendGeminiAPI,
		HTTPOptions: sdk.HTTPOptions{BaseURL: srv.URL}, HTTPClient: srv.Client()})
	require.NoError(t, err)
	f.client = client
	return f
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	streamed := strings.HasSuffix(r.URL.Path, ":streamGenerateContent")
	if r.Method != http.MethodPost || err != nil || (!streamed && !strings.HasSuffix(r.URL.Path, ":generateContent")) {
		http.Error(w, "unexpected request "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	f.mu.Lock()
	n := len(f.bodies)
	f.bodies = append(f.bodies, body)
	f.paths = append(f.paths, r.URL.Path)
	f.mu.Unlock()
	if n >= len(f.replies) {
		f.t.Errorf("request %d: the test scripted only %d replies", n+1, len(f.replies))
		http.Error(w, `{"error":{"code":500,"message":"no more replies","status":"INTERNAL"}}`, http.StatusInternalServerError)
		return
	}
	if !streamed {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, f.replies[n][0])
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	for _, chunk := range f.replies[n] {
		if _, err := io.WriteString(w, "data: "+chunk+"\r\n\r\n"); err != nil {
			return
		}
		w.(http.Flusher).Flush()
	}
}

// requests are the bodies received so far.
func (f *fakeAPI) requests() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]byte(nil), f.bodies...)
}

// body is request i decoded.
func (f *fakeAPI) body(i int) map[string]any {
	f.t.Helper()
	reqs := f.requests()
	require.Greater(f.t, len(reqs), i, "request %d was not sent", i+1)
	var m map[string]any
	require.NoError(f.t, json.Unmarshal(reqs[i], &m))
	return m
}

// path is the URL path of request i.
func (f *fakeAPI) path(i int) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.paths[i]
}

// contents are request i's contents.
func (f *fakeAPI) contents(i int) []map[string]any {
	f.t.Helper()
	raw, _ := f.body(i)["contents"].([]any)
	out := make([]map[string]any, len(raw))
	for j, c := range raw {
		out[j] = c.(map[string]any)
	}
	return out
}

// part is part k of content j of request i.
func (f *fakeAPI) part(i, j, k int) map[string]any {
	f.t.Helper()
	cs := f.contents(i)
	require.Greater(f.t, len(cs), j, "request %d has no content %d", i+1, j)
	parts := cs[j]["parts"].([]any)
	require.Greater(f.t, len(parts), k, "content %d has no part %d", j, k)
	return parts[k].(map[string]any)
}

// call is one function call of a reply; args is its JSON; id may be "".
type call struct{ id, name, args string }

// textReply is a response saying text.
func textReply(text string) []string {
	return []string{response(`{"text":`+quote(text)+`}`, "STOP")}
}

// toolReply is a response asking for calls.
func toolReply(calls ...call) []string {
	return []string{response(callParts(calls), "STOP")}
}

func callParts(calls []call) string {
	parts := make([]string, len(calls))
	for i, c := range calls {
		id := ""
		if c.id != "" {
			id = `"id":` + quote(c.id) + `,`
		}
		parts[i] = fmt.Sprintf(`{"functionCall":{%s"name":%s,"args":%s}}`, id, quote(c.name), c.args)
	}
	return strings.Join(parts, ",")
}

func response(parts, finish string) string {
	return `{"candidates":[{"content":{"role":"model","parts":[` + parts + `]},"finishReason":"` + finish + `","index":0}],` +
		`"usageMetadata":{"promptTokenCount":11,"candidatesTokenCount":7,"cachedContentTokenCount":3,"thoughtsTokenCount":2,"totalTokenCount":20},` +
		`"modelVersion":"gemini-test"}`
}

// streamReply is a streamed response: texts, then calls, one chunk each.
func streamReply(texts []string, calls ...call) []string {
	var out []string
	for _, t := range texts {
		out = append(out, `{"candidates":[{"content":{"role":"model","parts":[{"text":`+quote(t)+`}]},"index":0}]}`)
	}
	for _, c := range calls {
		out = append(out, `{"candidates":[{"content":{"role":"model","parts":[`+callParts([]call{c})+`]},"index":0}]}`)
	}
	return append(out, `{"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP","index":0}],`+
		`"usageMetadata":{"promptTokenCount":11,"candidatesTokenCount":7,"totalTokenCount":18}}`)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
