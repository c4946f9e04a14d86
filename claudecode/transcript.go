package claudecode

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// TranscriptDir makes the transcripts handlers read (transcript_path) files
// of dir, named "<session id>.jsonl" (the run id when the host gives no
// session), kept when the run ends: the host chose where they live. By
// default each run's transcript is in a temporary directory of its own,
// removed when the run ends (Run.End).
func TranscriptDir(dir string) Option {
	return func(o *dialect.Options) {
		if dir == "" {
			o.Fail(fmt.Errorf("TranscriptDir: empty directory"))
		}
		dialect.Setting(transcriptKey{}, dir)(o)
	}
}

// entry is one line of a transcript, in Claude Code's own format.
type entry struct {
	ParentUUID  *string         `json:"parentUuid"`
	IsSidechain bool            `json:"isSidechain"`
	UserType    string          `json:"userType"`
	Cwd         string          `json:"cwd"`
	SessionID   string          `json:"sessionId"`
	Type        string          `json:"type"`
	Message     json.RawMessage `json:"message"`
	UUID        string          `json:"uuid"`
	Timestamp   string          `json:"timestamp"`
}

// transcript is one run's conversation as a set's handlers read it: the
// entries of the last request's messages, then what the model and the
// tools answered since. It is written to its file, whole and by rename,
// before a handler runs when it changed since it was last written, so a
// handler (or one still running asynchronously) never reads half a file.
type transcript struct {
	mu        sync.Mutex
	path      string
	temp      string // the temporary directory to remove at run end; "" when the host chose the place
	lines     []string
	stamps    []string        // each line's timestamp, kept when a request repeats it
	src       []hooks.Message // the message each line was made from, to reuse the line when a request repeats it
	dirty     bool
	written   bool
	unchanged bool // the last record changed nothing
}

// transcriptOf returns the run's transcript for this set, made at first
// use: its path in the host's directory, or in a new temporary one.
func (s *set) transcriptOf(c *hooks.Context) (*transcript, error) {
	if t, ok := s.transcripts.Load(c.RunID()); ok {
		return t.(*transcript), nil
	}
	name := c.Session.ID
	if name == "" {
		name = c.RunID()
	}
	if c.ParentRunID() != "" { // a subagent's own, beside its session's (Claude Code: agent-<id>.jsonl)
		name += "-agent-" + c.RunID()
	}
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, name) + ".jsonl"
	t := &transcript{dirty: true}
	if s.transcriptDir != "" {
		t.path = filepath.Join(s.transcriptDir, name)
	} else {
		dir, err := os.MkdirTemp("", "claude-transcript-")
		if err != nil {
			return nil, fmt.Errorf("the transcript cannot be made: %w", err)
		}
		t.temp, t.path = dir, filepath.Join(dir, name)
	}
	if prev, loaded := s.transcripts.LoadOrStore(c.RunID(), t); loaded {
		if t.temp != "" {
			os.RemoveAll(t.temp)
		}
		return prev.(*transcript), nil
	}
	return t, nil
}

// forget removes the run's transcript when it is in a temporary
// directory, and forgets it.
func (s *set) forget(c *hooks.Context) {
	t, ok := s.transcripts.LoadAndDelete(c.RunID())
	if !ok {
		return
	}
	if temp := t.(*transcript).temp; temp != "" {
		if err := os.RemoveAll(temp); err != nil {
			c.Diagnose(fmt.Errorf("the Claude Code transcript %s cannot be removed: %w", temp, err))
		}
	}
}

// path writes the transcript if it changed and returns its path, for a
// handler's transcript_path; "" (with a diagnostic) when it cannot be
// written, as Claude Code's own is "" when there is none.
func (s *set) path(c *hooks.Context) string {
	if c.RunID() == "" {
		return "" // a Context made outside a run: no conversation to write
	}
	t, err := s.transcriptOf(c)
	if err == nil {
		err = t.flush()
	}
	if err != nil {
		c.Diagnose(fmt.Errorf("transcript_path is empty: %w", err))
		return ""
	}
	return t.path
}

// flush writes the transcript when it changed since last written.
func (t *transcript) flush() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.dirty {
		return nil
	}
	var b strings.Builder
	for _, l := range t.lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	tmp := t.path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, t.path); err != nil {
		os.Remove(tmp)
		return err
	}
	t.dirty, t.written = false, true
	return nil
}

