package suggest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClosest(t *testing.T) {
	known := []string{"hooks", "matcher", "timeout", "AfterToolExecute", "BeforeToolExecute"}
	for word, want := range map[string]string{
		"hook": "hooks", "matchers": "matcher", "timeOut": "timeout", "AfterToolExecution": "AfterToolExecute",
		"BeforeToolExecut": "BeforeToolExecute", "Hooks": "hooks",
	} {
		got, ok := Closest(word, known)
		assert.True(t, ok, word)
		assert.Equal(t, want, got, word)
	}
	for _, word := range []string{"hooks", "age", "command", "Name", "AfterRun"} {
		_, ok := Closest(word, known)
		assert.False(t, ok, word)
	}
}
