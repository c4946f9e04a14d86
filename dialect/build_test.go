package dialect_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
	"github.com/rienda/hooks/hooktest"
)

// guardSpec is a dialect whose one event guards tool calls and reads
// {"deny": true, "reason": …}; failClosed says whether a handler's failure
// refuses the call.
func guardSpec(failClosed bool) *dialect.Spec {
	return &dialect.Spec{Name: "Test", Prefix: "test:", Events: []dialect.Event{{
		Name: "guard", When: dialect.ToolCall, FailClosed: failClosed,
		Decide: func(c *hooks.Context, at *dialect.At, r *dialect.Result) (dialect.Decision, error) {
			var o struct {
				Deny   bool   `json:"deny"`
				Reason string `json:"reason"`
			}
			if r.ExitCode != 0 {
				return dialect.Decision{}, nil
			}
			if _, err := dialect.Decode(r.Stdout, &o); err != nil {
				return dialect.Decision{}, err
			}
			return dialect.Decision{Block: o.Deny, Reason: o.Reason}, nil
		},
	}}}
}

// guardHooks builds the spec's hooks with one handler running script.
func guardHooks(t *testing.T, spec *dialect.Spec, script string, timeout time.Duration) []hooks.Hook {
	t.Helper()
	o, err := dialect.NewOptions(spec, nil)
	require.NoError(t, err)
	return dialect.Build(spec, o, map[string][]*dialect.Handler{"guard": {{
		Where: "guard[0]", Argv: []string{"sh", "-c", script}, Timeout: timeout, MaxOutput: 1 << 10,
	}}})
}

func TestKitDecidesFromOutput(t *testing.T) {
	spec := guardSpec(false)
	h := hooktest.New(t, guardHooks(t, spec, `cat >/dev/null; echo '{"deny": true, "reason": "no rm"}'`, 5*time.Second)...)
	out := h.Tool("shell", map[string]any{"command": "rm -rf /"})
	assert.False(t, out.Ran)
	assert.Contains(t, out.Result.Text, "no rm")

	h = hooktest.New(t, guardHooks(t, spec, `cat >/dev/null; echo '{"deny": false}'`, 5*time.Second)...)
	assert.True(t, h.Tool("shell", map[string]any{"command": "ls"}).Ran)
}

// A handler that crashes, hangs, floods or prints garbage never lets a
// call through in a dialect that fails closed; output too large to read
// and an evident refusal refuse in any dialect.
func TestKitFailureNeverAllowsWhereTheDialectBlocks(t *testing.T) {
	cases := []struct {
		name, script string
		openAllows   bool // in a dialect that fails open, the call runs
	}{
		{"crash", `cat >/dev/null; kill -SEGV $$`, true},
		{"exit 1", `cat >/dev/null; exit 1`, true},
		{"timeout", `cat >/dev/null; sleep 30`, true},
		{"oversized", `cat >/dev/null; head -c 100000 /dev/zero | tr '\0' 'x'`, false},
		{"garbled", `cat >/dev/null; echo '{"deny": tru'`, true},
		{"not started", `exec /nonexistent/guard`, true},
		{"deny then crash", `cat >/dev/null; echo '{"deny": true}'; kill -KILL $$`, false},
		{"deny in malformed json", `cat >/dev/null; echo "{'decision': 'deny'"`, false},
		{"deny in another case", `cat >/dev/null; echo '{"Decision": "block"}'`, false},
	}
	for _, tc := range cases {
		for _, closed := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/failClosed=%t", tc.name, closed), func(t *testing.T) {
				timeout := 10 * time.Second // room for a loaded machine: only "timeout" times out
				if tc.name == "timeout" {
					timeout = 500 * time.Millisecond
				}
				h := hooktest.New(t, guardHooks(t, guardSpec(closed), tc.script, timeout)...)
				out := h.Tool("shell", map[string]any{"command": "rm -rf /"})
				if closed || !tc.openAllows {
					assert.False(t, out.Ran, "the call must be refused")
					assert.True(t, strings.Contains(out.Result.Text, "Test hook guard[0]") || strings.Contains(out.Result.Text, "refused"), out.Result.Text)
					assert.NotContains(t, out.Result.Text, "nonexistent", "the model never reads what the command printed")
				} else {
					assert.True(t, out.Ran, "a dialect that fails open lets the call run")
					assert.NotEmpty(t, h.Diagnostics(), "and says why")
				}
			})
		}
	}
}

