package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPrintsTheSpanTree(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	want, err := os.ReadFile(filepath.Join("testdata", "tree.golden"))
	require.NoError(t, err)
	assert.Equal(t, string(want), out.String())
}
