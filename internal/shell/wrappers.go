package shell

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// wrapper is the grammar of a program that runs another command.
type wrapper struct {
	values  string   // short options that take a value (-u root, -uroot)
	long    []string // long options that take a value (--user root, --user=root)
	scripts string   // short options whose value is a shell script (su -c, flock -c)
	split   string   // short option whose value is split into words that run (env -S)
	skip    int      // operands before the command (timeout's duration, chroot's directory)
	assigns bool     // NAME=value operands before the command (env, sudo)
	input   bool     // xargs: appends the arguments it reads
	joins   bool     // watch: joins its operands into a script for sh -c
	user    bool     // su: its operands are a user and the shell's arguments, not a command
	chdir   string   // short options whose value is the directory the command runs in (env -C, sudo -D)
}

var wrappers = map[string]wrapper{
	"sudo": {values: "CDghprRtTUu", long: []string{"--user", "--group", "--host", "--prompt", "--chdir", "--chroot",
		"--close-from", "--role", "--type", "--command-timeout", "--other-user"}, assigns: true, chdir: "D"},
	"doas":       {values: "Cu"},
	"env":        {values: "uC", long: []string{"--unset", "--chdir", "--split-string"}, split: "S", assigns: true, chdir: "C"},
	"nice":       {values: "n", long: []string{"--adjustment"}},
	"nohup":      {},
	"setsid":     {},
	"command":    {},
	"builtin":    {},
	"exec":       {values: "a"},
	"time":       {values: "fo", long: []string{"--format", "--output"}},
	"timeout":    {values: "sk", long: []string{"--signal", "--kill-after"}, skip: 1},
	"stdbuf":     {values: "ioe", long: []string{"--input", "--output", "--error"}},
	"ionice":     {values: "cnp", long: []string{"--class", "--classdata", "--pid"}},
	"chroot":     {long: []string{"--userspec", "--groups"}, skip: 1},
	"flock":      {values: "wE", long: []string{"--timeout", "--conflict-exit-code", "--command"}, scripts: "c", skip: 1},
	"su":         {values: "sgG", long: []string{"--shell", "--group", "--supp-group", "--command"}, scripts: "c", user: true},
	"runuser":    {values: "sgGu", long: []string{"--shell", "--group", "--supp-group", "--user", "--command"}, scripts: "c", user: true},
	"xargs":      {values: "adEILnPs", long: []string{"--arg-file", "--delimiter", "--eof", "--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}, input: true},
	"watch":      {values: "nd", long: []string{"--interval", "--differences"}, joins: true},
	"busybox":    {},
	"unbuffer":   {},
	"torsocks":   {},
	"taskset":    {skip: 1},
	"caffeinate": {values: "tw"},
}

// interpreters run a script file they are given.
var interpreters = map[string]bool{"python": true, "python3": true, "python2": true, "perl": true, "ruby": true, "node": true,
	"php": true, "lua": true, "Rscript": true, "deno": true, "bun": true, "tclsh": true}

// shells run a script: -c SCRIPT, a script file, or their input.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true,
	"ash": true, "yash": true, "rbash": true, "posh": true, "ksh93": true, "fish": true, "csh": true, "tcsh": true}

var assignWord = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// assignName is a variable's name.
var assignName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// command walks one simple command: it unwraps what runs another command
// and records what runs.
func (w *walker) command(cmd Command, s *syntax.Stmt, depth int) error {
	if len(cmd.Args) == 0 {
		return nil
	}
	if cmd.Via == nil {
		cmd.Via = append([]string(nil), w.via...)
	}
	if depth > maxDepth {
		w.unresolved("commands wrapped more than %d deep", maxDepth)
		return nil
	}
	first := cmd.Args[0]
	if !first.Known || first.Glob {
		w.add(cmd)
		w.unresolved("the command name %s is decided only when it runs", first.Text)
		return nil
	}
	name := path.Base(first.Text)
	if w.writes(first) {
		w.add(cmd)
		w.unresolved("%s is a program the command itself writes: what it runs is decided only when it runs", first.Text)
		return nil
	}
	if interpreters[name] {
		for _, a := range cmd.Args[1:] {
			if w.writes(a) {
				w.unresolved("%s runs %s, a script the command itself writes", name, a.Text)
			}
		}
	}
	if name == "tee" {
		for _, a := range cmd.Args[1:] {
			if a.Known && !strings.HasPrefix(a.Text, "-") {
				w.wrote(a.Text)
			}
		}
	}
	if value, ok := w.aliases[first.Text]; ok && len(w.via) < maxDepth {
		return w.alias(cmd, value, depth)
	}
	if spec, ok := wrappers[name]; ok {
		return w.unwrap(cmd, name, spec, depth)
	}
	w.add(cmd)
	w.assigned(cmd, depth)
	args := cmd.Args[1:]
	switch {
	case shells[name]:
		w.shell(cmd, name, depth)
	case name == "eval":
		w.joined(cmd, args, "eval", depth)
	case name == "source" || name == ".":
		if len(args) > 0 {
			w.scriptFile(cmd, name, args[0], depth)
		}
	case name == "find":
		w.find(cmd, depth)
	case name == "cd" || name == "pushd":
		w.cd(cmd, args)
	case name == "read" || name == "getopts" || name == "printf" && len(args) > 1 && args[0].Text == "-v":
		for _, a := range args {
			if a.Known && assignName.MatchString(a.Text) {
				w.setVar(a.Text, nil) // set from the input: decided only when it runs
			}
		}
	case name == "git":
		w.gitAliases(cmd, args, depth)
	case name == "trap":
		w.trap(args, depth)
	case name == "mapfile" || name == "readarray":
		w.callback(cmd, args, depth)
	case name == "parallel":
		w.parallel(cmd, args, depth)
	case name == "alias":
		for _, a := range args {
			if n, v, ok := strings.Cut(a.Text, "="); ok && a.Known {
				w.aliases[n] = v
			} else if ok {
				w.unresolved("the alias %s is decided only when it runs", a.Text)
			}
		}
	default:
		w.guessed(cmd, depth)
	}
	return nil
}

// unwrap strips a wrapper and its options, and walks what it runs.
func (w *walker) unwrap(cmd Command, name string, spec wrapper, depth int) error {
	inner := cmd
	inner.Via = append(append([]string(nil), cmd.Via...), name)
	operands := w.options(cmd.Args[1:], name, spec, &inner, depth)
	for n := 0; n < spec.skip && len(operands) > 0; n++ {
		operands = operands[1:]
	}
	if spec.scripts != "" && len(operands) > 1 && operands[0].Known && (operands[0].Text == "-c" || operands[0].Text == "--command") {
		w.runScript(operands[1], name+" -c", depth) // flock FILE -c SCRIPT
		return nil
	}
	for spec.assigns && len(operands) > 0 && operands[0].Known && assignWord.MatchString(operands[0].Text) {
		inner.Assigns = append(inner.Assigns, operands[0].Text)
		operands = operands[1:]
	}
	inner.Args = append([]Word(nil), operands...)
	if len(inner.Args) == 0 && len(inner.Redirs) > 0 && !spec.user && name != "sudo" && name != "doas" {
		inner.Args = []Word{Lit(":")} // exec > file: every later command writes there
		w.add(inner)
		return nil
	}
	if spec.input {
		if len(inner.Args) == 0 {
			inner.Args = []Word{Lit("echo")}
		}
		inner.Args = append(inner.Args, Word{Text: "<arguments xargs reads>"})
	}
	if spec.user {
		// su permutes its arguments: options may follow the user.
		for rest := operands; len(rest) > 0; {
			if rest = w.options(rest, name, spec, &inner, depth); len(rest) > 0 {
				rest = rest[1:]
			}
		}
		if !slices.ContainsFunc(cmd.Args[1:], func(a Word) bool {
			t := a.Text
			return a.Known && (strings.HasPrefix(t, "--command") || strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsRune(t[1:], 'c'))
		}) {
			w.stdinScript(cmd, name, depth) // a shell with no script reads its input: a pipe, a here-string
		}
		return nil
	}
	if len(inner.Args) == 0 && (name == "sudo" || name == "doas") {
		w.stdinScript(cmd, name, depth) // sudo -s, sudo -i: a shell reading its input
		return nil
	}
	if spec.joins {
		w.joined(cmd, inner.Args, name, depth)
		return nil
	}
	return w.command(inner, nil, depth+1)
}

// options reads a wrapper's options (-u root, -uroot, --user root,
// --user=root, combined -Eu root, -- to end them), applies those that
// change what runs (a directory, a script, a split string), and returns
// the operands.
func (w *walker) options(args []Word, name string, spec wrapper, inner *Command, depth int) []Word {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Known || !strings.HasPrefix(a.Text, "-") || a.Text == "-" {
			return args[i:]
		}
		if a.Text == "--" {
			return args[i+1:]
		}
		value := func() (Word, bool) { // the option's value: the next word
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return Word{}, false
		}
		if long, _, hasEq := strings.Cut(a.Text, "="); strings.HasPrefix(a.Text, "--") {
			if hasEq {
				w.option(name, spec, long, Lit(a.Text[len(long)+1:]), inner, depth)
			} else if contains(spec.long, long) {
				if v, ok := value(); ok {
					w.option(name, spec, long, v, inner, depth)
				}
			}
			continue
		}
		for j := 1; j < len(a.Text); j++ {
			c := a.Text[j]
			if !strings.ContainsRune(spec.values+spec.scripts+spec.split+spec.chdir, rune(c)) {
				continue
			}
			v, ok := Lit(a.Text[j+1:]), j+1 < len(a.Text)
			if !ok {
				v, ok = value()
			}
			if ok {
				w.option(name, spec, "-"+string(c), v, inner, depth)
			}
			break // the rest of the word was the value
		}
	}
	return nil
}

