//go:build linux

package hooks_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// childPrelude starts the scripts of these tests: $d is the script's
// folder; a child run as `sh -c "$sleeper" "$d"` reports its pid on the
// FIFO $d/fifo once it runs, and `await N` collects N reports into
// $d/pids. The FIFO is open read-write on fd 3, so a read never sees an
// end while no child has it open: nothing sleeps to synchronise.
const childPrelude = `#!/bin/sh
d=$1
exec 3<>"$d/fifo"
sleeper='echo $$ >"$0/fifo"; exec sleep 100'
await() { i=0; while [ $i -lt $1 ]; do read p <&3; echo $p >>"$d/pids"; i=$((i+1)); done; }
cat >/dev/null
`

// childHook writes childPrelude+body to a script in a fresh folder and
// returns the hook's command and the folder.
func childHook(t *testing.T, body string) ([]string, string) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600))
	path := filepath.Join(dir, "hook.sh")
	require.NoError(t, os.WriteFile(path, []byte(childPrelude+body), 0o700))
	return []string{path, dir}, dir
}

// assertChildrenDead checks that the children the script reported have
// exited.
func assertChildrenDead(t *testing.T, dir string, reported int) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "pids"))
	require.NoError(t, err)
	pids := strings.Fields(string(data))
	require.Len(t, pids, reported)
	for _, p := range pids {
		var pid int
		_, err := fmt.Sscan(p, &pid)
		require.NoError(t, err)
		assert.False(t, alive(pid), "child %d still runs after the call", pid)
	}
}

// A command that leaves a child behind and exits: the call returns with
// the command's decision (no diagnostic: the hook did not wait for the
// output the child holds), and the child is dead when it returns.
func TestCommandHookChildrenDieWhenTheCommandExits(t *testing.T) {
	for name, spawn := range map[string]string{
		"holding stdout":      `sh -c "$sleeper" "$d" &`,
		"stdout to /dev/null": `sh -c "$sleeper" "$d" >/dev/null 2>&1 &`,
		"setsid":              `setsid sh -c "$sleeper" "$d" &`,
		"daemon":              `setsid sh -c 'sh -c "$1" "$0" &' "$d" "$sleeper" >/dev/null 2>&1 &`,
		"nohup":               `nohup sh -c "$sleeper" "$d" &`,
	} {
		t.Run(name, func(t *testing.T) {
			argv, dir := childHook(t, spawn+"\nawait 1\n"+`echo '{"decision":"block","reason":"no children"}'`+"\n")
			var rec recorder
			run := start(t, &rec, commandHooks(t, entry("pre_tool_call", argv...))...)
			res, err := run.CallTool(bg, shellCall("ls"), echoTool(&rec))
			require.NoError(t, err)
			assert.Equal(t, hooks.ToolResult{Text: "no children", IsError: true}, res)
			assert.Empty(t, rec.diagnostics())
			assertChildrenDead(t, dir, 1)
		})
	}
}

func TestCommandHookAdvisoryOutputWithAChildHoldingIt(t *testing.T) {
	argv, dir := childHook(t, `setsid sh -c "$sleeper" "$d" & await 1; echo first; echo second`)
	var mu sync.Mutex
	var logs []string
	host := hooks.Host{Log: func(hook, line string) {
		mu.Lock()
		defer mu.Unlock()
		logs = append(logs, line)
	}}
	var rec recorder
	startWith(t, &rec, host, commandHooks(t, entry("session_start", argv...))...)
	assert.Equal(t, []string{"first", "second"}, logs)
	assert.Empty(t, rec.diagnostics())
	assertChildrenDead(t, dir, 1)
}

// The timeout must come once the children run: on a machine too busy to
// start them within the first timeout, the test runs again with more.
func TestCommandHookTimeoutKillsAChildInItsOwnSession(t *testing.T) {
	for _, ms := range []int{300, 2000, 8000} {
		argv, dir := childHook(t, `setsid sh -c "$sleeper" "$d" & sh -c "$sleeper" "$d" & await 2
: >"$d/ready"; exec sleep 100`)
		var rec recorder
		run := start(t, &rec, commandHooks(t, with(entry("pre_tool_call", argv...), "timeoutMs", ms))...)
		_, err := run.CallTool(bg, shellCall("ls"), echoTool(&rec))
		require.NoError(t, err, "a timeout fails open")
		require.Len(t, rec.diagnostics(), 1)
		assert.Contains(t, rec.diagnostics()[0].Err.Error(), fmt.Sprintf("timed out after %s", time.Duration(ms)*time.Millisecond))
		if _, err := os.Stat(filepath.Join(dir, "ready")); err != nil {
			continue // killed before its children ran: again, with more time
		}
		assertChildrenDead(t, dir, 2)
		return
	}
	t.Fatal("the script never got to start its children")
}

func TestCommandHookCancellationKillsAChildInItsOwnSession(t *testing.T) {
	argv, dir := childHook(t, `setsid sh -c "$sleeper" "$d" & await 1; echo started >"$d/started"; exec sleep 100`)
	started := filepath.Join(dir, "started")
	require.NoError(t, syscall.Mkfifo(started, 0o600))
	var rec recorder
	run := start(t, &rec, commandHooks(t, entry("pre_tool_call", argv...))...)
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := run.CallTool(ctx, shellCall("ls"), echoTool(&rec))
		done <- err
	}()
	require.Equal(t, "started\n", readFIFO(t, started, done)) // the script, and so its child, runs
	cancel()
	assert.ErrorIs(t, <-done, context.Canceled)
	assert.Empty(t, rec.got(), "no tool runs after the cancellation")
	assertChildrenDead(t, dir, 1)
}

// readFIFO reads what the script writes to the FIFO path, failing if the
// call ends (on done) first rather than blocking for ever.
func readFIFO(t *testing.T, path string, done chan error) string {
	t.Helper()
	read := make(chan []byte, 1)
	go func() {
		data, _ := os.ReadFile(path) // returns once a writer has written and closed it
		read <- data
	}()
	select {
	case data := <-read:
		return string(data)
	case err := <-done:
		if f, _ := os.OpenFile(path, os.O_RDWR, 0); f != nil {
			f.Close() // a writer came and went: the read ends
		}
		<-read
		t.Fatalf("the call ended before the script wrote to %s: %v", path, err)
		return ""
	}
}
