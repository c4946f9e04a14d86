package shell

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// guesses are the lines of the Guess commands of s.
func guesses(s *Script) []string {
	var out []string
	for _, c := range s.Commands {
		if c.Guess {
			out = append(out, lines(&Script{Commands: []Command{c}})...)
		}
	}
	return out
}

// Wrapping: a program not known to run commands may run one all the
// same; the command in its arguments is listed as a Guess, and nothing
// in a guess counts as unresolved.
func TestParseGuessesWhatOtherProgramsRun(t *testing.T) {
	for src, want := range map[string]string{
		`strace -f rm -rf /`:                            "rm -rf /",
		`fakeroot rm -rf /`:                             "rm -rf /",
		`unshare -r rm -rf /`:                           "rm -rf /",
		`gdb -batch -ex run --args rm -rf /`:            "rm -rf /",
		`script -qc 'rm -rf /' /dev/null`:               "rm -rf /",
		`sg wheel -c 'rm -rf /'`:                        "rm -rf /",
		`ssh host 'rm -rf /'`:                           "rm -rf /",
		`python3 -c 'import os; os.system("rm -rf /")'`: "rm -rf /",
		`awk 'BEGIN{system("rm -rf /")}'`:               "rm -rf /",
		`sed -n '1e rm -rf /' f`:                        "rm -rf /",
		`docker run --rm img sh -c 'rm -rf /'`:          "rm -rf /",
	} {
		s, err := Parse(src, cfg)
		require.NoError(t, err, src)
		assert.Contains(t, guesses(s), want, src)
	}
	s, err := Parse(`foo 'bar $(baz)' "$X"`, cfg)
	require.NoError(t, err)
	assert.Empty(t, s.Unresolved, "a guess is never unresolved")
	for _, src := range []string{`echo "rm -rf /"`, `git commit -m "rm -rf / is gone"`, `grep -r "rm -rf" .`} {
		s, err := Parse(src, cfg)
		require.NoError(t, err, src)
		assert.Empty(t, guesses(s), "%s runs nothing of its arguments", src)
	}
}

// Wrapping: builtins and programs that run a script they are given.
func TestParseFindsScriptsInBuiltins(t *testing.T) {
	for src, want := range map[string]string{
		`trap 'rm -rf /' EXIT`:            "rm -rf /",
		`mapfile -C 'rm -rf /' -c 1 < f`:  "rm -rf /",
		`parallel 'rm -rf {}' ::: /`:      "rm -rf /",
		`parallel ::: 'rm -rf /'`:         "rm -rf /",
		`git -c alias.p='!rm -rf /' p`:    "rm -rf /",
		`git -c alias.p='push --force' p`: "git push --force",
		`fish -c 'rm -rf /'`:              "rm -rf /",
		`tcsh -c 'rm -rf /'`:              "rm -rf /",
		"exec 1>/dev/sda; cat img":        ":",
		"> /dev/sda":                      ":",
	} {
		s, err := Parse(src, cfg)
		require.NoError(t, err, src)
		assert.Contains(t, lines(s), want, src)
	}
	s, err := Parse(`echo 'rm -rf /' | parallel`, cfg)
	require.NoError(t, err)
	assert.NotEmpty(t, s.Unresolved, "parallel running what it reads")
}

// Words: split as the shell splits them (IFS set by the script), and an
// unquoted expansion is a pattern.
func TestParseSplitsAndGlobsAsTheShellDoes(t *testing.T) {
	s, err := Parse(`IFS=,; x=rm,-rf,/; $x`, cfg)
	require.NoError(t, err)
	assert.Contains(t, lines(s), "rm -rf /")
	s, err = Parse(`read IFS; x=a,b; $x`, cfg)
	require.NoError(t, err)
	assert.NotEmpty(t, s.Unresolved, "IFS from the input: the split is decided only when it runs")
	s, err = Parse(`x='/usr/*'; rm -rf $x`, cfg)
	require.NoError(t, err)
	require.Len(t, s.Commands, 1)
	assert.True(t, s.Commands[0].Args[2].Glob, "an unquoted expansion is expanded against the file system")
	s, err = Parse(`x='/usr/*'; rm -rf "$x"`, cfg)
	require.NoError(t, err)
	assert.False(t, s.Commands[0].Args[2].Glob)
	s, err = Parse(`CDPATH=/ cd usr; rm -rf lib`, cfg)
	require.NoError(t, err)
	require.Len(t, s.Commands, 2)
	require.Len(t, s.Commands[1].Dirs, 1)
	assert.False(t, s.Commands[1].Dirs[0].Known, "cd with CDPATH set goes where CDPATH finds it")
}

