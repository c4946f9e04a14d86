package hooks_test

// Native fuzz targets for the library's promise that no bad input crashes the
// host: agent files, command settings, run snapshots, and the values that
// cross between JavaScript and Go. Seed corpora are in testdata/fuzz/<Target>/;
// `go test -run Fuzz .` runs them, `go test -run '^$' -fuzz '^FuzzX$' .`
// explores from them.
//
// A target that hangs does not wait for the fuzzing engine: a fuzzWatchdog panics
// with every goroutine's stack, so that the worker dies with its input saved
// and the report shows where it was stuck.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/require"
)

// fuzzWatchdog panics, with every goroutine's stack, when the work it guards is
// not done within d. Call the returned function when the work is done.
func fuzzWatchdog(what string, d time.Duration) (done func()) {
	timer := time.AfterFunc(d, func() {
		buf := make([]byte, 4<<20)
		n := runtime.Stack(buf, true)
		panic(fmt.Sprintf("fuzz: %s still running after %s\n\n%s", what, d, buf[:n]))
	})
	return func() { timer.Stop() }
}

// fuzzKnownFailure skips the input when HOOKS_FUZZ_KNOWN names its class (a
// comma-separated list): a library bug already reported, tolerated only while
// fuzzing for other ones, as in
//
//	HOOKS_FUZZ_KNOWN=agent-error-no-line go test -run '^$' -fuzz '^FuzzParseAgent$' .
//
// Unset, as in CI, every failure fails.
func fuzzKnownFailure(t *testing.T, class string) {
	t.Helper()
	if slices.Contains(strings.Split(os.Getenv("HOOKS_FUZZ_KNOWN"), ","), class) {
		t.Skipf("known failure %s (HOOKS_FUZZ_KNOWN)", class)
	}
}

// fuzzHeapAllocs is the number of bytes allocated so far (cheap: no stop-the-world).
func fuzzHeapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// fuzzAddFiles adds the files that match pattern as seeds of a []byte target.
func fuzzAddFiles(f *testing.F, pattern string) {
	f.Helper()
	paths, err := filepath.Glob(pattern)
	require.NoError(f, err)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(f, err)
		f.Add(data)
	}
}

// ---- FuzzParseAgent ----

var fuzzLineRef = regexp.MustCompile(`line (\d+)`)

// fuzzSkipBlankLines returns text from its first line that is not blank (the
// front matter may follow a BOM and blank lines).
func fuzzSkipBlankLines(text string) string {
	for {
		line, rest, more := strings.Cut(text, "\n")
		if !more || strings.TrimSpace(line) != "" {
			return text
		}
		text = rest
	}
}

// FuzzParseAgent: ParseAgent never panics, returns in bounded time and
// memory (YAML alias bombs), names a line of the file in its errors (its doc:
// malformed YAML, a key of the wrong type, an unclosed fence and a hook
// declared twice are errors that name the line), and on success returns a
// sane Agent: no hook declared twice, the prompt is the end of the text, and
// a text whose first line that is not blank is not a fence has no front
// matter: it is all prompt and declares no hooks.
func FuzzParseAgent(f *testing.F) {
	fuzzAddFiles(f, "testdata/agents/*.md")
	f.Fuzz(func(t *testing.T, data []byte) {
		before := fuzzHeapAllocs()
		done := fuzzWatchdog("ParseAgent", 30*time.Second)
		a, err := hooks.ParseAgent(data)
		done()
		// A YAML parser needs some hundred bytes per byte of input at worst
		// (deep nesting); more is a blow-up (aliases, rescans).
		if n := fuzzHeapAllocs() - before; n > 16<<20+1024*uint64(len(data)) {
			fuzzKnownFailure(t, "agent-alloc")
			t.Fatalf("ParseAgent allocated %d bytes for %d bytes of input", n, len(data))
		}
		text := strings.TrimPrefix(string(data), "\ufeff")
		if err != nil {
			m := fuzzLineRef.FindStringSubmatch(err.Error())
			if m == nil {
				fuzzKnownFailure(t, "agent-error-no-line")
				t.Fatalf("error names no line: %v", err)
			}
			// YAML also breaks lines at a lone CR, NEL, LS and PS: count
			// every break, so that the bound is generous.
			lines := 1
			for _, r := range string(data) {
				switch r {
				case '\n', '\r', '\u0085', '\u2028', '\u2029':
					lines++
				}
			}
			if n, _ := strconv.Atoi(m[1]); n < 1 || n > lines {
				t.Fatalf("error names line %d of a %d-line file: %v", n, lines, err)
			}
			return
		}
		if a == nil {
			t.Fatalf("ParseAgent returned neither an agent nor an error")
		}
		seen := map[string]bool{}
		for _, h := range a.Hooks {
			if seen[h] {
				t.Fatalf("hook %q declared twice, and no error: %q", h, a.Hooks)
			}
			seen[h] = true
		}
		if !strings.HasSuffix(text, a.Prompt) {
			t.Fatalf("the prompt %q is not the end of the text", a.Prompt)
		}
		if !strings.HasPrefix(fuzzSkipBlankLines(text), "---") {
			if a.Prompt != text || len(a.Hooks) > 0 || a.Name != "" || len(a.Tools) > 0 {
				t.Fatalf("a text without front matter must be all prompt: %+v", a)
			}
		}
		again, err := hooks.ParseAgent(data)
		if err != nil || !reflect.DeepEqual(a, again) {
			t.Fatalf("a second parse differs: %+v, %v; first %+v", again, err, a)
		}
	})
}

