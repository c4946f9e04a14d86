package anthropic_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/stretchr/testify/require"
)

// fakeAPI is a Messages API endpoint: it records each request body and
// answers with its replies in turn.
type fakeAPI struct {
	t       testing.TB
	mu      sync.Mutex
	bodies  [][]byte
	replies []string
	client  sdk.Client
}

func newFakeAPI(t testing.TB, replies ...string) *fakeAPI {
	f := &fakeAPI{t: t, replies: replies}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	f.client = sdk.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("sk-ant-test"),
		option.WithMaxRetries(0), option.WithHTTPClient(srv.Client()))
	return f
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" || err != nil {
		http.Error(w, "unexpected request "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	f.mu.Lock()
	n := len(f.bodies)
	f.bodies = append(f.bodies, body)
	f.mu.Unlock()
	if n >= len(f.replies) {
		f.t.Errorf("request %d: the test scripted only %d replies", n+1, len(f.replies))
		http.Error(w, `{"type":"error","error":{"type":"api_error","message":"no more replies"}}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, f.replies[n])
}

// messages is the SDK service the loop calls.
func (f *fakeAPI) messages() *sdk.MessageService { return &f.client.Messages }

// requests are the bodies received so far.
func (f *fakeAPI) requests() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]byte(nil), f.bodies...)
}

// body is request i decoded into raw fields.
func (f *fakeAPI) body(i int) map[string]json.RawMessage {
	f.t.Helper()
	reqs := f.requests()
	require.Greater(f.t, len(reqs), i, "request %d was not sent", i+1)
	var body map[string]json.RawMessage
	require.NoError(f.t, json.Unmarshal(reqs[i], &body))
	return body
}

// sentMessages are the raw JSON messages of request i, as the server got
// them.
func (f *fakeAPI) sentMessages(i int) []json.RawMessage {
	f.t.Helper()
	var msgs []json.RawMessage
	require.NoError(f.t, json.Unmarshal(f.body(i)["messages"], &msgs))
	return msgs
}

// sent is request i's message j decoded.
func (f *fakeAPI) sent(i, j int) map[string]any {
	f.t.Helper()
	msgs := f.sentMessages(i)
	require.Greater(f.t, len(msgs), j, "request %d has no message %d", i+1, j)
	var m map[string]any
	require.NoError(f.t, json.Unmarshal(msgs[j], &m))
	return m
}

// textReply is a message whose content is text.
func textReply(text string) string {
	return reply(fmt.Sprintf(`{"type":"text","text":%s}`, quote(text)), "end_turn")
}

// call is one tool_use block of a toolReply; input is its raw JSON.
type call struct{ id, name, input string }

// toolReply is a message asking for calls.
func toolReply(calls ...call) string {
	blocks := make([]string, len(calls))
	for i, c := range calls {
		blocks[i] = fmt.Sprintf(`{"type":"tool_use","id":%s,"name":%s,"input":%s}`, quote(c.id), quote(c.name), c.input)
	}
	return reply(strings.Join(blocks, ","), "tool_use")
}

func reply(content, stop string) string {
	return `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[` + content + `],` +
		`"stop_reason":"` + stop + `","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