func TestKitSendsTheRunOnBoundedAndAddsContext(t *testing.T) {
	spec := &dialect.Spec{Name: "Test", Prefix: "test:", Events: []dialect.Event{
		{Name: "start", When: dialect.RunStart, Decide: func(*hooks.Context, *dialect.At, *dialect.Result) (dialect.Decision, error) {
			return dialect.Decision{Context: "branch main"}, nil
		}},
		{Name: "stop", When: dialect.FinalReply, Decide: func(*hooks.Context, *dialect.At, *dialect.Result) (dialect.Decision, error) {
			return dialect.Decision{Block: true, Reason: "run the tests"}, nil
		}},
	}}
	o, err := dialect.NewOptions(spec, []dialect.Option{dialect.Continuations(2)})
	require.NoError(t, err)
	hd := func(ev string) []*dialect.Handler {
		return []*dialect.Handler{{Where: ev + "[0]", Argv: []string{"true"}, Timeout: 5 * time.Second}}
	}
	hs := dialect.Build(spec, o, map[string][]*dialect.Handler{"start": hd("start"), "stop": hd("stop")})
	require.Len(t, hs, 2)
	assert.Equal(t, "test:start", hs[0].Name())
	h := hooktest.New(t, hs...)
	req := hooks.ModelRequest{System: "be brief", Messages: []hooks.Message{{Role: "user", Text: "hi"}}}
	var continued int
	for range 5 {
		out := h.Model(req, hooks.ModelResponse{Text: "done"})
		require.NoError(t, out.Err)
		require.NotNil(t, out.Sent)
		assert.Contains(t, out.Sent.System, "branch main")
		if out.Reply.Continue == "" {
			break
		}
		continued++
		req.Messages = append(req.Messages, hooks.Message{Role: "assistant", Text: "done"}, hooks.Message{Role: "user", Text: out.Reply.Continue})
	}
	assert.Equal(t, 2, continued, "the streak is bounded by Continuations")
}

func TestKitSettingsNameFileLineAndEntry(t *testing.T) {
	data := []byte("{\n  \"hooks\": {\n    \"guard\": [\n      {\"matchr\": \"x\", \"hooks\": []},\n      {\"matcher\": \"y\"}\n    ]\n  }\n}")
	var diags []string
	s := dialect.NewSettings("test: Test settings", "hooks.json", data, func(d hooks.Diagnostic) { diags = append(diags, d.Err.Error()) })
	events, _, ok, err := s.Top(nil)
	require.NoError(t, err)
	require.True(t, ok)
	_, err = s.Groups("hooks.guard", events["guard"])
	require.Error(t, err)
	assert.Equal(t, `test: Test settings: hooks.json: line 5: hooks.guard[1].hooks: missing: a matcher group needs a list of handlers`, err.Error())
	require.Len(t, diags, 1)
	assert.Equal(t, `test: Test settings: hooks.json: line 4: hooks.guard[0]: unknown key "matchr", not read; did you mean "matcher"?`, diags[0])
	for path, line := range map[string]int{"hooks": 2, "hooks.guard": 3, "hooks.guard[0]": 4, "hooks.guard[0].hooks": 4, "hooks.guard[1].matcher": 5, "hooks.guard[1].nothing": 5, "nowhere": 0} {
		assert.Equal(t, line, s.Line(path), path)
	}
}

func TestKitOptions(t *testing.T) {
	spec := &dialect.Spec{Name: "Test", Prefix: "test:", UniqueToolNames: true}
	_, err := dialect.NewOptions(spec, []dialect.Option{dialect.ToolNames(map[string]string{"shell": ""})})
	assert.EqualError(t, err, `test: ToolNames: empty tool name in "shell" -> ""`)
	_, err = dialect.NewOptions(spec, []dialect.Option{dialect.ToolNames(map[string]string{"a": "X", "b": "X"})})
	assert.EqualError(t, err, `test: ToolNames: "a" and "b" are both given the Test name "X"`)
	type key struct{}
	o, err := dialect.NewOptions(spec, []dialect.Option{dialect.NamePrefix("p:"), dialect.Setting(key{}, 7), nil})
	require.NoError(t, err)
	assert.Equal(t, "p:", o.Prefix)
	v, ok := o.Value(key{})
	assert.True(t, ok)
	assert.Equal(t, 7, v)
}

func TestKitToolCheck(t *testing.T) {
	m1, err := dialect.NewMatcher("hooks.guard[0].matcher", "Bash|Wirte", dialect.NamesOrPattern)
	require.NoError(t, err)
	m2, err := dialect.NewMatcher("hooks.guard[1].matcher", "web.*", dialect.Whole)
	require.NoError(t, err)
	_, err = dialect.NewMatcher("hooks.guard[2].matcher", "(", dialect.Search)
	assert.ErrorContains(t, err, `hooks.guard[2].matcher: "(" is not a regular expression`)
	tm, err := dialect.NewToolMap(map[string]string{"shell": "Bash", "writ": "Write"}, "Test", false)
	require.NoError(t, err)
	check := &dialect.ToolCheck{Label: "test: Test settings", Option: "test: ToolNames", Tools: tm, Matchers: []*dialect.ToolMatcher{m1, m2}}
	probs := check.Problems([]string{"shell", "write"})
	require.Len(t, probs, 3)
	assert.Contains(t, probs[0].Error(), `"Wirte" names no tool of this run (did you mean "write"?)`)
	assert.Contains(t, probs[1].Error(), `"web.*" matches no tool of this run`)
	assert.Contains(t, probs[2].Error(), `test: ToolNames: "writ" is no tool of this run (did you mean "write"?)`)
	assert.True(t, m1.Match("Bash"))
	assert.False(t, m1.Match("bash"), "names match exactly")
}