// ---- FuzzParseCommandSettings ----

// fuzzCommandEvents: the events of seed 004 and the point each runs at.
var fuzzCommandEvents = map[string]hooks.Point{
	"session_start":      hooks.BeforeRun,
	"session_end":        hooks.AfterRun,
	"turn_start":         hooks.BeforeModelRequest,
	"turn_end":           hooks.AfterModelResponse,
	"pre_tool_call":      hooks.BeforeToolExecute,
	"post_tool_call":     hooks.AfterToolExecute,
	"pre_trust_decision": hooks.BeforeTrustDecision,
}

// fuzzMaxTimeoutMs is the largest timeoutMs ParseCommandSettings documents.
const fuzzMaxTimeoutMs = 9223372036854

var (
	fuzzSettingsLine = regexp.MustCompile(`\bline (\d+)`)
	fuzzEntryRef     = regexp.MustCompile(`hooks\[(\d+)\]`)
)

// fuzzSettingsViolation returns what makes data a settings file that
// ParseCommandSettings documents as an error, or "": text that is not JSON
// or not UTF-8, a \u escape of half a surrogate pair, a key repeated in any
// object (compared after unescaping), null anywhere, a top level that is not
// an object, an unknown top-level key, "hooks" that is not an array.
func fuzzSettingsViolation(data []byte) string {
	if !json.Valid(data) {
		return "not JSON"
	}
	if !utf8.Valid(data) {
		return "not UTF-8"
	}
	if fuzzLoneSurrogate(data) {
		return "half a surrogate pair"
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var value func(depth int) string
	value = func(depth int) string {
		tok, err := dec.Token()
		if err != nil {
			return "does not decode: " + err.Error()
		}
		switch tok {
		case nil:
			return "null"
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return "does not decode: " + err.Error()
				}
				key, _ := k.(string)
				if seen[key] {
					return fmt.Sprintf("key %q repeated", key)
				}
				seen[key] = true
				if depth == 0 && key != "hooks" {
					return fmt.Sprintf("unknown top-level key %q", key)
				}
				if v := value(depth + 1); v != "" {
					return v
				}
			}
			_, _ = dec.Token()
		case json.Delim('['):
			for dec.More() {
				if v := value(depth + 1); v != "" {
					return v
				}
			}
			_, _ = dec.Token()
		default:
			if depth == 0 {
				return "a top level that is not an object"
			}
		}
		return ""
	}
	if v := value(0); v != "" {
		return v
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return "a top level that is not an object"
	}
	if h, ok := top["hooks"]; ok && !bytes.HasPrefix(bytes.TrimSpace(h), []byte("[")) {
		return `"hooks" that is not an array`
	}
	return ""
}

