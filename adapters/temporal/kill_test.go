package temporal_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/rienda/hooks"
	durable "github.com/rienda/hooks/adapters/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
)

// A worker process a test kills with SIGKILL: the test binary again, with
// workerEnv set to the server's address.
const (
	workerEnv      = "HOOKS_TEMPORAL_CHILD_WORKER"
	workerQueueEnv = "HOOKS_TEMPORAL_CHILD_QUEUE"
	workerNSEnv    = "HOOKS_TEMPORAL_CHILD_NAMESPACE"
)

// runChildWorker runs a worker whose AfterRun hook says on stdout that it
// began, then never returns: the test kills the process inside AfterRun.
func runChildWorker() int {
	c, err := client.Dial(client.Options{HostPort: os.Getenv(workerEnv), Namespace: os.Getenv(workerNSEnv)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	stuck := hooks.Funcs{HookName: "stuck", AfterRun: func(c *hooks.Context, e hooks.RunEnd) error {
		fmt.Println("afterRun began")
		select {} // killed here
	}}
	chain, err := hooks.NewChain([]hooks.Hook{stuck})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	w := worker.New(c, os.Getenv(workerQueueEnv), worker.Options{})
	if err := durable.Register(w, &durable.Agent{Chain: chain, Model: scriptedModel}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := w.Run(worker.InterruptCh()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// A worker killed (SIGKILL) inside AfterRun: the End step is retried on
// another worker, which does not run AfterRun again.
func TestAfterRunRunsOnceWhenItsWorkerIsKilledInsideIt(t *testing.T) {
	const queue = "kill-afterrun"
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"="+server.GetFrontendHostPort(), workerQueueEnv+"="+queue,
		workerNSEnv+"="+server.GetDefaultNamespace())
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })

	in := durable.Input{Input: "hello", Options: durable.Options{End: durable.StepOptions{HeartbeatTimeout: 2 * time.Second}}}
	run := startRun(t, queue, queue, in)
	lines := bufio.NewScanner(stdout)
	for lines.Scan() && lines.Text() != "afterRun began" { // the client's log lines come first
	}
	require.Equal(t, "afterRun began", lines.Text(), "the child began AfterRun")
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()

	var rec record
	agent := newAgent(t, &rec) // its bookkeeper counts AfterRun
	startWorker(t, queue, agent)
	out := wait(t, run)
	assert.Equal(t, "?", out.Output)
	assert.Empty(t, rec.snapshot().ends, "AfterRun did not run again on the new worker")
	var doc struct{ Ended bool }
	require.NoError(t, json.Unmarshal(out.Snapshot, &doc))
	assert.True(t, doc.Ended, "the run is recorded as ended")
}