// record applies fn to the run's transcript, if the set keeps one.
func (s *set) record(c *hooks.Context, fn func(t *transcript, b *builder)) {
	if c.RunID() == "" {
		return
	}
	t, err := s.transcriptOf(c)
	if err != nil {
		c.Diagnose(err)
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	b := &builder{set: s, c: c, t: t}
	t.unchanged = false
	fn(t, b)
	if !t.unchanged {
		t.dirty = true
	}
}

// builder makes entries for one run's transcript.
type builder struct {
	set *set
	c   *hooks.Context
	t   *transcript
}

// add appends an entry of typ carrying message, linked to the one before.
func (b *builder) add(typ string, message any, stamp string, src hooks.Message) {
	raw, err := encodeJSON(message)
	if err != nil {
		raw, _ = encodeJSON(map[string]any{"role": typ, "content": "[this message cannot be written as JSON: " + err.Error() + "]"})
	}
	n := len(b.t.lines)
	var parent *string
	if n > 0 {
		p := entryID(b.c.RunID(), n-1)
		parent = &p
	}
	if stamp == "" {
		stamp = time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	}
	cwd := b.c.Workdir
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	session := b.c.Session.ID
	if session == "" {
		session = b.c.RunID()
	}
	line, _ := encodeJSON(entry{ParentUUID: parent, UserType: "external", Cwd: cwd, SessionID: session,
		Type: typ, Message: raw, UUID: entryID(b.c.RunID(), n), Timestamp: stamp})
	b.t.lines = append(b.t.lines, string(line))
	b.t.stamps = append(b.t.stamps, stamp)
	b.t.src = append(b.t.src, src)
}

// entryID is a stable UUID-shaped id of the n-th entry of a run's
// transcript: the same entry has the same id when the transcript is made
// again from a later request.
func entryID(run string, n int) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%s/%d", run, n))
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// message is the "message" of an entry: Anthropic's Messages API shape.
type message struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

// block is one content block.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   *string         `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

// assistant adds a reply: its text, then a tool_use per call.
func (b *builder) assistant(text string, calls []hooks.ToolCall, stamp string) {
	src := hooks.Message{Role: "assistant", Text: text, ToolCalls: calls}
	var blocks []block
	if text != "" {
		blocks = append(blocks, block{Type: "text", Text: text})
	}
	for _, call := range calls {
		args, err := encodeArguments(call.Arguments)
		if err != nil {
			args = "{}"
		}
		blocks = append(blocks, block{Type: "tool_use", ID: call.ID, Name: b.set.claudeName(call.Name), Input: json.RawMessage(args)})
	}
	if blocks == nil {
		blocks = []block{{Type: "text", Text: ""}}
	}
	b.add("assistant", message{Role: "assistant", Content: blocks}, stamp, src)
}

// toolResult adds a tool's result, as Claude Code does: a user entry.
func (b *builder) toolResult(id, text string, isError bool, stamp string) {
	b.add("user", message{Role: "user", Content: []block{{Type: "tool_result", ToolUseID: id, Content: &text, IsError: isError}}}, stamp,
		hooks.Message{Role: "tool", ToolCallID: id, Text: text})
}

// fromRequest makes the transcript again from a request's messages (the
// conversation so far, as the host keeps it). A line whose message the
// request repeats is kept as it is (its id, its timestamp, and what a
// tool's result said of its error), so a request costs the new messages
// only; the lines after the first that differs are made again. System
// messages are not in a Claude Code transcript.
func (s *set) fromRequest(c *hooks.Context, req hooks.ModelRequest) {
	s.record(c, func(t *transcript, b *builder) {
		n := 0 // lines kept
		for _, m := range req.Messages {
			if m.Role != "user" && m.Role != "assistant" && m.Role != "tool" {
				continue
			}
			if n < len(t.src) && sameMessage(t.src[n], m) {
				n++
				continue
			}
			break
		}
		if n == len(t.lines) && n == countConversation(req.Messages) {
			t.unchanged = true
			return
		}
		oldStamps := t.stamps
		t.lines, t.stamps, t.src = t.lines[:n], t.stamps[:n], t.src[:n]
		stamp := func() string {
			if k := len(t.lines); k < len(oldStamps) {
				return oldStamps[k]
			}
			return ""
		}
		k := 0
		for _, m := range req.Messages {
			switch m.Role {
			case "user", "assistant", "tool":
				if k++; k <= n {
					continue
				}
			}
			switch m.Role {
			case "user":
				b.add("user", message{Role: "user", Content: m.Text}, stamp(), m)
			case "assistant":
				b.assistant(m.Text, m.ToolCalls, stamp())
			case "tool":
				b.toolResult(m.ToolCallID, m.Text, false, stamp())
			}
		}
	})
}

// countConversation is how many of msgs a transcript has lines for.
func countConversation(msgs []hooks.Message) int {
	n := 0
	for _, m := range msgs {
		if m.Role == "user" || m.Role == "assistant" || m.Role == "tool" {
			n++
		}
	}
	return n
}

// sameMessage reports whether a line made from a is the line b makes.
func sameMessage(a, b hooks.Message) bool {
	if a.Role != b.Role || a.Text != b.Text || a.ToolCallID != b.ToolCallID || len(a.ToolCalls) != len(b.ToolCalls) {
		return false
	}
	for i, ca := range a.ToolCalls {
		cb := b.ToolCalls[i]
		if ca.ID != cb.ID || ca.Name != cb.Name || !reflect.DeepEqual(ca.Arguments, cb.Arguments) {
			return false
		}
	}
	return true
}
