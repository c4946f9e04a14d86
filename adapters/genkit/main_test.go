package genkit_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no test leaves a goroutine behind: no tool call or
// model call of the adapter outlives its Generate.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