// fuzzLoneSurrogate reports whether a string of the JSON text data has a \u
// escape of half a surrogate pair.
func fuzzLoneSurrogate(data []byte) bool {
	hex := func(i int) (uint64, bool) { // the 4 hex digits of a \u escape at i
		if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
			return 0, false
		}
		r, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 32)
		return r, err == nil
	}
	in := false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case !in:
			in = c == '"'
		case c == '"':
			in = false
		case c == '\\':
			r, ok := hex(i)
			if !ok {
				i++ // an escaped character
				continue
			}
			switch {
			case r >= 0xDC00 && r <= 0xDFFF:
				return true
			case r >= 0xD800 && r <= 0xDBFF:
				if low, ok := hex(i + 6); !ok || low < 0xDC00 || low > 0xDFFF {
					return true
				}
				i += 6
			}
			i += 5
		}
	}
	return false
}

// FuzzParseCommandSettings: ParseCommandSettings and CommandHooks never
// panic and agree. An error names its line (and an entry it names exists);
// a file the doc calls an error is one (see fuzzSettingsViolation); every config
// accepted has a known event, a command whose executable is named, a
// timeoutMs from 0 to 9223372036854, and decodes again to itself;
// CommandHooks gives one hook per enabled entry, named "<event>#<index>",
// handling its event's point, that a chain accepts.
func FuzzParseCommandSettings(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		done := fuzzWatchdog("ParseCommandSettings", 30*time.Second)
		cfgs, err := hooks.ParseCommandSettings(data)
		hs, herr := hooks.CommandHooks(data)
		done()
		if (err == nil) != (herr == nil) {
			t.Fatalf("ParseCommandSettings: %v; CommandHooks: %v", err, herr)
		}
		if err != nil {
			m := fuzzSettingsLine.FindStringSubmatch(err.Error())
			if m == nil {
				t.Fatalf("the error names no line: %v", err)
			}
			if n, _ := strconv.Atoi(m[1]); n < 1 || n > 1+bytes.Count(data, []byte("\n")) {
				t.Fatalf("the error names line %d of a %d-line file: %v", n, 1+bytes.Count(data, []byte("\n")), err)
			}
			var list struct {
				Hooks []json.RawMessage `json:"hooks"`
			}
			if m := fuzzEntryRef.FindStringSubmatch(err.Error()); m != nil && json.Unmarshal(data, &list) == nil {
				if i, _ := strconv.Atoi(m[1]); i >= len(list.Hooks) {
					t.Fatalf("the error names hooks[%d] of %d entries: %v", i, len(list.Hooks), err)
				}
			}
			return
		}
		if v := fuzzSettingsViolation(data); v != "" {
			t.Fatalf("accepted a settings file with %s", v)
		}
		var names []string
		for i, c := range cfgs {
			if _, ok := fuzzCommandEvents[c.Event]; !ok {
				t.Fatalf("hooks[%d]: unknown event %q accepted", i, c.Event)
			}
			if len(c.Command) == 0 || c.Command[0] == "" {
				t.Fatalf("hooks[%d]: command %q accepted", i, c.Command)
			}
			if c.TimeoutMs < 0 || c.TimeoutMs > fuzzMaxTimeoutMs {
				t.Fatalf("hooks[%d]: timeoutMs %d accepted", i, c.TimeoutMs)
			}
			if c.Enabled == nil || *c.Enabled {
				names = append(names, fmt.Sprintf("%s#%d", c.Event, i))
			}
		}
		if len(hs) != len(names) {
			t.Fatalf("%d hooks for %d enabled entries", len(hs), len(names))
		}
		for i, h := range hs {
			if h.Name() != names[i] {
				t.Fatalf("hook %d is named %q, want %q", i, h.Name(), names[i])
			}
			if ph, ok := h.(hooks.PointHandler); ok {
				p := fuzzCommandEvents[strings.SplitN(names[i], "#", 2)[0]]
				for _, q := range append(hooks.Points(), hooks.BeforeTrustDecision) {
					if ph.Handles(q) != (q == p) {
						t.Fatalf("hook %q: Handles(%s) = %v", h.Name(), q, ph.Handles(q))
					}
				}
			}
		}
		if _, err := hooks.NewChain(hs); err != nil {
			t.Fatalf("a chain refuses the hooks CommandHooks made: %v", err)
		}
		out, err := json.Marshal(map[string]any{"hooks": cfgs})
		if err != nil {
			t.Fatalf("the configs do not encode: %v", err)
		}
		again, err := hooks.ParseCommandSettings(out)
		if err != nil || !reflect.DeepEqual(again, cfgs) {
			t.Fatalf("the configs do not decode to themselves: %s: %+v, %v", out, again, err)
		}
	})
}

