package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// alias walks a command whose name is an alias the script defined (zsh,
// and bash with expand_aliases, expand them): the alias's text with the
// command's arguments after it.
func (w *walker) alias(cmd Command, value string, depth int) error {
	text := value
	for _, a := range cmd.Args[1:] {
		if !a.Known {
			w.unresolved("the alias %s runs with %s, decided only when it runs", cmd.Args[0].Text, a.Text)
			return nil
		}
		q, err := syntax.Quote(a.Text, syntax.LangBash)
		if err != nil {
			w.unresolved("the argument %q of the alias %s cannot be quoted", a.Text, cmd.Args[0].Text)
			return nil
		}
		text += " " + q
	}
	saved := w.aliases
	w.aliases = map[string]string{} // an alias is not expanded again within itself
	for k, v := range saved {
		if k != cmd.Args[0].Text {
			w.aliases[k] = v
		}
	}
	err := w.script(text, depth+1, append(append([]string(nil), cmd.Via...), "alias "+cmd.Args[0].Text))
	w.aliases = saved
	return err
}

// find: the commands of -exec, -execdir, -ok and -okdir, with {} as
// each starting point (a found path is one of them or below), and
// -delete as rm -r of the starting points.
func (w *walker) find(cmd Command, depth int) {
	args := cmd.Args[1:]
	i := 0
	for i < len(args) && args[i].Known && (args[i].Text == "-H" || args[i].Text == "-L" || args[i].Text == "-P") {
		i++
	}
	var starts []Word
	for ; i < len(args) && !(args[i].Known && (strings.HasPrefix(args[i].Text, "-") || args[i].Text == "(" || args[i].Text == "!")); i++ {
		starts = append(starts, args[i])
	}
	if len(starts) == 0 {
		starts = []Word{Lit(".")}
	}
	for ; i < len(args); i++ {
		switch args[i].Text {
		case "-delete":
			del := Command{Args: append([]Word{Lit("rm"), Lit("-r")}, starts...), Via: append(append([]string(nil), cmd.Via...), "find -delete"),
				Pipeline: cmd.Pipeline, Stage: cmd.Stage, Dirs: cmd.Dirs}
			w.add(del)
		case "-exec", "-execdir", "-ok", "-okdir":
			op := args[i].Text
			j := i + 1
			for j < len(args) && !(args[j].Known && (args[j].Text == ";" || args[j].Text == "+")) {
				j++
			}
			for _, start := range starts {
				inner := Command{Via: append(append([]string(nil), cmd.Via...), "find "+op), Pipeline: cmd.Pipeline, Stage: cmd.Stage, Dirs: cmd.Dirs}
				for _, a := range args[i+1 : j] {
					if a.Known && strings.Contains(a.Text, "{}") {
						a = Word{Text: strings.ReplaceAll(a.Text, "{}", start.Text), Known: start.Known}
					}
					inner.Args = append(inner.Args, a)
				}
				if err := w.command(inner, nil, depth+1); err != nil {
					w.unresolved("%v", err)
				}
			}
			i = j
		}
	}
}

// cd records the directory later commands run in. With CDPATH set by
// the script, a relative name may be found in any of its directories:
// decided only when it runs.
func (w *walker) cd(cmd Command, args []Word) {
	_, cdpath := w.vars["CDPATH"]
	cdpath = cdpath || slicesHasPrefix(cmd.Assigns, "CDPATH=")
	for len(args) > 0 && args[0].Known && strings.HasPrefix(args[0].Text, "-") && args[0].Text != "-" {
		args = args[1:] // -P, -L
	}
	switch {
	case len(args) == 0:
		if w.cfg.Home != "" {
			w.dirs = append(w.dirs, Lit(w.cfg.Home))
		} else {
			w.dirs = append(w.dirs, Word{Text: "~"})
		}
	case args[0].Text == "-" || args[0].Glob:
		w.dirs = append(w.dirs, Word{Text: args[0].Text})
	case cdpath && !strings.HasPrefix(args[0].Text, "/") && !strings.HasPrefix(args[0].Text, "."):
		w.dirs = append(w.dirs, Word{Text: "$CDPATH/" + args[0].Text})
	default:
		w.dirs = append(w.dirs, args[0])
	}
}

