package hooks

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"unsafe"
)

// RewriteStrings returns a patch that applies fn to every string res
// carries: its Text and, inside its Value, every string, every map key
// and every number (as its decimal text; a number fn changes becomes the
// string fn returned), nested at any depth. It is the one way to redact a
// result, since a secret in a tool's structured output (MCP's
// structuredContent, a JSON value) is as visible to the model as one in
// its text, and a key or a number is as visible as a string. A Value that
// is not made of JSON types (a Go struct) is read as its JSON encoding.
// It returns nil, no opinion, when fn changed nothing.
//
// What cannot be read is withheld, never passed on unread: a map or list
// that contains itself is cut where it comes back, a value nested deeper
// than 10,000 levels is cut there, and a value that does not encode as
// JSON (a channel, a cyclic struct) is replaced, each by a string saying
// so. Two keys that fn makes equal are kept apart by a suffix (" #2").
//
//	AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
//		return hooks.RewriteStrings(res, redact), nil
//	},
func RewriteStrings(res ToolResult, fn func(string) string) *ToolResultPatch {
	return RewriteFields(res, func(_, s string) string { return fn(s) })
}

// RewriteFields is RewriteStrings for a rewrite that reads a value beside
// the name it stands under: fn gets the map key a string or number is the
// value of ("" for the Text, a list element, a key itself, and the Value
// when it is not a map), so that {"SecretAccessKey": "…"} can be redacted
// for its key, as "SecretAccessKey: …" would be in text.
func RewriteFields(res ToolResult, fn func(key, s string) string) *ToolResultPatch {
	// No patch is allocated unless something changed: redaction runs on
	// every result, and most hold nothing.
	var text *string
	var value any
	if t := fn("", res.Text); t != res.Text {
		text = &t
	}
	if res.Value != nil {
		w := rewriter{fn: fn}
		if v, changed := w.value(res.Value, 0); changed {
			value = v
		}
	}
	if text == nil && value == nil {
		return nil
	}
	return &ToolResultPatch{Text: text, Value: value}
}

// What a rewrite puts where it cannot read.
const (
	withheldCycle  = "[WITHHELD: a value that contains itself]"
	withheldDeep   = "[WITHHELD: a value nested too deeply]"
	withheldOpaque = "[WITHHELD: a value that does not encode as JSON]"
)

// maxRewriteDepth bounds the walk: encoding/json refuses to decode deeper
// nesting, so no value read from JSON reaches it.
const maxRewriteDepth = 10000

// rewriter walks one value. A map or list is known by where its data
// lives: onPath holds those being walked (one met again inside itself is
// a cycle), done those already rewritten (a value shared by several
// places is walked once, so sharing cannot make the walk exponential).
type rewriter struct {
	fn     func(key, s string) string
	key    string // the map key of the value being walked
	onPath map[ref]bool
	done   map[ref]rewritten
}

type ref struct {
	p unsafe.Pointer
	n int
}

type rewritten struct {
	v       any
	changed bool
}

// value applies fn to the strings, keys and numbers of v, copying only
// what changed.
func (w *rewriter) value(v any, depth int) (any, bool) {
	v, ok := jsonValue(v)
	if !ok {
		return withheldOpaque, true
	}
	switch x := v.(type) {
	case string:
		s := w.fn(w.key, x)
		return s, s != x
	case float64:
		return w.number(v, strconv.FormatFloat(x, 'f', -1, 64))
	case json.Number:
		return w.number(v, string(x))
	case map[string]any:
		if len(x) == 0 {
			return v, false
		}
		return w.container(v, ref{reflect.ValueOf(x).UnsafePointer(), -1}, depth, func() (any, bool) { return w.object(x, depth) })
	case []any:
		if len(x) == 0 {
			return v, false
		}
		return w.container(v, ref{unsafe.Pointer(unsafe.SliceData(x)), len(x)}, depth, func() (any, bool) { return w.list(x, depth) })
	}
	return v, false
}

func (w *rewriter) number(v any, text string) (any, bool) {
	if s := w.fn(w.key, text); s != text {
		return s, true
	}
	return v, false
}

// container walks a map or list once, bounded in depth, cut where it
// contains itself.
func (w *rewriter) container(v any, r ref, depth int, walk func() (any, bool)) (any, bool) {
	if depth >= maxRewriteDepth {
		return withheldDeep, true
	}
	if w.onPath[r] {
		return withheldCycle, true
	}
	if d, ok := w.done[r]; ok {
		return d.v, d.changed
	}
	if w.onPath == nil {
		w.onPath, w.done = map[ref]bool{}, map[ref]rewritten{}
	}
	w.onPath[r] = true
	out, changed := walk()
	delete(w.onPath, r)
	if !changed {
		out = v
	}
	w.done[r] = rewritten{out, changed}
	return out, changed
}

func (w *rewriter) object(x map[string]any, depth int) (any, bool) {
	keys := make([]string, 0, len(x))
	for k := range x {
		keys = append(keys, k)
	}
	slices.Sort(keys) // one order, so that a suffix goes to the same key each time
	var out map[string]any
	for _, k := range keys {
		nk := w.fn("", k)
		w.key = k
		ne, changed := w.value(x[k], depth+1)
		w.key = ""
		if out == nil && (changed || nk != k) {
			out = make(map[string]any, len(x))
			for _, pk := range keys {
				if pk == k {
					break
				}
				out[pk] = x[pk]
			}
		}
		if out == nil {
			continue
		}
		if _, taken := out[nk]; taken {
			nk = freeKey(out, nk)
		}
		out[nk] = ne
	}
	if out == nil {
		return x, false
	}
	return out, true
}

// freeKey is key with the first suffix " #2", " #3"… not yet in m.
func freeKey(m map[string]any, key string) string {
	for i := 2; ; i++ {
		k := key + " #" + strconv.Itoa(i)
		if _, taken := m[k]; !taken {
			return k
		}
	}
}

func (w *rewriter) list(x []any, depth int) (any, bool) {
	var out []any
	for i, e := range x {
		w.key = ""
		if ne, changed := w.value(e, depth+1); changed {
			if out == nil {
				out = slices.Clone(x)
			}
			out[i] = ne
		}
	}
	if out == nil {
		return x, false
	}
	return out, true
}

// jsonValue returns v as JSON types, through its encoding when it holds
// other types (numbers kept exact, as json.Number); ok is false for a
// value that does not encode.
func jsonValue(v any) (any, bool) {
	switch v.(type) {
	case string, bool, float64, json.Number, nil, map[string]any, []any:
		return v, true
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var out any
	if err := d.Decode(&out); err != nil {
		return nil, false
	}
	return out, true
}
