package shell

import (
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
			w.out.Commands = append(w.out.Commands, del)
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

// cd records the directory later commands run in.
func (w *walker) cd(args []Word) {
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
	default:
		w.dirs = append(w.dirs, args[0])
	}
}
