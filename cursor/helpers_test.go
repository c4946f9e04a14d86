package cursor_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/cursor"
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

func needJQ(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skipf("the documented scripts need jq: %v", err)
	}
}

// docScript is the command that runs testdata/docs/<name>.
func docScript(t testing.TB, name string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("testdata", "docs", name))
	require.NoError(t, err)
	return quote(path)
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// file is a hooks.json with these entries per event.
func file(t testing.TB, events map[string][]map[string]any) []byte {
	t.Helper()
	data, err := json.Marshal(map[string]any{"version": 1, "hooks": events})
	require.NoError(t, err)
	return data
}

func cmd(command string) map[string]any { return map[string]any{"command": command} }

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

type harness struct {
	run  *hooks.Run
	diag *diags
	dir  string
}

// tools are the host's tools in these tests.
var tools = []cursor.Option{cursor.ShellTools("shell"), cursor.ReadTools("read"), cursor.EditTools("write")}

func start(t testing.TB, settings []byte, opts ...cursor.Option) *harness {
	t.Helper()
	d := &diags{}
	all := append(append([]cursor.Option{cursor.Diagnostics(d.add)}, tools...), opts...)
	hs, err := cursor.Hooks(settings, all...)
	require.NoError(t, err)
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(d.add))
	require.NoError(t, err)
	dir := t.TempDir()
	run, err := chain.Start(bg, hooks.Host{Workdir: dir, Session: hooks.Session{ID: "s1"}}, hooks.RunStart{Input: "go"})
	require.NoError(t, err)
	t.Cleanup(func() { run.End(bg, hooks.RunEnd{Outcome: hooks.Completed}) })
	return &harness{run: run, diag: d, dir: dir}
}

func (h *harness) call(t testing.TB, name string, args map[string]any) hooks.ToolStep {
	t.Helper()
	step, err := h.run.BeforeToolExecute(bg, hooks.ToolCall{ID: "c1", Name: name, Arguments: args})
	require.NoError(t, err)
	return step
}
