package prebuilt_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/prebuilt"
)

// A secret cut anywhere across a streamed reply's chunks reaches the
// caller in no chunk, through Run.StreamModel.
func TestRedactStreamedReplyKeepsASecretOutOfEveryChunk(t *testing.T) {
	const secret = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCD"
	streamEveryChunking(t, "here is the key "+secret+" and more text after it.", secret, "abcdefghij")
}

// The cases, through the streaming core: a DSN password longer
// than the hold-back, and a keyword whose value comes after a long run of
// blanks.
func TestRedactStreamedLongPasswordsAndFarValues(t *testing.T) {
	pw := strings.Repeat("Pa55w0rd", 12) // 96 characters
	streamEveryChunking(t, "connect to postgres://app:"+pw+"@db.internal:5432/app and more text after it.", pw, "Pa55w0rd")
	aws := "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
	streamEveryChunking(t, "AWS_SECRET_ACCESS_KEY ="+strings.Repeat(" ", 500)+aws+"\nand more text after it.", aws, "EXAMPLEKEY")
}

func streamEveryChunking(t *testing.T, reply, secret, piece string) {
	t.Helper()
	for size := 1; size <= len(reply); size += 3 {
		chain, err := hooks.NewChain([]hooks.Hook{prebuilt.Redact(prebuilt.RedactConfig{})})
		require.NoError(t, err)
		run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
		require.NoError(t, err)
		var chunks []string
		open := func(c *hooks.Context, req hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
			for i := 0; i < len(reply); i += size {
				if err := yield(hooks.Chunk{Text: reply[i:min(i+size, len(reply))]}); err != nil {
					return hooks.ModelResponse{}, err
				}
			}
			return hooks.ModelResponse{Text: reply}, nil
		}
		got, err := run.StreamModel(context.Background(), hooks.ModelRequest{}, open, func(ch hooks.Chunk) error {
			chunks = append(chunks, ch.Text)
			return nil
		})
		require.NoError(t, err)
		all := strings.Join(chunks, "")
		for _, ch := range chunks {
			assert.NotContains(t, ch, piece, "chunk size %d", size)
		}
		assert.NotContains(t, all, secret[8:], "chunk size %d: no part of the key is delivered", size)
		assert.Contains(t, all, "and more text after it.", "chunk size %d", size)
		assert.NotContains(t, got.Response.Text, secret)
	}
}

// A streamed reply's tool-call deltas carry the model's echo of an email
// and a key: what reaches the caller, and the reply the host runs, are
// redacted (the core holds the deltas for the reply's after-hooks).
func TestRedactStreamedToolCallArguments(t *testing.T) {
	chain, err := hooks.NewChain([]hooks.Hook{prebuilt.Redact(prebuilt.RedactConfig{})})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), hooks.Host{}, hooks.RunStart{})
	require.NoError(t, err)
	args := `{"to": "ann@example.com", "key": "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCD"}`
	open := func(c *hooks.Context, req hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		for i := 0; i < len(args); i += 5 {
			d := &hooks.ToolCallDelta{Index: 0, Arguments: args[i:min(i+5, len(args))]}
			if i == 0 {
				d.ID, d.Name = "c1", "mail"
			}
			if err := yield(hooks.Chunk{ToolCall: d}); err != nil {
				return hooks.ModelResponse{}, err
			}
		}
		return hooks.ModelResponse{ToolCalls: []hooks.ToolCall{{ID: "c1", Name: "mail",
			Arguments: map[string]any{"to": "ann@example.com", "key": "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCD"}}}}, nil
	}
	var delivered strings.Builder
	reply, err := run.StreamModel(context.Background(), hooks.ModelRequest{}, open, func(ch hooks.Chunk) error {
		if ch.ToolCall != nil {
			delivered.WriteString(ch.ToolCall.Arguments)
		}
		return nil
	})
	require.NoError(t, err)
	assert.NotContains(t, delivered.String(), "ann@example.com")
	assert.NotContains(t, delivered.String(), "abcdefghij")
	assert.Contains(t, delivered.String(), "[REDACTED:email]")
	require.Len(t, reply.Response.ToolCalls, 1)
	assert.Equal(t, map[string]any{"to": "[REDACTED:email]", "key": "[REDACTED:anthropic_key]"}, reply.Response.ToolCalls[0].Arguments)
}
