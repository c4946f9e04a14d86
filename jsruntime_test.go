package hooks

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoaderTimeoutBoundsTheModuleOfACall: each call evaluates the module,
// and the hook's timeout covers that too, not only the export's call.
func TestLoaderTimeoutBoundsTheModuleOfACall(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "heavy"), 0o755))
	// Well under the load's own bound, far over the hook's timeout.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "heavy", "index.js"), []byte(
		"let n = 0; for (let i = 0; i < 200000; i++) n += i;\nexports.beforeToolExecute = () => ({ allow: false, reason: 'ran' })"), 0o644))
	h, err := (&Loader{Dir: dir, Timeout: time.Millisecond}).Load("heavy")
	require.NoError(t, err)
	js := h.(*jsHook)
	require.Equal(t, 1, js.idleCount(), "the runtime of the load, ready: the timeout is the module's")

	chain, err := NewChain([]Hook{h})
	require.NoError(t, err)
	run, err := chain.Start(context.Background(), Host{}, RunStart{})
	require.NoError(t, err)
	c := run.context(context.Background(), BeforeToolExecute)
	patch, err := js.BeforeToolExecute(c, ToolCall{Name: "shell"})
	require.Error(t, err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), `hook "heavy" ran out of its 1ms`)
	assert.Nil(t, patch, "an interrupted hook decides nothing")
}
