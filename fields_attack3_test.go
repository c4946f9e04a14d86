package hooks_test

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Attacks on the request fields (ToolChoice, Settings) and the reply's
// reasoning, class by class (ATTACKS.md). Each test is an attack that
// worked and was fixed, or the strongest of those that held.

// flipping is a provider option whose JSON differs between reads: the
// check reads "store":false, a provider encoding it later would read true.
type flipping struct{ reads *int }

func (f flipping) MarshalJSON() ([]byte, error) {
	*f.reads++
	if *f.reads == 1 {
		return []byte(`{"store":false}`), nil
	}
	return []byte(`{"store":true}`), nil
}

// State and decoding: the provider options a hook returns are, once
// checked, the request's own JSON values: a nested map the hook keeps and
// changes later, or a value whose JSON changes between reads, changes
// nothing a later hook (a guard) or the provider reads.
func TestAttackProviderOptionsCannotChangeAfterTheCheck(t *testing.T) {
	nested := map[string]any{"store": false}
	reads := 0
	var guardSaw []any
	set := setter("set", &hooks.ModelRequestPatch{Settings: &hooks.ModelSettings{
		Provider: map[string]any{"opts": nested, "flip": flipping{&reads}}}}, nil)
	guard := hooks.Funcs{HookName: "guard", BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		guardSaw = append(guardSaw, req.Settings.Provider["flip"])
		return nil, nil
	}}
	run := start(t, &recorder{}, set, guard)
	step, err := run.BeforeModelRequest(context.Background(), hooks.ModelRequest{})
	require.NoError(t, err)
	nested["store"] = true // the hook changes what it returned, after the check
	got, err := json.Marshal(step.Request.Settings.Provider)
	require.NoError(t, err)
	assert.JSONEq(t, `{"opts":{"store":false},"flip":{"store":false}}`, string(got),
		"the provider receives what was checked")
	assert.Equal(t, []any{map[string]any{"store": false}}, guardSaw, "a later guard reads the value as JSON, as the provider will")
	again, err := json.Marshal(step.Request.Settings.Provider)
	require.NoError(t, err)
	assert.Equal(t, string(got), string(again), "a second read is the same")
}

// Encoding and spelling: provider options JSON cannot say exactly (a
// string that is not UTF-8, which JSON sends as U+FFFD) or two keys that
// differ only in case (a guard reads one, a provider decoding into a
// struct the other) are the hook's error.
func TestAttackProviderOptionsJSONCannotSayExactly(t *testing.T) {
	for name, p := range map[string]map[string]any{
		"not UTF-8 value":        {"user": "a\xffb"},
		"not UTF-8 key":          {"us\xffer": "x"},
		"keys differ in case":    {"store": false, "Store": true},
		"nested keys in case":    {"o": map[string]any{"store": false, "STORE": true}},
		"NaN":                    {"t": math.NaN()},
		"a channel":              {"c": make(chan int)},
		"a func":                 {"f": func() {}},
		"not UTF-8 in a list":    {"l": []any{"ok", "\xc3"}},
		"huge count of a string": {"s": strings.Repeat("x", 2<<20)},
		"an integer past 2^53":   {"seed": int64(1)<<53 + 1},
	} {
		t.Run(name, func(t *testing.T) {
			rec := &recorder{}
			set := setter("set", &hooks.ModelRequestPatch{Settings: &hooks.ModelSettings{Provider: p}}, nil)
			run := start(t, rec, hooks.WithPolicy(set, hooks.Report))
			step, err := run.BeforeModelRequest(context.Background(), hooks.ModelRequest{})
			require.NoError(t, err)
			assert.True(t, step.Request.Settings == nil, "nothing of the patch applies")
			require.Len(t, rec.diagnostics(), 1)
			assert.ErrorContains(t, rec.diagnostics()[0].Err, "provider")
		})
	}
}

// A cyclic provider map is refused, not a hang or a crash.
func TestAttackProviderOptionsCycle(t *testing.T) {
	m := map[string]any{}
	m["self"] = m
	set := setter("set", &hooks.ModelRequestPatch{Settings: &hooks.ModelSettings{Provider: m}}, nil)
	run := start(t, &recorder{}, set)
	_, err := run.BeforeModelRequest(context.Background(), hooks.ModelRequest{})
	var he *hooks.HookError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, "set", he.Hook)
}

// forcer is a wrap hook that passes next a request changed by change.
func forcer(change func(*hooks.ModelRequest)) hooks.Funcs {
	return hooks.Funcs{HookName: "forcer", WrapModel: func(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
		change(&req)
		return next(c, req)
	}}
}