// ---- FuzzResume ----

// fuzzResumeSeen is what the BeforeRun hooks of a resumed run saw.
type fuzzResumeSeen struct {
	start      hooks.RunStart
	runID      string
	modelCalls int
	planState  any
	budget     any // the memo "tokens" of the hook budget
	budgetErr  error
}

// fuzzResumeChain is the chain FuzzResume resumes: "plan" keeps its state across
// resume, "budget" memoizes a value and keeps its state.
func fuzzResumeChain(seen *fuzzResumeSeen) (*hooks.Chain, error) {
	return hooks.NewChain([]hooks.Hook{
		hooks.Funcs{HookName: "plan", BeforeRun: func(c *hooks.Context, s hooks.RunStart) (*hooks.RunPatch, error) {
			seen.start, seen.runID, seen.modelCalls, seen.planState = s, c.RunID(), c.ModelCalls(), c.State()
			if s.Resumed {
				return nil, nil
			}
			return &hooks.RunPatch{State: map[string]any{"step": 1, "todo": []string{"read", "write"}}}, nil
		}},
		hooks.Funcs{HookName: "budget", BeforeRun: func(c *hooks.Context, s hooks.RunStart) (*hooks.RunPatch, error) {
			seen.budget, seen.budgetErr = c.Memo("tokens", func() (any, error) { return 4096.0, nil })
			return &hooks.RunPatch{State: c.State()}, nil
		}},
	})
}

// fuzzSnapshotMirror decodes a snapshot as its documented fields.
type fuzzSnapshotMirror struct {
	RunID      string                                `json:"runId"`
	Input      string                                `json:"input"`
	ModelCalls int64                                 `json:"modelCalls"`
	States     map[string]json.RawMessage            `json:"states"`
	Memo       map[string]map[string]json.RawMessage `json:"memo"`
}

// fuzzDecodeRaw decodes a state or memo value as documented: each number a
// float64 if a float64 holds it exactly, else an int64, else a uint64.
func fuzzDecodeRaw(raw json.RawMessage) any {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	_ = d.Decode(&v)
	return fuzzExactNumbers(v)
}

func fuzzExactNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		f, _ := strconv.ParseFloat(string(v), 64)
		if i, err := strconv.ParseInt(string(v), 10, 64); err == nil && (f >= 1<<63 || int64(f) != i) {
			return i
		}
		if u, err := strconv.ParseUint(string(v), 10, 64); err == nil && (f >= 1<<64 || uint64(f) != u) {
			return u
		}
		return f
	case map[string]any:
		for k, e := range v {
			v[k] = fuzzExactNumbers(e)
		}
	case []any:
		for i, e := range v {
			v[i] = fuzzExactNumbers(e)
		}
	}
	return v
}

// fuzzRealSnapshot is a snapshot of a run of fuzzResumeChain.
func fuzzRealSnapshot(f *testing.F) []byte {
	var seen fuzzResumeSeen
	c, err := fuzzResumeChain(&seen)
	require.NoError(f, err)
	run, err := c.Start(context.Background(), hooks.Host{}, hooks.RunStart{RunID: "run-7f3a", Input: "fix the build"})
	require.NoError(f, err)
	data, err := run.Snapshot()
	require.NoError(f, err)
	return data
}

