package prebuilt_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/prebuilt"
)

// streamReasoning streams reasoning (and then text) cut into pieces at
// cuts through a run of Redact, and returns what the caller received of
// each channel and the reply.
func streamReasoning(t *testing.T, cfg prebuilt.RedactConfig, reasoning []string, text string) (gotReasoning, gotText []string, reply hooks.ModelReply) {
	t.Helper()
	chain, err := hooks.NewChain([]hooks.Hook{prebuilt.Redact(cfg)})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	open := func(c *hooks.Context, req hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		for _, r := range reasoning {
			if err := yield(hooks.Chunk{Reasoning: r}); err != nil {
				return hooks.ModelResponse{}, err
			}
		}
		if text != "" {
			if err := yield(hooks.Chunk{Text: text}); err != nil {
				return hooks.ModelResponse{}, err
			}
		}
		return hooks.ModelResponse{Text: text, Reasoning: strings.Join(reasoning, "")}, nil
	}
	reply, err = run.StreamModel(context.Background(), hooks.ModelRequest{}, open, func(ch hooks.Chunk) error {
		if ch.Reasoning != "" {
			gotReasoning = append(gotReasoning, ch.Reasoning)
		}
		if ch.Text != "" {
			gotText = append(gotText, ch.Text)
		}
		assert.False(t, ch.Reasoning != "" && ch.Text != "", "one channel a chunk")
		return nil
	})
	require.NoError(t, err)
	return gotReasoning, gotText, reply
}

// A secret in the model's reasoning, cut at every position between two
// chunks, and in chunks of every size, reaches the caller in no reasoning
// chunk and is not in the reply's Reasoning; the text after it is
// delivered. The reasoning is preceded by multi-byte characters, so cuts
// fall inside characters too.
func TestRedactStreamedReasoningAtEveryCut(t *testing.T) {
	const secret = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCD"
	reasoning := "Thinking… «clé» the user pasted " + secret + " so I will not repeat it; done."
	check := func(t *testing.T, label string, pieces []string, text string) {
		r, x, reply := streamReasoning(t, prebuilt.RedactConfig{}, pieces, text)
		all := strings.Join(r, "")
		for _, ch := range r {
			assert.NotContains(t, ch, "abcdefghij", label)
		}
		assert.NotContains(t, all, secret[8:], "%s: no part of the key is delivered", label)
		assert.Contains(t, all, "so I will not repeat it; done.", label)
		assert.NotContains(t, reply.Response.Reasoning, "abcdefghij", label)
		assert.Equal(t, all, reply.Response.Reasoning, "%s: the reply's reasoning is what was delivered", label)
		assert.Equal(t, text, strings.Join(x, ""), label)
	}
	for cut := 0; cut <= len(reasoning); cut++ {
		check(t, fmt.Sprint("cut at byte ", cut), []string{reasoning[:cut], reasoning[cut:]}, "")
	}
	for size := 1; size <= len(reasoning); size += 5 {
		var pieces []string
		for i := 0; i < len(reasoning); i += size {
			pieces = append(pieces, reasoning[i:min(i+size, len(reasoning))])
		}
		check(t, fmt.Sprint("size ", size), pieces, "The answer is 4.")
	}
}

// The key's start in the reasoning and its end in the text never join:
// each channel is held back on its own, and neither leaks the parts it
// holds of a key whole in itself.
func TestRedactStreamedReasoningAndTextAreSeparateChannels(t *testing.T) {
	const secret = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCD"
	r, x, reply := streamReasoning(t, prebuilt.RedactConfig{}, []string{"plan: " + secret[:20], secret[20:] + " end"}, "reply "+secret)
	assert.NotContains(t, strings.Join(r, ""), "abcdefghij")
	assert.NotContains(t, strings.Join(x, ""), "abcdefghij")
	assert.NotContains(t, reply.Response.Text, "abcdefghij")
	assert.NotContains(t, reply.Response.Reasoning, "abcdefghij")
}

