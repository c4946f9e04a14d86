package temporal_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rienda/hooks"
	durable "github.com/rienda/hooks/adapters/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Both stores keep bytes under their content key, take the same Put twice,
// and say plainly when a key was never put; a FileStore refuses a key that
// is not a content key, so a key from a history never names another path.
func TestStoresKeepBytesByContentKey(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for name, store := range map[string]durable.Store{"memory": &durable.MemoryStore{}, "file": durable.FileStore{Dir: filepath.Join(dir, "blobs")}} {
		t.Run(name, func(t *testing.T) {
			data := []byte("a tool's 16 KB output")
			key := durable.ContentKey(data)
			assert.Regexp(t, `^sha256-[0-9a-f]{64}$`, key)
			require.NoError(t, store.Put(ctx, key, data))
			require.NoError(t, store.Put(ctx, key, data), "a retried step puts the same key again")
			got, err := store.Get(ctx, key)
			require.NoError(t, err)
			assert.Equal(t, data, got)

			_, err = store.Get(ctx, durable.ContentKey([]byte("never put")))
			assert.ErrorIs(t, err, durable.ErrNotStored)
		})
	}
	fs := durable.FileStore{Dir: filepath.Join(dir, "blobs")}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "secret"), []byte("x"), 0o600))
	_, err := fs.Get(ctx, "../secret")
	assert.ErrorContains(t, err, `"../secret" is not a content key`)
	assert.ErrorContains(t, fs.Put(ctx, "../evil", []byte("x")), "is not a content key")
}

// A conversation stored in pieces reads back whole, in order, from a
// FileStore another process could share.
func TestAStoredConversationReadsBackWhole(t *testing.T) {
	ctx := context.Background()
	store := durable.FileStore{Dir: t.TempDir()}
	msgs := []hooks.Message{{Role: "user", Text: "hi"}, {Role: "assistant", Text: "hello"}}
	key, err := durable.StoreConversation(ctx, store, msgs)
	require.NoError(t, err)
	got, err := durable.LoadConversation(ctx, store, key)
	require.NoError(t, err)
	assert.Equal(t, msgs, got)

	_, err = durable.LoadConversation(ctx, &durable.MemoryStore{}, key)
	assert.ErrorIs(t, err, durable.ErrNotStored, "a worker whose store lacks the conversation says so")
}