// FuzzResume: Resume never panics; a snapshot it accepts restores the run id,
// input, model-call count, hook states and memo results, as documented, and
// the resumed run's Snapshot resumes again to the same state.
func FuzzResume(f *testing.F) {
	f.Add(fuzzRealSnapshot(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		var seen fuzzResumeSeen
		c, err := fuzzResumeChain(&seen)
		if err != nil {
			t.Fatal(err)
		}
		done := fuzzWatchdog("Resume", 30*time.Second)
		defer done()
		run, err := c.Resume(context.Background(), hooks.Host{}, data)
		if err != nil {
			if run != nil {
				t.Fatalf("Resume returned a run and an error: %v", err)
			}
			return
		}
		var doc fuzzSnapshotMirror
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("Resume accepted a snapshot that does not decode: %v", err)
		}
		if run.ID() != doc.RunID || seen.start.RunID != doc.RunID || seen.runID != doc.RunID ||
			seen.start.Input != doc.Input || !seen.start.Resumed {
			t.Fatalf("resumed as %q, BeforeRun got %+v (RunID %q); the snapshot has runId %q, input %q",
				run.ID(), seen.start, seen.runID, doc.RunID, doc.Input)
		}
		if int64(seen.modelCalls) != doc.ModelCalls {
			t.Fatalf("ModelCalls() = %d; the snapshot has %d", seen.modelCalls, doc.ModelCalls)
		}
		if want := fuzzDecodeRaw(doc.States["plan"]); !reflect.DeepEqual(seen.planState, want) {
			t.Fatalf("plan's state is %#v; the snapshot has %#v", seen.planState, want)
		}
		want := any(4096.0)
		if raw, ok := doc.Memo["budget"]["tokens"]; ok {
			want = fuzzDecodeRaw(raw)
		}
		if seen.budgetErr != nil || !reflect.DeepEqual(seen.budget, want) {
			t.Fatalf("budget's memo is %#v, %v; want %#v", seen.budget, seen.budgetErr, want)
		}
		first := seen
		snap, err := run.Snapshot()
		if err != nil {
			t.Fatalf("the resumed run does not snapshot: %v", err)
		}
		run.End(context.Background(), hooks.RunEnd{Outcome: hooks.Suspended})
		seen = fuzzResumeSeen{}
		run2, err := c.Resume(context.Background(), hooks.Host{}, snap)
		if err != nil {
			t.Fatalf("the resumed run's snapshot does not resume: %v\n%s", err, snap)
		}
		if !reflect.DeepEqual(seen, first) {
			t.Fatalf("resumed twice, the hooks saw %+v; once, %+v", seen, first)
		}
		snap2, err := run2.Snapshot()
		if err != nil || string(snap2) != string(snap) {
			t.Fatalf("round trip changed the snapshot (%v):\n%s\n%s", err, snap, snap2)
		}
		run2.End(context.Background(), hooks.RunEnd{Outcome: hooks.Suspended})
	})
}

// ---- FuzzJSValues ----

// fuzzMemFiles is a Files in memory, so that a fuzzed hook writes no file.
type fuzzMemFiles struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (f *fuzzMemFiles) Read(name string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b, ok := f.m[name]; ok {
		return append([]byte(nil), b...), nil
	}
	return nil, os.ErrNotExist
}

func (f *fuzzMemFiles) Write(name string, data []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil {
		f.m = map[string][]byte{}
	}
	f.m[name] = append([]byte(nil), data...)
	return nil
}

func (f *fuzzMemFiles) Append(name string, data []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil {
		f.m = map[string][]byte{}
	}
	f.m[name] = append(f.m[name], data...)
	return nil
}

func (f *fuzzMemFiles) Exists(name string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.m[name]
	return ok, nil
}

type fuzzRefuseTransport struct{}

func (fuzzRefuseTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("fuzz: no network")
}

// fuzzSandboxHost gives a fuzzed hook no file, network, environment or person.
func fuzzSandboxHost() hooks.Host {
	return hooks.Host{
		Workdir: "/nonexistent/fuzz",
		Session: hooks.Session{ID: "fuzz"},
		Config:  map[string]any{"mode": "fuzz"},
		Env:     map[string]string{"HOME": "/nonexistent/fuzz"},
		HTTP:    &http.Client{Transport: fuzzRefuseTransport{}, Timeout: time.Second},
		Files:   &fuzzMemFiles{},
		Notify:  func(string, hooks.Notice) {},
		Log:     func(string, string) {},
	}
}

// fuzzJSSource is the fuzzed hook: both tool points return the fuzzed
// expression (before: result is undefined).
func fuzzJSSource(expr string) string {
	return "module.exports = {\n" +
		"  beforeToolExecute(ctx, call, result) {\n    return (\n" + expr + "\n    );\n  },\n" +
		"  afterToolExecute(ctx, call, result) {\n    return (\n" + expr + "\n    );\n  },\n};\n"
}

