package cursor_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/cursor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// beforeSubmitPrompt fires once per prompt, across a snapshot and a
// resume in a new chain too, and again for the next prompt.
func TestSubmitPromptOncePerPromptAcrossResume(t *testing.T) {
	settings := file(t, map[string][]map[string]any{"beforeSubmitPrompt": {cmd(`cat >/dev/null; echo x >> prompts`)}})
	dir := t.TempDir()
	newChain := func() *hooks.Chain {
		hs, err := cursor.Hooks(settings)
		require.NoError(t, err)
		chain, err := hooks.NewChain(hs)
		require.NoError(t, err)
		return chain
	}
	host := hooks.Host{Workdir: dir}
	run, err := newChain().Start(bg, host, hooks.RunStart{})
	require.NoError(t, err)
	msgs := []hooks.Message{{Role: "user", Text: "one"}}
	_, err = run.BeforeModelRequest(bg, hooks.ModelRequest{Messages: msgs})
	require.NoError(t, err)
	snap, err := run.Snapshot()
	require.NoError(t, err)

	resumed, err := newChain().Resume(bg, host, snap)
	require.NoError(t, err)
	defer resumed.End(bg, hooks.RunEnd{Outcome: hooks.Completed})
	_, err = resumed.BeforeModelRequest(bg, hooks.ModelRequest{Messages: msgs})
	require.NoError(t, err)
	msgs = append(msgs, hooks.Message{Role: "assistant", Text: "ok"}, hooks.Message{Role: "user", Text: "two"})
	_, err = resumed.BeforeModelRequest(bg, hooks.ModelRequest{Messages: msgs})
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(dir, "prompts"))
	require.NoError(t, err)
	assert.Equal(t, "x\nx\n", string(data))
}
