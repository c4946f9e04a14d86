package prebuilt

import "testing"

// FuzzShellWords: judging a command never panics, whatever the text, and
// a text that is not judged plainly allowed says why.
func FuzzShellWords(f *testing.F) {
	for _, s := range []string{"", "rm -rf /", `"unclosed`, "'x", `a\`, "$(", "a && b || c | d; e & f", "{ x; }",
		"bash -c 'eval \"$(x)\"'", "find / -exec sh -c 'rm -rf {}' \\;", "a{1..9}{a..z}"} {
		f.Add(s)
	}
	h, err := newSandbox(SandboxConfig{AllowHosts: []string{"example.com"}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = h.judgeCommand(shellEnv{workdir: "/w", home: "/h"}, "command", s)
	})
}