// A secret under Block in the reasoning ends the stream: nothing of it,
// nor the text after it, is delivered.
func TestRedactBlockedSecretInReasoningEndsTheStream(t *testing.T) {
	cfg := prebuilt.RedactConfig{Strategy: prebuilt.Block}
	const secret = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCD"
	r, x, reply := streamReasoning(t, cfg, []string{"I see " + secret[:30], secret[30:] + " in the file"}, "the text after")
	assert.NotContains(t, strings.Join(r, ""), "abcdefghij")
	assert.Empty(t, x, "nothing after a blocked reasoning")
	require.NotNil(t, reply.End)
	assert.NotContains(t, reply.Response.Reasoning, "abcdefghij")
}

// After the model (CallModel, no stream), the reply's reasoning is
// redacted like its text, and a blocked one withholds the reply and drops
// the reasoning.
func TestRedactReasoningAfterModel(t *testing.T) {
	const secret = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCD"
	for _, strategy := range []prebuilt.Strategy{prebuilt.Mask, prebuilt.Block} {
		chain, err := hooks.NewChain([]hooks.Hook{prebuilt.Redact(prebuilt.RedactConfig{Strategy: strategy})})
		require.NoError(t, err)
		run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
		require.NoError(t, err)
		reply, err := run.CallModel(context.Background(), hooks.ModelRequest{}, func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
			return hooks.ModelResponse{Text: "fine", Reasoning: "the key is " + secret + ", mail bob@example.com"}, nil
		})
		require.NoError(t, err)
		assert.NotContains(t, reply.Response.Reasoning, "abcdefghij", "strategy %d", strategy)
		assert.NotContains(t, reply.Response.Reasoning, "bob@example.com", "strategy %d", strategy)
		if strategy == prebuilt.Block {
			assert.Empty(t, reply.Response.Reasoning)
			assert.Contains(t, reply.Response.Text, "withheld")
		} else {
			assert.Contains(t, reply.Response.Reasoning, "the key is ")
			assert.Equal(t, "fine", reply.Response.Text)
		}
	}
}

// A private key open in the reasoning, its body long past the hold-back,
// while text streams beside it: the open key is the reasoning channel's
// (each channel holds its own), so nothing of its body reaches the caller
// and the text is not withheld for it.
func TestRedactStreamedPrivateKeyInReasoningBesideText(t *testing.T) {
	body := strings.Repeat("MIIEpAIBAAKCAQEA", 40) // 640 characters
	begin, end := "-----BEGIN "+"RSA PRIVATE KEY-----\n", "\n-----END RSA "+"PRIVATE KEY-----"
	chain, err := hooks.NewChain([]hooks.Hook{prebuilt.Redact(prebuilt.RedactConfig{})})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	var r, x strings.Builder
	open := func(c *hooks.Context, req hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		chunks := []hooks.Chunk{{Reasoning: "the file has " + begin}}
		for i := 0; i < len(body); i += 16 {
			chunks = append(chunks, hooks.Chunk{Reasoning: body[i : i+16], Text: "word "})
		}
		chunks = append(chunks, hooks.Chunk{Reasoning: end + " so I hide it"})
		for _, ch := range chunks {
			if err := yield(ch); err != nil {
				return hooks.ModelResponse{}, err
			}
		}
		return hooks.ModelResponse{}, nil
	}
	reply, err := run.StreamModel(context.Background(), hooks.ModelRequest{}, open, func(ch hooks.Chunk) error {
		r.WriteString(ch.Reasoning)
		x.WriteString(ch.Text)
		return nil
	})
	require.NoError(t, err)
	assert.NotContains(t, r.String(), "MIIEpAIBAAKCAQEA")
	assert.NotContains(t, reply.Response.Reasoning, "MIIEpAIBAAKCAQEA")
	assert.Contains(t, r.String(), "so I hide it")
	assert.Equal(t, strings.Repeat("word ", 40), x.String(), "the text channel is not withheld for the reasoning's key")
}
