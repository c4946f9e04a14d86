package prebuilt_test

import (
	"context"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/prebuilt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// childCalls runs calls of a root and one child (of an agent-file hook)
// and returns how many of the child's ran: the spec's perChild must
// decide what a Go config's PerChild does.
func childCalls(t *testing.T, h hooks.Hook, parentCalls, childCalls int) int {
	t.Helper()
	parent := startParent(t, h)
	ranTools(t, parent, parentCalls, "read")
	child, err := parent.Child(context.Background(), hooks.RunStart{})
	require.NoError(t, err)
	defer child.End(context.Background(), hooks.RunEnd{})
	return ranTools(t, child, childCalls, "read")
}

func TestSpecPerChildGivesEachChildItsOwnToolLimit(t *testing.T) {
	shared, err := prebuilt.FromSpec("toolCallLimit", settingsOf(t, `{run: 2}`))
	require.NoError(t, err)
	assert.Zero(t, childCalls(t, shared, 2, 2), "without perChild the child shares the spent root limit")

	apart, err := prebuilt.FromSpec("toolCallLimit", settingsOf(t, `{run: 2, perChild: true}`))
	require.NoError(t, err)
	assert.Equal(t, 2, childCalls(t, apart, 2, 3), "perChild: the child has 2 of its own, and no more")

	off, err := prebuilt.FromSpec("toolCallLimit", settingsOf(t, `{run: 2, perChild: false}`))
	require.NoError(t, err)
	assert.Zero(t, childCalls(t, off, 2, 2))
}

func TestSpecChildKeysAreStrict(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"toolCallLimit", `{run: 2, perchild: true}`, `unknown setting "perchild" (did you mean "perChild"?)`},
		{"toolCallLimit", `{run: 2, PerChild: true}`, `unknown setting "PerChild" (did you mean "perChild"?)`},
		{"toolCallLimit", `{run: 2, perChild: "yes"}`, `setting "perChild": want true or false, got the string "yes"`},
		{"toolCallLimit", `{run: 2, perChild: 1}`, `setting "perChild": want true or false`},
		{"toolCallLimit", `{run: 2, perChild: ~}`, `perChild`},
		{"modelCallLimit", `{run: 2, perChildren: true}`, `unknown setting "perChildren" (did you mean "perChild"?)`},
		{"budget", `{maxCost: 1, perChild: "true"}`, `setting "perChild": want true or false`},
		{"budget", `{maxCost: 1, perchild: true}`, `did you mean "perChild"?`},
		{"loopGuard", `{acrossChild: true}`, `unknown setting "acrossChild" (did you mean "acrossChildren"?)`},
		{"loopGuard", `{AcrossChildren: true}`, `did you mean "acrossChildren"?`},
		{"loopGuard", `{acrossChildren: [true]}`, `setting "acrossChildren": want true or false`},
		{"loopGuard", `{perChild: true}`, `unknown setting "perChild"`},
		{"toolCallLimit", `{run: 2, acrossChildren: true}`, `unknown setting "acrossChildren"`},
	} {
		_, err := prebuilt.FromSpec(tc.name, settingsOf(t, tc.src))
		if assert.Error(t, err, "%s %s", tc.name, tc.src) {
			assert.Contains(t, err.Error(), tc.want, "%s %s", tc.name, tc.src)
		}
	}
}

// The other three entries' child keys take effect as their Go fields do.
func TestSpecChildKeysTakeEffect(t *testing.T) {
	ctx := context.Background()
	modelEnds := func(r *hooks.Run) bool {
		step, err := r.BeforeModelRequest(ctx, hooks.ModelRequest{})
		require.NoError(t, err)
		return step.End != nil
	}
	for src, childEnds := range map[string]bool{`{run: 1}`: true, `{run: 1, perChild: true}`: false} {
		h, err := prebuilt.FromSpec("modelCallLimit", settingsOf(t, src))
		require.NoError(t, err)
		parent := startParent(t, h)
		require.False(t, modelEnds(parent))
		child, err := parent.Child(ctx, hooks.RunStart{})
		require.NoError(t, err)
		assert.Equal(t, childEnds, modelEnds(child), "modelCallLimit %s", src)
	}

	spend := func(r *hooks.Run) {
		_, err := r.CallModel(ctx, hooks.ModelRequest{}, func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
			return hooks.ModelResponse{Text: "x", Usage: hooks.Usage{InputTokens: 90, OutputTokens: 20}}, nil
		})
		require.NoError(t, err)
	}
	for src, parentEnds := range map[string]bool{`{maxTokens: 100}`: true, `{maxTokens: 100, perChild: true}`: false} {
		h, err := prebuilt.FromSpec("budget", settingsOf(t, src))
		require.NoError(t, err)
		parent := startParent(t, h)
		child, err := parent.Child(ctx, hooks.RunStart{})
		require.NoError(t, err)
		spend(child)
		assert.Equal(t, parentEnds, modelEnds(parent), "budget %s", src)
	}

	same := hooks.ToolCall{Name: "read", Arguments: map[string]any{"p": "a"}}
	for src, refused := range map[string]bool{`{repeats: 2}`: false, `{repeats: 2, acrossChildren: true}`: true} {
		h, err := prebuilt.FromSpec("loopGuard", settingsOf(t, src))
		require.NoError(t, err)
		parent := startParent(t, h)
		a, err := parent.Child(ctx, hooks.RunStart{})
		require.NoError(t, err)
		b, err := parent.Child(ctx, hooks.RunStart{})
		require.NoError(t, err)
		step, err := a.BeforeToolExecute(ctx, same)
		require.NoError(t, err)
		require.False(t, step.Refused)
		step, err = b.BeforeToolExecute(ctx, same)
		require.NoError(t, err)
		assert.Equal(t, refused, step.Refused, "loopGuard %s", src)
	}
}
