package proc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMarkEnv(t *testing.T) {
	assert.Equal(t, []string{"RIENDA_HOOK_RUN=t"}, markEnv(nil, "t"))
	assert.Equal(t, []string{"A=1", "B=2", "RIENDA_HOOK_RUN=outer,t"},
		markEnv([]string{"A=1", "RIENDA_HOOK_RUN=outer", "B=2"}, "t"), "nested runs keep every token")
	assert.Equal(t, []string{"RIENDA_HOOK_RUN=t"}, markEnv([]string{"RIENDA_HOOK_RUN="}, "t"))
	assert.Equal(t, []string{"RIENDA_HOOK_RUN=second,t"},
		markEnv([]string{"RIENDA_HOOK_RUN=first", "RIENDA_HOOK_RUN=second"}, "t"), "the last entry wins, as in exec")
}

func TestMarked(t *testing.T) {
	for environ, want := range map[string]bool{
		"A=1\x00RIENDA_HOOK_RUN=tok\x00B=2\x00": true,
		"RIENDA_HOOK_RUN=tok":                   true, // no final NUL
		"RIENDA_HOOK_RUN=outer,tok\x00":         true,
		"RIENDA_HOOK_RUN=tok,inner\x00":         true,
		"RIENDA_HOOK_RUN=toke\x00":              false,
		"RIENDA_HOOK_RUN=to\x00":                false,
		"XRIENDA_HOOK_RUN=tok\x00":              false,
		"OTHER=tok\x00":                         false,
		"OTHER=1 RIENDA_HOOK_RUN=tok\x00":       false,
		"RIENDA_HOOK_RUN=\x00":                  false,
		"":                                      false,
	} {
		assert.Equal(t, want, marked([]byte(environ), "tok"), "%q", environ)
	}
}
