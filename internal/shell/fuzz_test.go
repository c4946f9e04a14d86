package shell

import "testing"

// FuzzParse: reading any text never panics, and what it cannot read is
// an error, never an empty script taken for harmless.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"rm -rf /", `bash -c "eval 'x'"`, "a{1..3}{a,b}", "$'\\x41'", "find / -exec sh -c 'x' \\;",
		"alias a=b; a", "env -S 'a b' c", "cat <<EOF\n$(x)\nEOF", "xargs -I{} {}", "cd ~; cd -; x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		script, err := Parse(s, Config{Home: "/h"})
		if err == nil && script == nil {
			t.Fatal("no script and no error")
		}
		_, _ = ParseArgv([]string{"bash", "-c", s}, Config{})
	})
}