// fuzzIdentitySource returns the arguments and the result it got: Go -> JS -> Go
// must give them back unchanged.
const fuzzIdentitySource = `module.exports = {
  beforeToolExecute(ctx, call) { return { arguments: call.arguments }; },
  afterToolExecute(ctx, call, result) { return { text: result.text, isError: result.isError, value: result.value }; },
};`

// fuzzGuard is a Go hook that records the call and result it sees.
type fuzzGuard struct {
	name   string
	mu     sync.Mutex
	call   *hooks.ToolCall
	result *hooks.ToolResult
}

func (g *fuzzGuard) Name() string { return g.name }

func (g *fuzzGuard) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.call = &call
	return nil, nil
}

func (g *fuzzGuard) AfterToolExecute(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.result = &res
	return nil, nil
}

// fuzzDeepCopy copies the JSON value v.
func fuzzDeepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = fuzzDeepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = fuzzDeepCopy(e)
		}
		return out
	}
	return v
}

// fuzzHasKey reports whether an object in the JSON value v has the key k.
func fuzzHasKey(v any, k string) bool {
	switch v := v.(type) {
	case map[string]any:
		for key, e := range v {
			if key == k || fuzzHasKey(e, k) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if fuzzHasKey(e, k) {
				return true
			}
		}
	}
	return false
}

// fuzzCallDeadline bounds each fuzzed call; a call may overrun it by grace.
const (
	fuzzCallDeadline = 2 * time.Second
	fuzzGrace        = 5 * time.Second
)

// fuzzGenMarker starts an expression that FuzzJSValues does not take as
// JavaScript but as the bytes that drive fuzzJSGen, which always writes valid
// JavaScript: most mutations of a JavaScript text are syntax errors.
const fuzzGenMarker = "//gen\n"

// fuzzJSGen writes a JavaScript expression of the shapes a hook returns, and of
// the hostile values around them, from its input bytes.
type fuzzJSGen struct {
	in    []byte
	depth int
}

func (g *fuzzJSGen) next() int {
	if len(g.in) == 0 {
		return 0
	}
	c := g.in[0]
	g.in = g.in[1:]
	return int(c)
}

var (
	fuzzGenKeys = []string{`"allow"`, `"reason"`, `"arguments"`, `"result"`, `"text"`, `"isError"`, `"value"`,
		`"__proto__"`, `"toJSON"`, `"then"`, `"constructor"`, `""`, `"0"`, `"length"`, `"command"`, `"state"`,
		`"\ud800"`, `"prototype"`, `Symbol.iterator`, `Symbol.toPrimitive`}
	fuzzGenScalars = []string{"undefined", "null", "true", "false", "0", "-0", "NaN", "Infinity", "-Infinity",
		"1e308", "5e-324", "2 ** 53 + 1", "-1", "0.1", `""`, `"x"`, `"\ud800"`, `"\u0000"`, `"\u2028"`,
		"10n", `Symbol("s")`, "new Date(NaN)", "new Date(0)", "/re/g", "new Map([[1, 2]])",
		"new Uint8Array(3)", "() => 1", "call.arguments", "result", "ctx.state", "ctx.config", "ctx.env",
		"call", "ctx", "globalThis", "Object.prototype", "Array.prototype", "new Error(\"e\")"}
)

func (g *fuzzJSGen) key() string { return fuzzGenKeys[g.next()%len(fuzzGenKeys)] }