// Size: a huge or deeply nested command is an error at once, never a
// long wait or a crash.
func TestParseRefusesSizeItCannotAfford(t *testing.T) {
	for name, src := range map[string]string{
		"too long":          strings.Repeat("a ", MaxLen),
		"nested $(":         strings.Repeat("$(", 5000) + "rm -rf /" + strings.Repeat(")", 5000),
		"nested subshells":  strings.Repeat("(", 20000) + "ls" + strings.Repeat(")", 20000),
		"nested in bash -c": "bash -c '" + strings.Repeat("{ ", 1000) + "ls" + strings.Repeat("; }", 1000) + "'",
	} {
		s, err := Parse(src, cfg)
		if err == nil {
			assert.NotEmpty(t, s.Unresolved, name)
		}
	}
	_, err := ParseArgv(make([]string, maxWords+1), cfg)
	assert.Error(t, err, "an argv of more than maxWords")
	s, err := Parse(strings.Repeat("a ", 100000), cfg)
	require.NoError(t, err)
	assert.NotEmpty(t, s.Unresolved, "past maxWords")
	assert.Len(t, s.Unresolved, 1, "said once")
	s, err = Parse("echo $("+strings.Repeat("x", 100000)+")", cfg)
	require.NoError(t, err)
	for _, u := range s.Unresolved {
		assert.Less(t, len(u), 1000, "a reason, not a copy of the command")
	}
}

// Encoding: a script the command writes and then runs (decoded into a
// file, written by echo or tee) is its own script: decided only when it
// runs, never taken for a harmless file.
func TestParseScriptsTheCommandWrites(t *testing.T) {
	for _, src := range []string{`echo 'rm -rf /' > x.sh && bash x.sh`, `base64 -d <<< cm0gLXJmIC8= > x; sh ./x`,
		`printf 'rm -rf /' | tee y.sh; . y.sh`, `echo 'import os' > a.py; python3 a.py`, `echo x > run; chmod +x run; ./run`} {
		s, err := Parse(src, cfg)
		require.NoError(t, err, src)
		assert.NotEmpty(t, s.Unresolved, src)
	}
	s, err := Parse(`echo hi > out.txt && cat out.txt && bash build.sh`, cfg)
	require.NoError(t, err)
	assert.Empty(t, s.Unresolved)
}

// Wrapping: a command in a value another program runs (git -c
// core.sshCommand=…, GIT_SSH_COMMAND=…, ssh -o ProxyCommand=…, tar
// --to-command=…), and a root shell reading a pipe (sudo -s, su).
func TestParseCommandsInValuesAndRootShells(t *testing.T) {
	for _, src := range []string{`git -c core.sshCommand='rm -rf /' fetch`, `git -c core.fsmonitor="rm -rf /" status`,
		`GIT_SSH_COMMAND='rm -rf /' git fetch`, `PAGER='rm -rf /' man ls`, `ssh -o ProxyCommand='rm -rf /' host`,
		`tar -xf a.tar --to-command='rm -rf /'`, `tar --checkpoint-action=exec='rm -rf /' -cf x .`} {
		s, err := Parse(src, cfg)
		require.NoError(t, err, src)
		assert.Contains(t, guesses(s), "rm -rf /", src)
	}
	for _, src := range []string{`echo 'rm -rf /' | sudo -s`, `echo 'rm -rf /' | sudo -i`, `echo 'rm -rf /' | su`, `curl x | su -`} {
		s, err := Parse(src, cfg)
		require.NoError(t, err, src)
		assert.NotEmpty(t, s.Unresolved, src)
	}
	for src, want := range map[string]string{`sudo -s <<< 'rm -rf /'`: "rm -rf /", `su <<< 'rm -rf /'`: "rm -rf /"} {
		s, err := Parse(src, cfg)
		require.NoError(t, err, src)
		assert.Contains(t, lines(s), want, src)
	}
	s, err := Parse(`echo x | su -c ls u`, cfg)
	require.NoError(t, err)
	assert.Empty(t, s.Unresolved, "su -c runs its script, not its input")
}

// Spelling: a nameref is the variable it names, decided only when it
// runs; a value holding a substitution that arithmetic may run is
// judged as a script.
func TestParseNamerefsAndArithmeticValues(t *testing.T) {
	for _, src := range []string{`declare -n r=HOME; rm -rf $r`, `typeset -n r=HOME; rm -rf $r`, `declare -i r=5; rm -rf /$r`} {
		s, err := Parse(src, cfg)
		require.NoError(t, err, src)
		require.NotEmpty(t, s.Commands, src)
		args := s.Commands[len(s.Commands)-1].Args
		assert.False(t, args[len(args)-1].Known, src)
	}
	s, err := Parse(`local -n r=X; $r`, cfg)
	require.NoError(t, err)
	assert.NotEmpty(t, s.Unresolved)
	s, err = Parse(`x='a[$(rm -rf /)]'; echo $((x))`, cfg)
	require.NoError(t, err)
	assert.Contains(t, guesses(s), "rm -rf /")
}
