package copilotcli_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/copilotcli"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// TestMain checks that no test leaves a goroutine running.
// regexp2's clock, which a matcher's match timeout starts, is the
// library's own: it stops by itself once no match is timed.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/dlclark/regexp2.runClock"))
}

var bg = context.Background()

// needJQ skips a test whose scripts use jq when it is not installed.
func needJQ(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skipf("the documented scripts need jq: %v", err)
	}
}

// docScript is the bash command that runs testdata/docs/<name>.
func docScript(t testing.TB, name string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("testdata", "docs", name))
	require.NoError(t, err)
	return "bash " + quote(path)
}

// quote quotes s for bash.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// file is a hook file with these entries per event.
func file(t testing.TB, events map[string][]map[string]any) []byte {
	t.Helper()
	data, err := json.Marshal(map[string]any{"version": 1, "hooks": events})
	require.NoError(t, err)
	return data
}

// bash is a command entry.
func bash(command string) map[string]any { return map[string]any{"type": "command", "bash": command} }

// diags collects diagnostics, load-time and run-time.
type diags struct {
	mu  sync.Mutex
	all []string
}

func (d *diags) add(x hooks.Diagnostic) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.all = append(d.all, x.Err.Error())
}

func (d *diags) text() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return strings.Join(d.all, "\n")
}

// harness is a chain of one file's hooks and a run of it.
type harness struct {
	run  *hooks.Run
	diag *diags
	dir  string
}

func start(t testing.TB, settings []byte, opts ...copilotcli.Option) *harness {
	t.Helper()
	d := &diags{}
	hs, err := copilotcli.Hooks(settings, append([]copilotcli.Option{copilotcli.Diagnostics(d.add)}, opts...)...)
	require.NoError(t, err)
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(d.add))
	require.NoError(t, err)
	dir := t.TempDir()
	run, err := chain.Start(bg, hooks.Host{Workdir: dir, Session: hooks.Session{ID: "s1"}}, hooks.RunStart{Input: "go"})
	require.NoError(t, err)
	t.Cleanup(func() { run.End(bg, hooks.RunEnd{Outcome: hooks.Completed}) })
	return &harness{run: run, diag: d, dir: dir}
}

// call runs one tool call's guard and returns its step.
func (h *harness) call(t testing.TB, name string, args map[string]any) hooks.ToolStep {
	t.Helper()
	step, err := h.run.BeforeToolExecute(bg, hooks.ToolCall{ID: "c1", Name: name, Arguments: args})
	require.NoError(t, err)
	return step
}