func (g *fuzzJSGen) expr() string {
	if g.depth > 6 || len(g.in) == 0 {
		return fuzzGenScalars[g.next()%len(fuzzGenScalars)]
	}
	g.depth++
	defer func() { g.depth-- }()
	n := g.next() % 4
	list := func(item func() string) string {
		items := make([]string, n)
		for i := range items {
			items[i] = item()
		}
		return strings.Join(items, ", ")
	}
	switch g.next() % 20 {
	case 0, 1, 2:
		return fuzzGenScalars[g.next()%len(fuzzGenScalars)]
	case 3, 4:
		return "{ " + list(func() string { return "[" + g.key() + "]: " + g.expr() }) + " }"
	case 5:
		return "[" + list(g.expr) + "]"
	case 6:
		return "{ get [" + g.key() + "]() { return " + g.expr() + "; } }"
	case 7:
		return "{ get [" + g.key() + "]() { throw " + g.expr() + "; } }"
	case 8:
		traps := []string{"get", "ownKeys", "getOwnPropertyDescriptor", "has", "getPrototypeOf"}
		trap := traps[g.next()%len(traps)]
		if g.next()%2 == 0 {
			return "new Proxy(" + g.object() + ", { " + trap + "() { throw " + g.expr() + "; } })"
		}
		return "new Proxy(" + g.object() + ", { " + trap + "() { return " + g.expr() + "; } })"
	case 9:
		return "Promise.resolve(" + g.expr() + ")"
	case 10:
		return "Promise.reject(" + g.expr() + ")"
	case 11:
		return "(() => { const o = " + g.object() + "; o[" + g.key() + "] = o; return o; })()"
	case 12:
		return fmt.Sprintf("(() => { let a = %s; for (let i = 0; i < %d; i++) a = [a]; return a; })()", g.expr(), g.next()*g.next()*2)
	case 13:
		return "{ toJSON() { return " + g.expr() + "; } }"
	case 14:
		return "Object.freeze(" + g.expr() + ")"
	case 15:
		return "Object.assign(Object.create(null), " + g.object() + ")"
	case 16:
		return fmt.Sprintf("%q.repeat(%d)", "ab"[:1+g.next()%2], g.next()*g.next()*g.next())
	case 17:
		return "(async () => (" + g.expr() + "))()"
	case 18:
		return "{ allow: " + g.expr() + ", reason: " + g.expr() + ", arguments: " + g.expr() + ", result: " + g.expr() + " }"
	default:
		return "{ text: " + g.expr() + ", isError: " + g.expr() + ", value: " + g.expr() + " }"
	}
}

// object writes an expression that is an object.
func (g *fuzzJSGen) object() string { return "Object(" + g.expr() + ")" }

