package prebuilt

import (
	"path"
	"regexp"
	"strings"
)

// shellWords splits a shell command into its pipelines, each a list of
// simple commands, each a list of words with quotes removed: enough to
// see `rm -rf /` behind `"rm" -r -f -- /`, `sudo /bin/rm -fr /` or
// `cd x && rm -rf ~`. It is not a shell: what it cannot read (an unclosed
// quote) stays in the last word, and the deny patterns also run on the
// raw text.
func shellWords(cmd string) [][][]string {
	var t tokenizer
	for i := 0; i < len(cmd); i++ {
		ch := cmd[i]
		switch {
		case ch == '\\' && i+1 < len(cmd):
			i++
			if cmd[i] != '\n' {
				t.add(cmd[i : i+1])
			}
		case ch == '\'':
			j := strings.IndexByte(cmd[i+1:], '\'')
			if j < 0 {
				j = len(cmd) - i - 1
			}
			t.add(cmd[i+1 : i+1+j])
			i += j + 1
		case ch == '"':
			i = t.double(cmd, i+1)
		case ch == ' ' || ch == '\t':
			t.endWord()
		case ch == '|' && i+1 < len(cmd) && cmd[i+1] == '|', ch == '&' && i+1 < len(cmd) && cmd[i+1] == '&':
			i++
			t.endPipeline()
		case ch == '|':
			t.endCommand()
		case ch == ';' || ch == '\n' || ch == '&' || ch == '(' || ch == ')' || ch == '`' || ch == '{' && !t.inWord || ch == '}' && !t.inWord:
			t.endPipeline()
		case ch == '$' && i+1 < len(cmd) && cmd[i+1] == '(':
			i++
			t.endPipeline() // a command substitution is a command of its own
		default:
			t.add(cmd[i : i+1])
		}
	}
	t.endPipeline()
	return t.pipelines
}

// tokenizer collects shellWords' words, commands and pipelines.
type tokenizer struct {
	pipelines [][][]string
	pipeline  [][]string
	words     []string
	word      strings.Builder
	inWord    bool
}

func (t *tokenizer) add(s string) {
	t.word.WriteString(s)
	t.inWord = true
}

// double reads a double-quoted string from cmd[i:], and returns the index
// of its closing quote.
func (t *tokenizer) double(cmd string, i int) int {
	for ; i < len(cmd) && cmd[i] != '"'; i++ {
		if cmd[i] == '\\' && i+1 < len(cmd) && strings.IndexByte("\"\\$`", cmd[i+1]) >= 0 {
			i++
		}
		t.word.WriteByte(cmd[i])
	}
	t.inWord = true
	return i
}

func (t *tokenizer) endWord() {
	if t.inWord {
		t.words = append(t.words, t.word.String())
		t.word.Reset()
		t.inWord = false
	}
}

func (t *tokenizer) endCommand() {
	t.endWord()
	if len(t.words) > 0 {
		t.pipeline = append(t.pipeline, t.words)
		t.words = nil
	}
}

func (t *tokenizer) endPipeline() {
	t.endCommand()
	if len(t.pipeline) > 0 {
		t.pipelines = append(t.pipelines, t.pipeline)
		t.pipeline = nil
	}
}

// program returns a simple command's program name (its base name) and
// arguments, past the wrappers that run another command (sudo, env,
// nohup, time, command, exec, nice, xargs) and variable assignments.
func program(words []string) (string, []string) {
	for len(words) > 0 {
		w := words[0]
		name := path.Base(w)
		switch {
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-") && !strings.Contains(strings.SplitN(w, "=", 2)[0], "/"):
			words = words[1:] // VAR=value
		case name == "sudo" || name == "doas" || name == "env" || name == "nohup" || name == "time" ||
			name == "command" || name == "exec" || name == "nice" || name == "xargs" || name == "builtin":
			words = words[1:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") { // the wrapper's own flags
				words = words[1:]
			}
		default:
			return name, words[1:]
		}
	}
	return "", nil
}

// shellRule is a built-in deny rule over a simple command or a pipeline.
type shellRule struct {
	name  string
	check func(pipeline [][]string) bool
}

var builtinShellRules = []shellRule{
	{"rm -rf on /, ~, . or *", rmRoot},
	{"chmod or chown -R on /, ~, . or *", chmodRoot},
	{"git push --force", gitForcePush},
	{curlRuleName, curlPipeShell},
	{"mkfs, or dd onto a device", diskWipe},
}

