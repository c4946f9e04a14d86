package anthropic_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/rienda/hooks/internal/adapttest"
	"github.com/stretchr/testify/require"
)

// fakeAPI is a Messages API endpoint: it records each request body and
// answers with its replies in turn.
type fakeAPI struct {
	*adapttest.Replies
	t      testing.TB
	client sdk.Client
}

func newFakeAPI(t testing.TB, replies ...string) *fakeAPI {
	f := &fakeAPI{Replies: adapttest.NewReplies(t, "/v1/messages", `{"type":"error","error":{"type":"api_error","message":"no more replies"}}`, replies...), t: t}
	f.client = sdk.NewClient(option.WithBaseURL(f.URL), option.WithAPIKey("sk-ant-test"),
		option.WithMaxRetries(0), option.WithHTTPClient(f.Client))
	return f
}

// messages is the SDK service the loop calls.
func (f *fakeAPI) messages() *sdk.MessageService { return &f.client.Messages }

// requests are the bodies received so far.
func (f *fakeAPI) requests() [][]byte { return f.Requests() }

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