// FuzzJSValues: values crossing between Go and JavaScript, both ways, through
// the public API. The chain is
//
//	g0 (Go) · identity (JS) · g1 (Go) · fuzzed (JS) · g2 (Go)
//
// where fuzzed returns a JavaScript expression from the fuzzer at both tool
// points, and the tool call's arguments (and the result's value) are fuzzed
// JSON. No call may panic (not even a recovered panic, a library bug), hold a
// call past its deadline, or return a call or result that does not encode to
// JSON; the identity hook must hand back what it got (g1 sees what g0 saw);
// the Go guard after the fuzzed hook sees the call that will run; the host's
// values are never written through.
func FuzzJSValues(f *testing.F) {
	f.Fuzz(func(t *testing.T, expr string, args []byte) {
		var diags []hooks.Diagnostic
		var mu sync.Mutex
		diag := func(d hooks.Diagnostic) {
			mu.Lock()
			defer mu.Unlock()
			diags = append(diags, d)
		}
		checkDiags := func(when string) {
			mu.Lock()
			defer mu.Unlock()
			for _, d := range diags {
				var pe *hooks.PanicError
				if errors.As(d.Err, &pe) {
					t.Fatalf("%s: hook %q at %q: a recovered panic: %v\n%s", when, d.Hook, d.Point, pe.Value, pe.Stack)
				}
			}
		}

		done := fuzzWatchdog("CompileJS", 30*time.Second)
		if gen, ok := strings.CutPrefix(expr, fuzzGenMarker); ok {
			expr = fuzzGenMarker + (&fuzzJSGen{in: []byte(gen)}).expr()
		}
		fuzzed, err := hooks.CompileJS("fuzzed", fuzzJSSource(expr), diag)
		done()
		if err != nil {
			return // a syntax error: nothing to call
		}
		checkDiags("CompileJS")
		identity, err := hooks.CompileJS("identity", fuzzIdentitySource, diag)
		if err != nil {
			t.Fatal(err)
		}
		g0, g1, g2 := &fuzzGuard{name: "g0"}, &fuzzGuard{name: "g1"}, &fuzzGuard{name: "g2"}
		chain, err := hooks.NewChain([]hooks.Hook{g0, identity, g1, fuzzed, g2}, hooks.WithDiagnostics(diag))
		if err != nil {
			t.Fatal(err)
		}

		// The arguments: a fuzzed JSON object, or {"value": any other JSON value}.
		var value any
		if json.Unmarshal(args, &value) != nil {
			value = strings.ToValidUTF8(string(args), "\uFFFD") // as JSON would carry it
		}
		arguments, ok := value.(map[string]any)
		if !ok {
			arguments = map[string]any{"value": value}
		}
		pristine := fuzzDeepCopy(value) // to see that the host's values are not written
		call := hooks.ToolCall{ID: "call_1", Name: "shell", Arguments: arguments}

		run, err := chain.Start(context.Background(), fuzzSandboxHost(), hooks.RunStart{RunID: "fuzz", Input: "go"})
		if err != nil {
			t.Fatal(err)
		}
		defer run.End(context.Background(), hooks.RunEnd{})

		ctx, cancel := context.WithTimeout(context.Background(), fuzzCallDeadline)
		t0 := time.Now()
		done = fuzzWatchdog("BeforeToolExecute", fuzzCallDeadline+15*time.Second)
		step, err := run.BeforeToolExecute(ctx, call)
		done()
		cancel()
		if d := time.Since(t0); d > fuzzCallDeadline+fuzzGrace {
			t.Fatalf("BeforeToolExecute held the call %s past its %s deadline", d-fuzzCallDeadline, fuzzCallDeadline)
		}
		checkDiags("BeforeToolExecute")
		if err != nil {
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("BeforeToolExecute failed, and not by its deadline: %v", err)
			}
			return
		}
		if _, err := json.Marshal(step.Call); err != nil {
			t.Fatalf("the call does not encode: %v", err)
		}
		if _, err := json.Marshal(step.Result); err != nil {
			t.Fatalf("the result does not encode: %v", err)
		}
		if g0.call == nil || !reflect.DeepEqual(*g0.call, call) {
			t.Fatalf("the first guard saw %+v, not the host's call %+v", g0.call, call)
		}
		if g1.call == nil || !reflect.DeepEqual(g1.call.Arguments, call.Arguments) {
			if fuzzHasKey(value, "__proto__") {
				fuzzKnownFailure(t, "proto-key")
			}
			t.Fatalf("Go -> JS -> Go changed the arguments:\n got %#v\nwant %#v", g1.call, call.Arguments)
		}
		if g2.call != nil && !step.Refused && step.Result == nil && !reflect.DeepEqual(*g2.call, step.Call) {
			t.Fatalf("the last guard saw %+v, but the call that runs is %+v", *g2.call, step.Call)
		}
		if !reflect.DeepEqual(value, pristine) {
			t.Fatalf("the hooks wrote through to the host's arguments: %#v, was %#v", value, pristine)
		}
		if step.Refused {
			return
		}

		res := hooks.ToolResult{Text: "done", Value: value}
		if step.Result != nil {
			res = *step.Result
		}
		ctx, cancel = context.WithTimeout(context.Background(), fuzzCallDeadline)
		t0 = time.Now()
		done = fuzzWatchdog("AfterToolExecute", fuzzCallDeadline+15*time.Second)
		out, err := run.AfterToolExecute(ctx, step, res)
		done()
		cancel()
		if d := time.Since(t0); d > fuzzCallDeadline+fuzzGrace {
			t.Fatalf("AfterToolExecute held the call %s past its %s deadline", d-fuzzCallDeadline, fuzzCallDeadline)
		}
		checkDiags("AfterToolExecute")
		if err != nil {
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("AfterToolExecute failed, and not by its deadline: %v", err)
			}
			return
		}
		if _, err := json.Marshal(out); err != nil {
			t.Fatalf("the result does not encode: %v", err)
		}
		if step.Result == nil && g2.result == nil {
			t.Fatalf("the innermost guard's AfterToolExecute did not run")
		}
		if g0.result == nil || g1.result == nil || !reflect.DeepEqual(*g0.result, *g1.result) {
			t.Fatalf("JS -> Go -> JS changed the result:\n got %#v\nwant %#v", g0.result, g1.result)
		}
		if !reflect.DeepEqual(value, pristine) {
			t.Fatalf("the hooks wrote through to the host's result value: %#v, was %#v", value, pristine)
		}
	})
}
