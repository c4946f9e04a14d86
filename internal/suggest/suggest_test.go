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

func TestDistance(t *testing.T) {
	assert.Equal(t, 0, Distance("a", "a"))
	assert.Equal(t, 1, Distance("modle", "model"))
	assert.Equal(t, 3, Distance("aftertoolexecution", "aftertoolexecute"))
	assert.Equal(t, 3, Distance("", "abc"))
}
