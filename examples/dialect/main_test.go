package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTinyDialectStory(t *testing.T) {
	var buf bytes.Buffer
	out = &buf
	require.NoError(t, run(context.Background()))
	assert.Equal(t, `shell "ls": ran
shell "rm -rf /": no rm -rf here
sent on: check the tests
final: all done
`, buf.String())
}
