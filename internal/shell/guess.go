package shell

import (
	"path"
	"strings"
)

// plain are programs known not to run their arguments as commands: their
// words are not searched for commands (echo "rm -rf /" prints it).
var plain = map[string]bool{"echo": true, "printf": true, "grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true,
	"ack": true, "man": true, "info": true, "which": true, "whereis": true, "type": true, "hash": true, "help": true,
	"apropos": true, "whatis": true, "cat": true, "less": true, "more": true, "head": true, "tail": true, "ls": true, "wc": true,
	"sort": true, "uniq": true, "cut": true, "tr": true, "diff": true, "jq": true, "yq": true, "test": true, "[": true,
	"true": true, "false": true, "logger": true, "read": true, "unset": true, "touch": true, "mkdir": true, "cd": true,
	"pushd": true, "popd": true, "alias": true, "unalias": true, "git": true, "go": true, "cargo": true, "pwd": true,
	"basename": true, "dirname": true, "realpath": true, "readlink": true, "stat": true, "file": true, "du": true, "df": true,
	"rm": true, "rmdir": true, "chmod": true, "chown": true, "chgrp": true, "cp": true, "mv": true, "ln": true, "dd": true,
	"curl": true, "wget": true, "tee": true, ":": true, "exit": true, "return": true, "set": true, "shopt": true}

// runners are program names that, found among another program's
// arguments, start a command it may run (strace rm -rf /, fakeroot rm,
// unshare -r rm, gdb --args rm, docker run img rm …): the words from
// there on are judged as a command too.
var runners = map[string]bool{"rm": true, "rmdir": true, "chmod": true, "chown": true, "chgrp": true, "dd": true,
	"shred": true, "mkfs": true, "mke2fs": true, "mkswap": true, "wipefs": true, "blkdiscard": true, "git": true,
	"curl": true, "wget": true, "nc": true, "ncat": true, "netcat": true, "ssh": true, "eval": true, "source": true,
	"find": true, "xargs": true} // not exec, install, cp: the names of subcommands too (npm exec, npm install)

// runnerName reports whether a word names a program whose run matters
// (a runner, a shell, a wrapper).
func runnerName(w Word) bool {
	if !w.Known || w.Glob || w.Text == "" {
		return false
	}
	n := path.Base(w.Text)
	_, wrap := wrappers[n]
	return runners[n] || shells[n] || wrap || strings.HasPrefix(n, "mkfs.")
}

// guessed walks what a program not known to run commands may run all
// the same: from the first of its arguments that names a program (strace
// -f rm -rf / runs rm -rf /), and each argument that reads as a script
// (script -c 'rm -rf /', sg wheel -c '…', ssh host 'rm -rf /', python -c
// 'os.system("rm -rf /")': the quoted strings in it). What it finds is a
// Guess: judged by the deny rules, but nothing in it counts as
// unresolved (the argument may be no command at all).
func (w *walker) guessed(cmd Command, depth int) {
	name := cmd.Name()
	if plain[name] || len(cmd.Args) < 2 || depth >= maxDepth {
		return
	}
	saved := w.guess
	w.guess = true
	defer func() { w.guess = saved }()
	var via []string // made when something is found: most commands hold none
	viaOf := func() []string {
		if via == nil {
			via = append(append([]string(nil), cmd.Via...), "argument of "+name)
		}
		return via
	}
	for i, a := range cmd.Args[1:] {
		if runnerName(a) {
			inner := Command{Args: append([]Word(nil), cmd.Args[i+1:]...), Via: viaOf(), Pipeline: cmd.Pipeline, Stage: cmd.Stage, Dirs: cmd.Dirs, Guess: true}
			_ = w.command(inner, nil, depth+1)
			break
		}
	}
	for _, a := range cmd.Args[1:] {
		if mayHoldScript(a) {
			w.embeddedWord(a, viaOf(), depth)
		}
	}
}

// mayHoldScript: a known word with a blank, an operator or a
// substitution in it.
func mayHoldScript(a Word) bool {
	return a.Known && (strings.ContainsAny(a.Text, " \t\n;&|`") || strings.Contains(a.Text, "$("))
}

// embeddedWord walks a word that may hold a script: whole, and each
// value after an "=" (--to-command=…, ProxyCommand=…, core.pager=…).
func (w *walker) embeddedWord(a Word, via []string, depth int) {
	if !mayHoldScript(a) {
		return
	}
	saved := w.guess
	w.guess = true
	defer func() { w.guess = saved }()
	w.embedded(a.Text, via, depth)
	for i, n := 0, 0; n < 8; n++ {
		j := strings.IndexByte(a.Text[i:], '=')
		if j < 0 {
			break
		}
		i += j + 1
		if strings.ContainsAny(a.Text[i:], " \t\n;&|") {
			w.embedded(a.Text[i:], via, depth)
		}
	}
}

// assigned walks the values of NAME=value words before a command that
// may be commands the program runs (GIT_SSH_COMMAND, PAGER, EDITOR).
func (w *walker) assigned(cmd Command, depth int) {
	for _, a := range cmd.Assigns {
		if name, value, _ := strings.Cut(a, "="); mayHoldScript(Lit(value)) {
			w.embeddedWord(Lit(value), append(append([]string(nil), cmd.Via...), "the value of "+name), depth)
		}
	}
}

// maxGuessBytes bounds the text one command line's guesses parse.
const maxGuessBytes = 1 << 20

// embedded walks text as a script, and the quoted strings in it (the
// code of another language, whose strings may be commands it runs).
func (w *walker) embedded(text string, via []string, depth int) {
	if w.guessBytes += len(text); w.guessBytes > maxGuessBytes || depth >= maxDepth {
		return
	}
	savedIn, savedVars, savedDirs := w.inPipe, w.vars, w.dirs
	w.inPipe, w.vars = false, map[string]*string{}
	err := w.script(text, depth+1, via)
	if err != nil {
		err = w.script(": "+text, depth+1, via) // as words: a[$(…)] is no command, but its $(…) runs
	}
	w.inPipe, w.vars, w.dirs = savedIn, savedVars, savedDirs
	if err == nil {
		return
	}
	for _, s := range quotedStrings(text) {
		if strings.ContainsAny(s, " \t\n;&|") {
			w.embedded(s, via, depth+1)
		}
	}
}

// quotedStrings are the texts between matching ", ' or ` in s, outermost
// first, as another language writes strings ("rm -rf /" in
// os.system("rm -rf /")).
func quotedStrings(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		q := s[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		j := strings.IndexByte(s[i+1:], q)
		if j < 0 {
			break
		}
		out = append(out, s[i+1:i+1+j])
		i += j + 1
	}
	return out
}