// option applies one option's value: a directory the command runs in, a
// script the wrapper runs, a string it splits into words.
func (w *walker) option(name string, spec wrapper, opt string, v Word, inner *Command, depth int) {
	short := len(opt) == 2
	switch {
	case opt == "--chdir" && spec.chdir != "", short && strings.IndexByte(spec.chdir, opt[1]) >= 0:
		inner.Dirs = append(append([]Word(nil), inner.Dirs...), v)
	case opt == "--command" && spec.scripts != "", short && strings.IndexByte(spec.scripts, opt[1]) >= 0:
		w.runScript(v, name+" "+opt, depth)
	case opt == "--split-string" && spec.split != "", short && strings.IndexByte(spec.split, opt[1]) >= 0:
		w.splitString(inner, v)
	}
}

// splitString is env -S: its value is split into words that go before
// the command's operands.
func (w *walker) splitString(inner *Command, v Word) {
	if !v.Known {
		w.unresolved("env -S splits %s, decided only when it runs", v.Text)
		return
	}
	sub, err := Parse(v.Text, w.cfg)
	if err != nil || len(sub.Commands) != 1 || len(sub.Unresolved) > 0 {
		w.unresolved("env -S %q cannot be read as one command", v.Text)
		return
	}
	w.add(Command{Args: sub.Commands[0].Args, Via: append(append([]string(nil), inner.Via...), "env -S"),
		Pipeline: inner.Pipeline, Stage: inner.Stage, Dirs: inner.Dirs})
}

