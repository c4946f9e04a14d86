package geminicli_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/geminicli"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// TestMain checks that no test leaves a goroutine running. regexp2's
// clock, which a matcher's match timeout starts, is the library's own: it
// sleeps between ticks and stops by itself once no match is timed.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/dlclark/regexp2.runClock"))
}

var bg = context.Background()

// interpreters run testdata's scripts, by extension.
var interpreters = map[string]string{".sh": "bash", ".py": "python3", ".js": "node"}

// script is the command that runs testdata/<name> with its interpreter
// and args, quoted for bash. The test is skipped, with the reason, when
// the interpreter (or jq, for the scripts that use it) is not installed.
func script(t testing.TB, name string, args ...string) string {
	t.Helper()
	interp := interpreters[filepath.Ext(name)]
	for _, tool := range []string{interp, "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s needs %s, which is not installed: %v", name, tool, err)
		}
	}
	path, err := filepath.Abs(filepath.Join("testdata", name))
	require.NoError(t, err)
	words := []string{interp, quote(path)}
	for _, a := range args {
		words = append(words, quote(a))
	}
	return strings.Join(words, " ")
}

// quote quotes s for bash.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// emit is a command that prints out, writes errText to stderr, exits code.
func emit(t testing.TB, out, code, errText string) string {
	return script(t, "emit.sh", out, code, errText)
}

// handler is one "command" hook configuration.
func handler(command string) map[string]any {
	return map[string]any{"type": "command", "command": command}
}

// group is one hook definition with these handlers.
func group(matcher string, handlers ...map[string]any) map[string]any {
	g := map[string]any{"hooks": handlers}
	if matcher != "" {
		g["matcher"] = matcher
	}
	return g
}

// settings is a settings.json with these definitions per event.
func settings(t testing.TB, events map[string][]map[string]any) []byte {
	data, err := json.Marshal(map[string]any{"general": map[string]any{"vimMode": true}, "hooks": events})
	require.NoError(t, err)
	return data
}

// recorder keeps what a chain diagnosed and what a person was asked and
// shown.
type recorder struct {
	mu      sync.Mutex
	diags   []hooks.Diagnostic
	notices []hooks.Notice
	asked   []hooks.Prompt
	answer  bool
}

func (r *recorder) diagnose(d hooks.Diagnostic) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.diags = append(r.diags, d)
}

func (r *recorder) notify(_ string, n hooks.Notice) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notices = append(r.notices, n)
}

func (r *recorder) confirm(_ context.Context, p hooks.Prompt) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, p)
	return r.answer, nil
}

// errors are the diagnostics' texts.
func (r *recorder) errors() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, d := range r.diags {
		out = append(out, d.Err.Error())
	}
	return out
}

// shown are the notices' bodies.
func (r *recorder) shown() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, n := range r.notices {
		out = append(out, n.Body)
	}
	return out
}

// host is a host that reports to rec, working in a fresh folder.
func host(t testing.TB, rec *recorder) hooks.Host {
	return hooks.Host{Workdir: t.TempDir(), Session: hooks.Session{ID: "sess-1"},
		Confirm: rec.confirm, Notify: rec.notify}
}

// start starts a run of the hooks of data on h.
func start(t *testing.T, rec *recorder, h hooks.Host, data []byte, opts ...geminicli.Option) *hooks.Run {
	t.Helper()
	opts = append([]geminicli.Option{geminicli.Diagnostics(rec.diagnose)}, opts...)
	hs, err := geminicli.Hooks(data, opts...)
	require.NoError(t, err)
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(rec.diagnose))
	require.NoError(t, err)
	run, err := chain.Start(bg, h, hooks.RunStart{Input: "test"})
	require.NoError(t, err)
	t.Cleanup(func() { run.End(bg, hooks.RunEnd{}) })
	return run
}

// tool is a tool that returns text and records the calls it ran.
type tool struct {
	mu    sync.Mutex
	text  string
	calls []hooks.ToolCall
}

func (tl *tool) run(_ *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	tl.calls = append(tl.calls, call)
	return hooks.ToolResult{Text: tl.text}, nil
}

func (tl *tool) ran() []hooks.ToolCall {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	return append([]hooks.ToolCall(nil), tl.calls...)
}

// model answers every request with reply and records the requests.
type model struct {
	mu    sync.Mutex
	reply hooks.ModelResponse
	reqs  []hooks.ModelRequest
}

func (m *model) call(_ *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reqs = append(m.reqs, req)
	return m.reply, nil
}

// user is a request whose last message is the user's text.
func user(text string) hooks.ModelRequest {
	return hooks.ModelRequest{System: "be helpful", Messages: []hooks.Message{{Role: "user", Text: text}}}
}

// records reads the JSON lines record.sh wrote to path (the env lines
// apart).
func records(t *testing.T, path string) (inputs []map[string]any, envs []string) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if env, ok := strings.CutPrefix(line, "env "); ok {
			envs = append(envs, env)
			continue
		}
		var in map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &in), line)
		inputs = append(inputs, in)
	}
	require.NoError(t, sc.Err())
	return inputs, envs
}

// geminicliHooks is geminicli.Hooks with diagnostics dropped.
func geminicliHooks(data []byte) ([]hooks.Hook, error) {
	return geminicli.Hooks(data, geminicli.Diagnostics(func(hooks.Diagnostic) {}))
}
