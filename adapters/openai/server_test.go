package openai_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/require"
)

// fakeAPI is a chat completions endpoint: it records each request body and
// answers with its replies in turn.
type fakeAPI struct {
	*adapttest.Replies
	t      testing.TB
	client oai.Client
}

func newFakeAPI(t testing.TB, replies ...string) *fakeAPI {
	f := &fakeAPI{Replies: adapttest.NewReplies(t, "/v1/chat/completions", `{"error":{"message":"no more replies"}}`, replies...), t: t}
	f.client = oai.NewClient(option.WithBaseURL(f.URL+"/v1"), option.WithAPIKey("sk-test"),
		option.WithMaxRetries(0), option.WithHTTPClient(f.Client))
	return f
}

// completions is the SDK service the loop calls.
func (f *fakeAPI) completions() *oai.ChatCompletionService { return &f.client.Chat.Completions }

// requests are the bodies received so far.
func (f *fakeAPI) requests() [][]byte { return f.Requests() }

// sentMessages are the raw JSON messages of request i, as the server got
// them.
func (f *fakeAPI) sentMessages(i int) []json.RawMessage {
	f.t.Helper()
	reqs := f.requests()
	require.Greater(f.t, len(reqs), i, "request %d was not sent", i+1)
	var body struct {
		Messages []json.RawMessage `json:"messages"`
	}
	require.NoError(f.t, json.Unmarshal(reqs[i], &body))
	return body.Messages
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

// textReply is a completion whose message is text.
func textReply(text string) string {
	return completion(fmt.Sprintf(`{"role":"assistant","content":%s,"refusal":null}`, quote(text)), "stop")
}

// call is one function call of a toolReply; args is the raw JSON text.
type call struct{ id, name, args string }

// toolReply is a completion asking for calls.
func toolReply(calls ...call) string {
	parts := make([]string, len(calls))
	for i, c := range calls {
		parts[i] = fmt.Sprintf(`{"id":%s,"type":"function","function":{"name":%s,"arguments":%s}}`,
			quote(c.id), quote(c.name), quote(c.args))
	}
	return completion(`{"role":"assistant","content":null,"refusal":null,"tool_calls":[`+strings.Join(parts, ",")+`]}`, "tool_calls")
}

func completion(message, finish string) string {
	return `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"gpt-test",` +
		`"choices":[{"index":0,"finish_reason":"` + finish + `","logprobs":null,"message":` + message + `}],` +
		`"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
