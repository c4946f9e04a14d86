package prebuilt_test

import (
	"context"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// paths/names: a subagent given a host of its own that leaves Workdir out
// (meaning to change only the session) would have a Sandbox rooted at the
// work directory check no path at all. ChildWith says so instead; a host
// that starts from Run.Host keeps the root, and the subagent stays in it.
func TestChildHostWithoutTheWorkdirCannotDisarmTheSandbox(t *testing.T) {
	work := t.TempDir()
	chain, err := hooks.NewChain([]hooks.Hook{prebuilt.Sandbox(prebuilt.SandboxConfig{})})
	require.NoError(t, err)
	ctx := context.Background()
	parent, err := chain.Start(ctx, hooks.Host{Workdir: work}, hooks.RunStart{RunID: "root"})
	require.NoError(t, err)
	defer parent.End(ctx, hooks.RunEnd{})
	outside := hooks.ToolCall{Name: "read_file", Arguments: map[string]any{"path": "/etc/passwd"}}
	step, err := parent.BeforeToolExecute(ctx, outside)
	require.NoError(t, err)
	require.True(t, step.Refused, "the parent's sandbox holds")

	bare := hooks.Host{Session: hooks.Session{ID: "sub"}}
	child, err := parent.ChildWith(ctx, hooks.RunStart{RunID: "sub"}, hooks.ChildConfig{Host: &bare})
	if err == nil {
		step, err := child.BeforeToolExecute(ctx, outside)
		require.NoError(t, err)
		assert.True(t, step.Refused, "a subagent's host is no way out of the work directory")
		child.End(ctx, hooks.RunEnd{})
	} else {
		assert.ErrorContains(t, err, "Workdir")
	}

	same := parent.Host()
	same.Session = hooks.Session{ID: "sub2"}
	child, err = parent.ChildWith(ctx, hooks.RunStart{RunID: "sub2"}, hooks.ChildConfig{Host: &same})
	require.NoError(t, err)
	defer child.End(ctx, hooks.RunEnd{})
	step, err = child.BeforeToolExecute(ctx, outside)
	require.NoError(t, err)
	assert.True(t, step.Refused)
}
