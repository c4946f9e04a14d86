package temporal

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Store keeps a durable run's large payloads (the conversation, tool
// outputs) out of the workflow's history: the claim-check pattern. The
// workflow and its steps carry keys; the bytes live in the Store, which
// every worker of the task queue must share (object storage, a database,
// a shared disk).
//
// Keys are content addresses ("sha256-" and the hex digest of the bytes),
// so a Put is idempotent (a retried step writes the same key again), a
// value never changes once written, and a worker may cache what it read.
// That is the shape of object storage: Put is a PUT of an object under its
// key, Get a GET. Nothing is deleted by the adapter: expire objects by age
// in the store when the runs that wrote them are done.
type Store interface {
	// Put stores data under key, which is ContentKey(data). Putting a key
	// that exists is not an error.
	Put(ctx context.Context, key string, data []byte) error
	// Get returns what was put under key; a key never put is an error
	// that wraps ErrNotStored.
	Get(ctx context.Context, key string) ([]byte, error)
}

// ErrNotStored is wrapped by the error of Store.Get for a key never put.
var ErrNotStored = errors.New("not in the store")

// ErrTampered is wrapped by the error of a read whose bytes are not the
// ones their content key names: a store that was written to by something
// else than Put, a corrupt disk, or a store that answers for the wrong key.
// The adapter checks every read from a Store (its own and the user's), so
// a run never goes on from a conversation or snapshot it did not write.
var ErrTampered = errors.New("the stored bytes do not match their content key")

// getVerified reads key from store and checks the bytes against the key:
// a content-addressed store verifies what it reads.
func getVerified(ctx context.Context, store Store, key string) ([]byte, error) {
	if !validKey(key) {
		return nil, fmt.Errorf("temporal: %q is not a content key", key)
	}
	data, err := store.Get(ctx, key)
	if err != nil {
		return nil, err
	}
	if err := verify(key, data); err != nil {
		return nil, err
	}
	return data, nil
}

// verify reports ErrTampered, naming the key, when data is not what key
// addresses.
func verify(key string, data []byte) error {
	if got := ContentKey(data); got != key {
		return fmt.Errorf("temporal: stored value %s: %w (its bytes hash to %s)", key, ErrTampered, got)
	}
	return nil
}

// ContentKey is the key a Store keeps data under: its SHA-256.
func ContentKey(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256-" + hex.EncodeToString(sum[:])
}

// validKey reports whether key is a content key, so that a key read from
// a workflow's history never names a path outside a FileStore.
func validKey(key string) bool {
	hexPart, ok := strings.CutPrefix(key, "sha256-")
	if !ok || len(hexPart) != 2*sha256.Size {
		return false
	}
	_, err := hex.DecodeString(hexPart)
	return err == nil
}

// MemoryStore is a Store in this process's memory: for tests, and for a
// single worker process that need not survive its own restart.
type MemoryStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

// Put implements Store.
func (s *MemoryStore) Put(_ context.Context, key string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = make(map[string][]byte)
	}
	if _, ok := s.m[key]; !ok {
		s.m[key] = append([]byte(nil), data...)
	}
	return nil
}

// Get implements Store. It returns a copy, so a caller that changes what
// it read changes nothing stored.
func (s *MemoryStore) Get(_ context.Context, key string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, ok := s.m[key]
	if !ok {
		return nil, fmt.Errorf("temporal: memory store: %s: %w", key, ErrNotStored)
	}
	return append([]byte(nil), data...), nil
}

// Size is the number of bytes the store holds.
func (s *MemoryStore) Size() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, v := range s.m {
		n += len(v)
	}
	return n
}

// FileStore is a Store in a directory, one file per key: for tests, and
// for workers that share a disk.
type FileStore struct{ Dir string }

// Put implements Store: it writes a temporary file and renames it, so a
// reader never sees half a value.
func (s FileStore) Put(_ context.Context, key string, data []byte) error {
	path, err := s.path(key)
	if err != nil {
		return err
	}
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return fmt.Errorf("temporal: file store: %w", err)
	}
	f, err := os.CreateTemp(s.Dir, ".put-*")
	if err != nil {
		return fmt.Errorf("temporal: file store: %w", err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("temporal: file store: writing %s: %w", key, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("temporal: file store: %w", err)
	}
	return nil
}

// Get implements Store. It checks what it read against key, so a file
// changed on the shared disk is an error wrapping ErrTampered, never a
// value the run goes on from.
func (s FileStore) Get(_ context.Context, key string) ([]byte, error) {
	path, err := s.path(key)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("temporal: file store %s: %s: %w", s.Dir, key, ErrNotStored)
	}
	if err != nil {
		return nil, fmt.Errorf("temporal: file store: %w", err)
	}
	if err := verify(key, data); err != nil {
		return nil, fmt.Errorf("temporal: file store %s: %w", s.Dir, err)
	}
	return data, nil
}

func (s FileStore) path(key string) (string, error) {
	if !validKey(key) {
		return "", fmt.Errorf("temporal: file store: %q is not a content key", key)
	}
	return filepath.Join(s.Dir, key), nil
}

// OpenSnapshot returns a run's snapshot from Output.Snapshot (or
// RunStatus.Snapshot): itself, or, if it is a key, the snapshot in store.
func OpenSnapshot(ctx context.Context, store Store, snap json.RawMessage) (json.RawMessage, error) {
	a := &activities{agent: &Agent{Store: store}}
	return a.openSnapshot(ctx, snap)
}