// shell walks sh/bash/zsh: the -c script, a script file, or the script
// it reads from its input.
func (w *walker) shell(cmd Command, name string, depth int) {
	args := cmd.Args[1:]
	hasC := false
	var operands []Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.Text
		if !a.Known || !(strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+")) || t == "-" || t == "+" {
			operands = args[i:]
			break
		}
		if t == "--" {
			operands = args[i+1:]
			break
		}
		if strings.HasPrefix(t, "--") {
			if t == "--rcfile" || t == "--init-file" {
				i++
			}
			continue
		}
		for _, c := range t[1:] {
			switch c {
			case 'c':
				hasC = true
			case 'o', 'O':
				i++ // -o pipefail, -O extglob
			}
		}
	}
	switch {
	case hasC:
		if len(operands) > 0 {
			w.runScript(operands[0], name+" -c", depth)
		}
	case len(operands) > 0:
		w.scriptFile(cmd, name, operands[0], depth)
	default:
		w.stdinScript(cmd, name, depth)
	}
}

// runScript walks a script given as a word: a script from a value known
// only at run time is unresolved.
func (w *walker) runScript(script Word, via string, depth int) {
	if !script.Known {
		w.unresolved("%s runs %s, a script decided only when it runs", via, script.Text)
		return
	}
	saved, savedVars, savedIn := w.vars, w.dirs, w.inPipe
	w.vars, w.inPipe = map[string]*string{}, false // a new shell: only exported variables, and we do not know them
	err := w.script(script.Text, depth+1, append(append([]string(nil), w.via...), via))
	w.vars, w.dirs, w.inPipe = saved, savedVars, savedIn
	if err != nil {
		w.unresolved("%s: %v", via, err)
	}
}

// joined runs its words joined by blanks as a script (eval, watch).
func (w *walker) joined(cmd Command, args []Word, via string, depth int) {
	texts := make([]string, 0, len(args))
	for _, a := range args {
		if !a.Known {
			w.unresolved("%s runs %s, decided only when it runs", via, a.Text)
			return
		}
		texts = append(texts, a.Text)
	}
	savedIn := w.inPipe
	w.inPipe = false
	err := w.script(strings.Join(texts, " "), depth+1, append(append([]string(nil), cmd.Via...), via))
	w.inPipe = savedIn
	if err != nil {
		w.unresolved("%s: %v", via, err)
	}
}

// scriptFile: a shell or source reading a file. A file is not read (what
// it holds is not the command line's), but one that another command
// writes (<(curl …)), or standard input, is what that command or the
// pipe says.
func (w *walker) scriptFile(cmd Command, name string, f Word, depth int) {
	switch {
	case f.Subst || !f.Known || w.writes(f):
		w.unresolved("%s runs %s, a script that another command writes or that is decided only when it runs", name, f.Text)
	case f.Text == "/dev/stdin" || f.Text == "-" || strings.HasPrefix(f.Text, "/dev/fd/") || strings.HasPrefix(f.Text, "/proc/self/fd/"):
		w.stdinScript(cmd, name, depth)
	}
}

// stdinScript: a shell reading its script from its input: a here-string
// or here-document is walked; a pipe or a substituted file is unresolved.
func (w *walker) stdinScript(cmd Command, name string, depth int) {
	for _, r := range cmd.Redirs {
		switch r.Op {
		case "<<<", "<<", "<<-":
			w.runScript(r.Target, name+" "+r.Op, depth)
			return
		case "<":
			if r.Target.Subst || !r.Target.Known {
				w.unresolved("%s reads its script from %s, which another command writes", name, r.Target.Text)
			}
			return
		}
	}
	if cmd.Stage > 0 {
		w.unresolved("%s reads its script from a pipe: what the command before it prints", name)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