// Names and order: a wrap hook that passes next a tool choice no provider
// can understand, a tool the guards narrowed away, or bad settings, never
// reaches the model: next returns the wrap's error, naming it.
func TestAttackWrapCannotPassBadFieldsToTheModel(t *testing.T) {
	narrowed := []hooks.ToolSpec{{Name: "read_file"}}
	for name, change := range map[string]func(*hooks.ModelRequest){
		"mode ANY":                  func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Mode: "ANY"} },
		"a narrowed-away tool":      func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Name: "shell"} },
		"a look-alike":              func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Name: "read_fіle"} },
		"a name with whitespace":    func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Name: "read_file "} },
		"narrows, keeps the choice": func(r *hooks.ModelRequest) { r.Tools = []hooks.ToolSpec{{Name: "other"}} },
		"NaN temperature":           func(r *hooks.ModelRequest) { r.Settings = &hooks.ModelSettings{Temperature: ptr(math.NaN())} },
		"provider not JSON": func(r *hooks.ModelRequest) {
			r.Settings = &hooks.ModelSettings{Provider: map[string]any{"c": make(chan int)}}
		},
		"settings changed in place": func(r *hooks.ModelRequest) { *r.Settings.MaxTokens = -5 },
	} {
		t.Run(name, func(t *testing.T) {
			called := false
			model := func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
				called = true
				return hooks.ModelResponse{Text: "ok"}, nil
			}
			settings := &hooks.ModelSettings{MaxTokens: ptr(10)}
			run := start(t, &recorder{}, forcer(change))
			_, err := run.CallModel(context.Background(), hooks.ModelRequest{Tools: narrowed,
				ToolChoice: &hooks.ToolChoice{Mode: "required", Name: "read_file"}, Settings: settings}, model)
			require.Error(t, err)
			assert.False(t, called, "the model is never called with it")
			var he *hooks.HookError
			require.ErrorAs(t, err, &he)
			assert.Equal(t, "forcer", he.Hook)
			assert.Equal(t, hooks.WrapModelCall, he.Point)
		})
	}
}

// A wrap that passes the host's request on, or changes only what is
// valid, calls the model as before; the host's own values are not judged
// (a host's empty ToolChoice goes as it gave it).
func TestAttackWrapPassingValidFieldsCallsTheModel(t *testing.T) {
	for name, change := range map[string]func(*hooks.ModelRequest){
		"unchanged":       func(*hooks.ModelRequest) {},
		"a valid choice":  func(r *hooks.ModelRequest) { r.ToolChoice = &hooks.ToolChoice{Mode: "none"} },
		"a valid setting": func(r *hooks.ModelRequest) { r.Settings = &hooks.ModelSettings{TopP: ptr(0.9)} },
		"another system":  func(r *hooks.ModelRequest) { r.System = "x" },
	} {
		t.Run(name, func(t *testing.T) {
			var got hooks.ModelRequest
			model := func(_ *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
				got = req
				return hooks.ModelResponse{Text: "ok"}, nil
			}
			run := start(t, &recorder{}, forcer(change))
			host := hooks.ModelRequest{Tools: []hooks.ToolSpec{{Name: "x"}}, ToolChoice: &hooks.ToolChoice{}, Settings: &hooks.ModelSettings{TopP: ptr(5.0)}}
			_, err := run.CallModel(context.Background(), host, model)
			require.NoError(t, err)
			want := host
			change(&want)
			assert.Equal(t, want, got)
		})
	}
}

// Encoding: reasoning whose characters are cut between chunks, and bytes
// that are not UTF-8 at all, reach the caller through a stream hook in
// chunks each of which is whole UTF-8 or the model's own bytes, and the
// reply's reasoning is what was delivered.
func TestAttackReasoningCutInsideCharacters(t *testing.T) {
	reasoning := "日本語 thinking é " + secret + " 🎉 done"
	for cut := 1; cut < len(reasoning); cut++ {
		got, reply := streamPieces(t, []piece{{reasoning: reasoning[:cut]}, {text: "hi"}, {reasoning: reasoning[cut:]}}, redactor{name: "redact"})
		r, x := joined(got)
		want := strings.Replace(reasoning, secret, "[REDACTED]", 1)
		assert.Equal(t, want, r, "cut %d", cut)
		assert.Equal(t, "hi", x)
		assert.Equal(t, want, reply.Response.Reasoning)
		for _, ch := range got {
			assert.True(t, utf8.ValidString(ch.Reasoning), "cut %d: a chunk %q holds half a character", cut, ch.Reasoning)
		}
	}
}

// Order: reasoning yielded after the text, a secret split around text
// chunks, and a reply whose reasoning the StreamFunc returns but never
// yields: no secret reaches the caller or the reply.
func TestAttackReasoningAfterTextAndNeverYielded(t *testing.T) {
	got, reply := streamPieces(t, []piece{{text: "answer "}, {reasoning: secret[:7]}, {text: "more"}, {reasoning: secret[7:] + " end"}}, redactor{name: "redact"})
	r, x := joined(got)
	assert.Equal(t, "[REDACTED] end", r)
	assert.Equal(t, "answer more", x)
	assert.Equal(t, r, reply.Response.Reasoning)

	run := start(t, &recorder{}, redactor{name: "redact"})
	open := func(_ *hooks.Context, _ hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		if err := yield(hooks.Chunk{Text: "hi"}); err != nil {
			return hooks.ModelResponse{}, err
		}
		return hooks.ModelResponse{Text: "hi", Reasoning: "raw " + secret}, nil
	}
	var chunks []hooks.Chunk
	reply, err := run.StreamModel(context.Background(), hooks.ModelRequest{}, open, func(ch hooks.Chunk) error { chunks = append(chunks, ch); return nil })
	require.NoError(t, err)
	assert.NotContains(t, reply.Response.Reasoning, secret[3:], "reasoning only returned is never the reply's")
	for _, ch := range chunks {
		assert.NotContains(t, ch.Reasoning, secret[3:])
	}
}
