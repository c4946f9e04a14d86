package genkit_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/firebase/genkit/go/plugins/compat_oai"
	"github.com/openai/openai-go/option"
	"github.com/stretchr/testify/require"
)

// fakeAPI is an OpenAI chat completions endpoint speaking the real wire
// format (JSON, or server-sent events when the request streams): it
// records each request body and answers with its replies in turn.
type fakeAPI struct {
	t       testing.TB
	mu      sync.Mutex
	bodies  [][]byte
	replies []reply
	g       *genkit.Genkit
	model   ai.Model
}

// reply is one scripted answer: its text, its tool calls, its finish reason.
type reply struct {
	text   string
	calls  []call
	finish string
}

// call is one function call of a reply; args is the raw JSON text.
type call struct{ id, name, args string }

func textReply(text string) reply { return reply{text: text, finish: "stop"} }

func toolReply(calls ...call) reply { return reply{calls: calls, finish: "tool_calls"} }

// newFakeAPI starts the endpoint and a genkit with the OpenAI-compatible
// plugin pointed at it, and defines the model "fake/gpt-test".
func newFakeAPI(t testing.TB, replies ...reply) *fakeAPI {
	f := &fakeAPI{t: t, replies: replies}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	plugin := &compat_oai.OpenAICompatible{Provider: "fake", APIKey: "sk-test", BaseURL: srv.URL + "/v1",
		Opts: []option.RequestOption{option.WithMaxRetries(0), option.WithHTTPClient(srv.Client())}}
	// genkit.Init watches for signals until its context ends: end it.
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	f.g = genkit.Init(ctx, genkit.WithPlugins(plugin))
	f.model = plugin.DefineModel("fake", "gpt-test", ai.ModelOptions{Supports: &compat_oai.Multimodal})
	return f
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" || err != nil {
		http.Error(w, "unexpected request "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	f.mu.Lock()
	n := len(f.bodies)
	f.bodies = append(f.bodies, body)
	f.mu.Unlock()
	if n >= len(f.replies) {
		f.t.Errorf("request %d: the test scripted only %d replies", n+1, len(f.replies))
		http.Error(w, `{"error":{"message":"no more replies"}}`, http.StatusInternalServerError)
		return
	}
	var req struct {
		Stream bool `json:"stream"`
	}
	_ = json.Unmarshal(body, &req)
	if req.Stream {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, c := range f.replies[n].chunks() {
			_, _ = io.WriteString(w, "data: "+c+"\n\n")
		}
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, f.replies[n].completion())
}

const usageJSON = `{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18,"prompt_tokens_details":{"cached_tokens":5}}`

func (r reply) completion() string {
	msg := `{"role":"assistant","content":` + quote(r.text) + `,"refusal":null`
	if len(r.calls) > 0 {
		parts := make([]string, len(r.calls))
		for i, c := range r.calls {
			parts[i] = fmt.Sprintf(`{"id":%s,"type":"function","function":{"name":%s,"arguments":%s}}`,
				quote(c.id), quote(c.name), quote(c.args))
		}
		msg += `,"tool_calls":[` + strings.Join(parts, ",") + `]`
	}
	msg += "}"
	return `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"gpt-test",` +
		`"choices":[{"index":0,"finish_reason":"` + r.finish + `","logprobs":null,"message":` + msg + `}],` +
		`"usage":` + usageJSON + `}`
}

// chunks are the reply streamed: its text a few characters a chunk (so
// that a secret spans chunks), then its calls, then the finish and usage.
func (r reply) chunks() []string {
	head := `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-test","choices":[`
	var out []string
	for s := r.text; s != ""; {
		n := min(4, len(s))
		out = append(out, head+`{"index":0,"delta":{"content":`+quote(s[:n])+`}}]}`)
		s = s[n:]
	}
	for i, c := range r.calls {
		out = append(out, head+fmt.Sprintf(`{"index":0,"delta":{"tool_calls":[{"index":%d,"id":%s,"type":"function","function":{"name":%s,"arguments":%s}}]}}]}`,
			i, quote(c.id), quote(c.name), quote(c.args)))
	}
	out = append(out, head+`{"index":0,"delta":{},"finish_reason":"`+r.finish+`"}]}`,
		`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-test","choices":[],"usage":`+usageJSON+`}`)
	return out
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

// messages are request i's messages decoded.
func (f *fakeAPI) messages(i int) []map[string]any {
	f.t.Helper()
	raw, _ := f.body(i)["messages"].([]any)
	out := make([]map[string]any, len(raw))
	for j, m := range raw {
		out[j], _ = m.(map[string]any)
	}
	return out
}

// toolNames are the names of the tools request i offered, in order.
func (f *fakeAPI) toolNames(i int) []string {
	f.t.Helper()
	raw, _ := f.body(i)["tools"].([]any)
	var names []string
	for _, t := range raw {
		fn, _ := t.(map[string]any)["function"].(map[string]any)
		name, _ := fn["name"].(string)
		names = append(names, name)
	}
	return names
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// define defines another model of the fake provider, named "fake/<id>".
func (f *fakeAPI) define(id string) ai.Model {
	return genkit.LookupPlugin(f.g, "fake").(*compat_oai.OpenAICompatible).DefineModel("fake", id, ai.ModelOptions{Supports: &compat_oai.Multimodal})
}
