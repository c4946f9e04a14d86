package hooks

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCommandTimeoutDefaultsAndCap(t *testing.T) {
	hs, err := CommandHooks([]byte(`{"hooks":[
		{"event":"turn_end","command":["x"]},
		{"event":"turn_end","command":["x"],"timeoutMs":1200},
		{"event":"turn_end","command":["x"],"timeoutMs":100000}]}`))
	require.NoError(t, err)
	require.Len(t, hs, 3)
	assert.Equal(t, 5*time.Second, hs[0].(*commandHook).timeout, "default")
	assert.Equal(t, 1200*time.Millisecond, hs[1].(*commandHook).timeout)
	assert.Equal(t, 60*time.Second, hs[2].(*commandHook).timeout, "capped")
}
