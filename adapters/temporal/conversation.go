package temporal

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/rienda/hooks"
)

// A conversation in a Store is a chain of nodes, each the messages one
// step added and the key of the conversation before them. A step adds a
// node of its own messages only, so the store grows with the conversation
// (not with its square), and the workflow's history holds one key per step
// however long the conversation is.
type convNode struct {
	Prev     string          `json:"prev,omitempty"`
	Messages []hooks.Message `json:"messages"`
}

// StoreConversation puts msgs in store as a conversation and returns its
// key: Input.Conversation, to start a run on a conversation too long for
// a workflow's input.
func StoreConversation(ctx context.Context, store Store, msgs []hooks.Message) (string, error) {
	return (&convCache{}).append(ctx, store, "", msgs...)
}

// LoadConversation reads the conversation under key from store: a run's
// Output.Conversation, whole.
func LoadConversation(ctx context.Context, store Store, key string) ([]hooks.Message, error) {
	return (&convCache{}).load(ctx, store, key)
}

// convCache keeps the nodes a worker read or wrote. Nodes never change
// (their key is their content), so the cache is never stale; it is
// emptied when it grows past maxCachedNodes.
type convCache struct {
	mu    sync.Mutex
	nodes map[string]*convNode
}

const maxCachedNodes = 1 << 14

func (c *convCache) get(key string) *convNode {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nodes[key]
}

func (c *convCache) put(key string, n *convNode) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.nodes == nil || len(c.nodes) >= maxCachedNodes {
		c.nodes = make(map[string]*convNode)
	}
	c.nodes[key] = n
}

// load returns the conversation under key, oldest message first.
func (c *convCache) load(ctx context.Context, store Store, key string) ([]hooks.Message, error) {
	var chain []*convNode
	for k := key; k != ""; {
		n := c.get(k)
		if n == nil {
			data, err := getVerified(ctx, store, k)
			if err != nil {
				return nil, fmt.Errorf("temporal: conversation %s: %w", key, err)
			}
			n = &convNode{}
			if err := json.Unmarshal(data, n); err != nil {
				return nil, fmt.Errorf("temporal: conversation %s: node %s: %w", key, k, err)
			}
			c.put(k, n)
		}
		chain = append(chain, n)
		k = n.Prev
	}
	var msgs []hooks.Message
	for _, n := range slices.Backward(chain) {
		msgs = append(msgs, n.Messages...)
	}
	return msgs, nil
}

// append stores msgs after the conversation prev and returns the key of
// the longer conversation.
func (c *convCache) append(ctx context.Context, store Store, prev string, msgs ...hooks.Message) (string, error) {
	n := &convNode{Prev: prev, Messages: msgs}
	data, err := json.Marshal(n)
	if err != nil {
		return "", fmt.Errorf("temporal: conversation: %w", err)
	}
	key := ContentKey(data)
	if err := store.Put(ctx, key, data); err != nil {
		return "", fmt.Errorf("temporal: conversation: %w", err)
	}
	c.put(key, n)
	return key, nil
}