// rmRoot: rm, recursive, on a target whose loss is the whole machine, the
// home or the work directory.
func rmRoot(pipeline [][]string) bool {
	for _, words := range pipeline {
		name, args := program(words)
		if name != "rm" {
			continue
		}
		recursive, dashdash := false, false
		var targets []string
		for _, a := range args {
			switch {
			case dashdash || !strings.HasPrefix(a, "-") || a == "-":
				targets = append(targets, a)
			case a == "--":
				dashdash = true
			case a == "--recursive", a == "--no-preserve-root":
				recursive = true
			case !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "rR"):
				recursive = true
			}
		}
		if !recursive {
			continue
		}
		for _, t := range targets {
			if dangerousTarget(t) {
				return true
			}
		}
	}
	return false
}

func dangerousTarget(t string) bool {
	t = strings.TrimRight(t, "/")
	switch strings.TrimSuffix(t, "/*") {
	case "", "~", "$HOME", "${HOME}", ".", "..", "*", ".*", "/*":
		return true
	}
	// A top-level system directory (/etc, /usr, …) is the machine too.
	return strings.HasPrefix(t, "/") && !strings.Contains(t[1:], "/") && t != "/tmp"
}

// chmodRoot: chmod, chown or chgrp, recursive, on such a target (the
// first argument is the mode or the owner).
func chmodRoot(pipeline [][]string) bool {
	for _, words := range pipeline {
		name, args := program(words)
		if name != "chmod" && name != "chown" && name != "chgrp" {
			continue
		}
		recursive := false
		var rest []string
		for _, a := range args {
			switch {
			case a == "-R" || a == "--recursive" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "R"):
				recursive = true
			case !strings.HasPrefix(a, "-"):
				rest = append(rest, a)
			}
		}
		if !recursive || len(rest) < 2 {
			continue
		}
		for _, t := range rest[1:] {
			if dangerousTarget(t) {
				return true
			}
		}
	}
	return false
}

func gitForcePush(pipeline [][]string) bool {
	for _, words := range pipeline {
		name, args := program(words)
		if name != "git" {
			continue
		}
		i := 0
		for i < len(args) && strings.HasPrefix(args[i], "-") { // git's own options
			if args[i] == "-C" || args[i] == "-c" || args[i] == "--git-dir" || args[i] == "--work-tree" {
				i++
			}
			i++
		}
		if i >= len(args) || args[i] != "push" {
			continue
		}
		for _, a := range args[i+1:] {
			switch {
			case a == "--force", a == "-f", strings.HasPrefix(a, "--force-with-lease"), strings.HasPrefix(a, "--force-if-includes"), a == "--mirror":
				return true
			case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "f"):
				return true // -fu and the like
			case strings.HasPrefix(a, "+"):
				return true // a +refspec forces that ref
			}
		}
	}
	return false
}

var (
	downloaders = map[string]bool{"curl": true, "wget": true, "fetch": true, "iwr": true, "Invoke-WebRequest": true}
	shells      = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true,
		"python": true, "python3": true, "perl": true, "ruby": true, "node": true, "iex": true, "source": true, ".": true}
)

func curlPipeShell(pipeline [][]string) bool {
	fetched := false
	for _, words := range pipeline {
		name, _ := program(words)
		if downloaders[name] {
			fetched = true
		} else if fetched && shells[name] {
			return true
		}
	}
	return false
}

const curlRuleName = "a download piped into a shell (curl … | sh)"

// curlSubst catches the forms that are not a pipe: sh -c "$(curl …)",
// bash <(curl …).
var curlSubst = regexp.MustCompile(`\b(?:ba|z|da|k)?sh\b[^|;&]*(?:\$\(|<\(|` + "`" + `)\s*(?:curl|wget)\b`)

func diskWipe(pipeline [][]string) bool {
	for _, words := range pipeline {
		name, args := program(words)
		if strings.HasPrefix(name, "mkfs") {
			return true
		}
		if name == "dd" {
			for _, a := range args {
				if strings.HasPrefix(a, "of=/dev/") && !strings.HasPrefix(a, "of=/dev/null") {
					return true
				}
			}
		}
	}
	return false
}

// deniedCommand returns the name of the rule cmd breaks, or "".
func deniedCommand(cmd string, builtins bool, deny []*regexp.Regexp, denySrc []string) string {
	if builtins {
		if curlSubst.MatchString(cmd) {
			return curlRuleName
		}
		for _, p := range shellWords(cmd) {
			for _, r := range builtinShellRules {
				if r.check(p) {
					return r.name
				}
			}
		}
	}
	for i, re := range deny {
		if re.MatchString(cmd) {
			return "the pattern " + denySrc[i]
		}
	}
	return ""
}