func slicesHasPrefix(list []string, prefix string) bool {
	for _, x := range list {
		if strings.HasPrefix(x, prefix) {
			return true
		}
	}
	return false
}

// trap: its action is a script the shell runs on a signal or at exit.
func (w *walker) trap(args []Word, depth int) {
	for len(args) > 0 && args[0].Known && strings.HasPrefix(args[0].Text, "-") && args[0].Text != "-" {
		if args[0].Text == "--" {
			args = args[1:]
			break
		}
		args = args[1:] // -l, -p, -P
	}
	if len(args) > 0 && args[0].Text != "-" {
		w.runScript(args[0], "trap", depth)
	}
}

// callback: mapfile -C CMD evaluates CMD with each line it reads.
func (w *walker) callback(cmd Command, args []Word, depth int) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Known && strings.HasPrefix(a.Text, "-") && strings.Contains(a.Text, "C") {
			v := Lit(a.Text[strings.IndexByte(a.Text, 'C')+1:])
			if v.Text == "" && i+1 < len(args) {
				v = args[i+1]
			}
			w.runScript(v, cmd.Name()+" -C", depth)
			return
		}
	}
}

// parallel runs its command (through a shell) with each input after :::
// in place of {} or after it; with no ::: it runs what it reads, which is
// decided only when it runs.
func (w *walker) parallel(cmd Command, args []Word, depth int) {
	i := 0
	for i < len(args) && args[i].Known && strings.HasPrefix(args[i].Text, "-") && !strings.HasPrefix(args[i].Text, ":::") {
		i++ // its options (their values are not told apart: the guess below judges them too)
	}
	var command, inputs []Word
	sep := -1
	for j := i; j < len(args); j++ {
		if args[j].Known && (args[j].Text == ":::" || args[j].Text == "::::" || args[j].Text == ":::+") {
			sep = j
			break
		}
	}
	if sep < 0 {
		w.unresolved("parallel runs commands made of what it reads, decided only when it runs")
		return
	}
	command = args[i:sep]
	for _, a := range args[sep+1:] {
		if !a.Known || a.Text == "::::" {
			w.unresolved("parallel runs with %s, decided only when it runs", a.Text)
			return
		}
		if !strings.HasPrefix(a.Text, ":::") {
			inputs = append(inputs, a)
		}
	}
	for _, in := range inputs {
		var words []Word
		replaced := false
		for _, c := range command {
			if c.Known && strings.Contains(c.Text, "{") {
				c = Lit(strings.NewReplacer("{}", in.Text, "{.}", in.Text, "{/}", path.Base(in.Text), "{//}", path.Dir(in.Text)).Replace(c.Text))
				replaced = true
			}
			words = append(words, c)
		}
		if !replaced {
			words = append(words, in)
		}
		if len(command) == 0 {
			words = []Word{in} // the inputs are the commands
		}
		w.joined(cmd, words, "parallel", depth)
	}
}

// gitAliases: git -c alias.NAME=VALUE defines a command the same line
// may run: "!script" runs a shell script, anything else git arguments.
func (w *walker) gitAliases(cmd Command, args []Word, depth int) {
	for i := 0; i+1 < len(args); i++ {
		if !args[i].Known || args[i].Text != "-c" {
			continue
		}
		v := args[i+1]
		key, value, ok := strings.Cut(v.Text, "=")
		if !strings.HasPrefix(strings.ToLower(key), "alias.") {
			w.embeddedWord(Lit(value), append(append([]string(nil), cmd.Via...), "git -c "+key), depth) // core.pager, core.sshCommand …
			continue
		}
		switch {
		case !v.Known:
			w.unresolved("git -c %s defines an alias decided only when it runs", v.Text)
		case !ok:
		case strings.HasPrefix(value, "!"):
			w.runScript(Lit(value[1:]), "git alias", depth)
		default:
			w.joined(cmd, []Word{Lit("git"), Lit(value)}, "git alias", depth)
		}
	}
}
