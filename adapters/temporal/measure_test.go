package temporal_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	durable "github.com/rienda/hooks/adapters/temporal"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
)

// TestMeasureHistory logs, side by side, the history a run of n turns with
// 16 KB tool outputs leaves with and without a Store, for the sizes in
// HOOKS_TEMPORAL_MEASURE (say "10,100,1000"). Skipped without it: it is a
// measurement, not a check (TestARunOfAnyLengthStaysSmall checks).
func TestMeasureHistory(t *testing.T) {
	sizes := os.Getenv("HOOKS_TEMPORAL_MEASURE")
	if sizes == "" {
		t.Skip("set HOOKS_TEMPORAL_MEASURE=10,100,1000 to measure")
	}
	for _, s := range strings.Split(sizes, ",") {
		turns, err := strconv.Atoi(s)
		require.NoError(t, err)
		for _, withStore := range []bool{false, true} {
			var store durable.Store
			if withStore {
				store = &durable.MemoryStore{}
			}
			var rec record
			queue := fmt.Sprintf("measure-%d-%v", turns, withStore)
			startWorker(t, queue, longAgent(t, &rec, turns, store))
			in := durable.Input{Input: "fetch everything", MaxTurns: turns + 1, StepTimeout: 30 * time.Second, Retry: quickRetry}
			begin := time.Now()
			run, err := server.GetDefaultClient().ExecuteWorkflow(context.Background(),
				client.StartWorkflowOptions{ID: queue, TaskQueue: queue}, durable.WorkflowName, in)
			require.NoError(t, err)
			first := run.GetRunID()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
			runErr := run.Get(ctx, nil)
			cancel()
			elapsed := time.Since(begin)
			execs := executionSizes(t, queue, first)
			total, largest := 0, 0
			for _, n := range execs {
				total, largest = total+n, max(largest, n)
			}
			outcome := "completed"
			if runErr != nil {
				outcome = "failed: " + runErr.Error()
				if len(outcome) > 120 {
					outcome = outcome[:120]
				}
			}
			t.Logf("turns=%d store=%v: %s; executions %d, history total %d B, largest %d B, %v (%v/turn)",
				turns, withStore, outcome, len(execs), total, largest, elapsed.Round(time.Millisecond), (elapsed / time.Duration(turns)).Round(time.Microsecond))
		}
	}
}
