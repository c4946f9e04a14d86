package temporal_test

import (
	"os"
	"testing"

	"go.temporal.io/server/temporaltest"
)

// server is the Temporal server the tests share: a real one, in process.
var server *temporaltest.TestServer

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) != "" { // a worker process that a test kills
		os.Exit(runChildWorker())
	}
	server = temporaltest.NewServer()
	code := m.Run()
	server.Stop()
	os.Exit(code)
}
