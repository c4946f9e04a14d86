package adapt

import (
	"context"
	"errors"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDriveChecksTheSetupInOrderNamingWhatIsMissing(t *testing.T) {
	chain, err := hooks.NewChain(nil)
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	defer run.End(context.Background(), hooks.RunEnd{})
	ok := Setup{Adapter: "x", Method: "RunStream", Client: "Models", HasClient: true, Streams: "Stream", CanStream: true,
		Deliver: func(hooks.Chunk) error { return nil }}
	for _, tc := range []struct {
		change func(*Setup)
		run    *hooks.Run
		want   string
	}{
		{func(s *Setup) { s.HasClient, s.CanStream = false, false }, nil, "x: Loop.Models is nil"},
		{func(s *Setup) { s.CanStream, s.Deliver = false, nil }, nil, "x: Loop.Models cannot stream (it has no Stream)"},
		{func(s *Setup) { s.Deliver = nil }, nil, "x: Loop.RunStream needs a deliver function"},
		{func(s *Setup) { s.Check = errors.New("x: tools") }, nil, "x: Loop.RunStream needs a run (hooks.Chain.Start)"},
		{func(s *Setup) { s.Check = errors.New("x: tools") }, run, "x: tools"},
		{func(s *Setup) { s.Method, s.CanStream, s.Deliver = "Run", false, nil }, nil, "x: Loop.Run needs a run (hooks.Chain.Start)"},
	} {
		s := ok
		tc.change(&s)
		assert.EqualError(t, s.check(tc.run), tc.want)
	}
	assert.NoError(t, ok.check(run))
}

func TestEachKeepsTheCallsOrderAndStopsAtAnError(t *testing.T) {
	calls := []hooks.ToolCall{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	results := []hooks.ToolResult{{Text: "1"}, {Text: "2"}, {Text: "3"}}
	got, err := Each(calls, results, func(c hooks.ToolCall, r hooks.ToolResult) (string, error) { return c.ID + r.Text, nil })
	require.NoError(t, err)
	assert.Equal(t, []string{"a1", "b2", "c3"}, got)
	_, err = Each(calls, results, func(c hooks.ToolCall, _ hooks.ToolResult) (string, error) {
		if c.ID == "b" {
			return "", errors.New("b failed")
		}
		return c.ID, nil
	})
	assert.EqualError(t, err, "b failed")
}

func TestWithTextReplacesTheTextItemsWithOneWhereTheFirstWas(t *testing.T) {
	type item struct{ kind, text string }
	isText := func(i item) bool { return i.kind == "text" }
	set := func(i item, s string) item { i.text = s; return i }
	newText := func(s string) item { return item{"text", s} }
	content := []item{{"image", "i"}, {"text", "a"}, {"audio", "u"}, {"text", "b"}}
	assert.Equal(t, "a\nb", TextOf(content, func(i item) (string, bool) { return i.text, isText(i) }))
	assert.Equal(t, []item{{"image", "i"}, {"text", "z"}, {"audio", "u"}}, WithText(content, "z", isText, set, newText))
	assert.Equal(t, []item{{"image", "i"}, {"audio", "u"}}, WithText(content, "", isText, set, newText), "no text: no text item")
	assert.Equal(t, []item{{"text", "z"}, {"image", "i"}}, WithText([]item{{"image", "i"}}, "z", isText, set, newText))
	assert.Equal(t, "a", content[1].text, "content is not modified")
}
