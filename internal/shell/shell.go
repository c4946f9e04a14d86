// Package shell reads a shell command as the shell will run it, with
// mvdan.cc/sh/v3/syntax (the parser of shfmt), and lists every simple
// command that will run: through pipelines, lists, subshells, blocks,
// functions, command and process substitutions, `bash -c`, `eval` of a
// literal, here-strings and here-documents fed to a shell, and wrappers
// that run another command (sudo, env, nice, timeout, xargs, find -exec…).
//
// What cannot be known before the command runs, in a position that
// decides what runs (a command name from $(…) or $VAR, a script from a
// variable, a shell reading a piped or substituted script), is listed in
// Script.Unresolved: a policy refuses or asks, never allows. It judges
// the text it is given; what a program does once running (a script file
// it reads, a program that deletes files on its own) is not seen.
package shell

import (
	"fmt"
	"path"
	"reflect"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Config is what the walk needs to resolve words.
type Config struct {
	// Home is the home directory "~" and $HOME expand to; "": they stay
	// unknown.
	Home string
}

// Command is one simple command that will run.
type Command struct {
	// Args is the command and its arguments, past the wrappers and the
	// assignments before it: Args[0] is the program.
	Args []Word
	// Assigns are the NAME=value words before it (GIT_TRACE=1 git push).
	Assigns []string
	// Via names what it was found in, outermost first: "sudo", "bash -c",
	// "eval", "$(…)", "xargs", "find -exec".
	Via []string
	// Pipeline numbers the pipeline the command is part of, and Stage its
	// place in it (0: the first, reading no pipe).
	Pipeline, Stage int
	// Redirs are its redirections (> file, < file, 2>&1).
	Redirs []Redir
	// Dirs are the working directories it may run in, set by a cd or
	// pushd before it in the script (empty: the caller's; a Word that is
	// not Known: a directory decided at run time).
	Dirs []Word
	// Guess is true for a command read from the arguments of a program
	// that may or may not run it (strace rm -rf /, ssh host 'rm -rf /',
	// the strings of python -c code): a deny rule judges it, but what
	// cannot be resolved in it is not counted (it may be no command).
	Guess bool
}

// Redir is one redirection: its operator (">", ">>", "<", "<<<") and
// target.
type Redir struct {
	Op     string
	Target Word
}

// Name is the program's base name ("rm" for "/bin/rm"), or "" when the
// name is not known before the command runs.
func (c Command) Name() string {
	if len(c.Args) == 0 || !c.Args[0].Known {
		return ""
	}
	return path.Base(c.Args[0].Text)
}

// Script is what a command line will run.
type Script struct {
	Commands []Command
	// Unresolved says, for each place where what runs is decided only at
	// run time, what it is. Not empty: the script cannot be judged in
	// full.
	Unresolved []string
}

// parsers are reused: a Parser allocates buffers that Parse resets.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// MaxLen is the longest command Parse reads: a command line past it (the
// kernel takes 128 KB in one argument) is an error, not a long wait.
const MaxLen = 256 << 10

// maxMessage bounds one unresolved message.
const maxMessage = 300

// maxNesting bounds the brackets one within another ($(, (, {): the
// parser's time grows with it, and no command needs hundreds.
const maxNesting = 200

// nesting is the deepest run of open brackets in src, quotes not told
// apart (a bound, not a parse).
func nesting(src string) int {
	d, top := 0, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '{':
			if d++; d > top {
				top = d
			}
		case ')', '}':
			if d > 0 {
				d--
			}
		}
	}
	return top
}

// maxDepth bounds the shells, evals and wrappers within one another.
const maxDepth = 16

// Parse reads src as bash does, and returns what it will run. A parse
// error is an error: the caller refuses the command.
func Parse(src string, cfg Config) (*Script, error) {
	if len(src) > MaxLen {
		return nil, fmt.Errorf("the command is %d bytes long, more than the %d a policy reads", len(src), MaxLen)
	}
	w := &walker{cfg: cfg, out: &Script{}, vars: map[string]*string{}, aliases: map[string]string{}}
	if err := w.script(src, 0, nil); err != nil {
		return nil, err
	}
	return w.out, nil
}

// ParseArgv reads a command given as a list of arguments (no shell reads
// them: no quotes, no globs), as a tool that runs argv directly does:
// ["bash", "-lc", "rm -rf ~"] runs the script.
func ParseArgv(argv []string, cfg Config) (*Script, error) {
	n := 0
	for _, a := range argv {
		n += len(a) + 1
	}
	if n > MaxLen || len(argv) > maxWords {
		return nil, fmt.Errorf("the command has %d arguments and %d bytes, more than a policy reads (%d words, %d bytes)", len(argv), n, maxWords, MaxLen)
	}
	w := &walker{cfg: cfg, out: &Script{}, vars: map[string]*string{}, aliases: map[string]string{}}
	words := make([]Word, len(argv))
	for i, a := range argv {
		words[i] = Lit(a)
	}
	if err := w.command(Command{Args: words}, nil, 0); err != nil {
		return nil, err
	}
	return w.out, nil
}

// walker walks a parsed script; nested scripts share its output.
type walker struct {
	cfg     Config
	out     *Script
	vars    map[string]*string // variables the script set: nil value when not one known literal
	aliases map[string]string  // aliases the script defined
	dirs    []Word             // directories a cd moved to
	split   bool               // the last word had an unquoted variable (split on blanks)
	pipes   int                // pipelines numbered so far
	pipe    int                // the pipeline being walked
	stage   int
	inPipe  bool // walking a stage of a pipeline
	words   int  // words made so far (bounded: maxWords)
	via     []string
	depth   int
	guess   bool            // walking a Guess: nothing is unresolved
	tooMany bool            // the words bound was reported
	src     string          // the script being walked
	written map[string]bool // files the script writes (> file, tee file): a script run from one is its own
	// guessBytes is the text guesses parsed so far (bounded: maxGuessBytes).
	guessBytes int
}

// wrote records a file the script writes.
func (w *walker) wrote(f string) {
	if w.written == nil {
		w.written = map[string]bool{}
	}
	w.written[path.Clean(f)] = true
}

// writes reports whether the script wrote the file f before.
func (w *walker) writes(f Word) bool {
	return f.Known && w.written[path.Clean(f.Text)]
}

// add records a command that will run.
func (w *walker) add(cmd Command) {
	cmd.Guess = cmd.Guess || w.guess
	w.out.Commands = append(w.out.Commands, cmd)
}

func (w *walker) unresolved(format string, args ...any) {
	if w.guess {
		return // an argument that may be no command at all
	}
	msg := fmt.Sprintf(format, args...)
	if len(msg) > maxMessage {
		msg = strings.ToValidUTF8(msg[:maxMessage], "") + "…" // a reason, not a copy of a huge command
	}
	if len(w.via) > 0 {
		msg += " (in " + strings.Join(w.via, " → ") + ")"
	}
	w.out.Unresolved = append(w.out.Unresolved, msg)
}

// script parses src and walks it; via is the wrapper that runs it.
func (w *walker) script(src string, depth int, via []string) error {
	if depth > maxDepth {
		w.unresolved("scripts nested more than %d deep", maxDepth)
		return nil
	}
	p := parsers.Get().(*syntax.Parser)
	if d := nesting(src); d > maxNesting {
		return fmt.Errorf("the command nests brackets %d deep, more than the %d a policy reads", d, maxNesting)
	}
	f, err := p.Parse(strings.NewReader(src), "")
	parsers.Put(p)
	if err != nil {
		return fmt.Errorf("the command cannot be parsed as a shell would: %w", err)
	}
	saved, savedDepth, savedSrc := w.via, w.depth, w.src
	w.via, w.depth, w.src = via, depth, src
	defer func() { w.via, w.depth, w.src = saved, savedDepth, savedSrc }()
	w.stmts(f.Stmts)
	return nil
}

func (w *walker) stmts(list []*syntax.Stmt) {
	for _, s := range list {
		w.stmt(s)
	}
}

// nested walks the statements of a substitution: commands of their own.
func (w *walker) nested(list []*syntax.Stmt, via string) {
	savedVia, savedPipe, savedStage, savedIn := w.via, w.pipe, w.stage, w.inPipe
	w.via = append(append([]string(nil), w.via...), via)
	w.inPipe = false
	w.stmts(list)
	w.via, w.pipe, w.stage, w.inPipe = savedVia, savedPipe, savedStage, savedIn
}

// substs walks the substitutions inside n (a word, a test, arithmetic).
func (w *walker) substs(n syntax.Node) {
	if n == nil || reflect.ValueOf(n).IsNil() { // a nil *Word in the interface
		return
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			w.nested(x.Stmts, "$(…)")
			return false
		case *syntax.ProcSubst:
			w.nested(x.Stmts, x.Op.String()+"…)")
			return false
		}
		return true
	})
}

func (w *walker) stmt(s *syntax.Stmt) {
	if s == nil {
		return
	}
	if s.Cmd == nil && len(s.Redirs) > 0 {
		w.call(&syntax.CallExpr{}, s) // "> file" alone opens the file, as ": > file" does
		return
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		w.call(c, s)
		return
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			w.pipeline(c)
		} else {
			w.stmt(c.X)
			w.stmt(c.Y)
		}
	case *syntax.Block:
		w.stmts(c.Stmts)
	case *syntax.Subshell:
		w.stmts(c.Stmts)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			w.stmts(ic.Cond)
			w.stmts(ic.Then)
		}
	case *syntax.WhileClause:
		w.stmts(c.Cond)
		w.stmts(c.Do)
	case *syntax.ForClause:
		w.substs(c.Loop)
		if wi, ok := c.Loop.(*syntax.WordIter); ok {
			w.loopVar(wi)
		}
		w.stmts(c.Do)
	case *syntax.CaseClause:
		w.substs(c.Word)
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				w.substs(p)
			}
			w.stmts(it.Stmts)
		}
	case *syntax.FuncDecl:
		w.stmt(c.Body) // judged as if called: a name can be called in ways no walk sees
	case *syntax.TimeClause:
		w.stmt(c.Stmt)
	case *syntax.CoprocClause:
		w.stmt(c.Stmt)
	case *syntax.DeclClause:
		ref := c.Variant.Value == "nameref"
		for _, a := range c.Args {
			if a.Naked && a.Name == nil && a.Value != nil {
				if f := a.Value.Lit(); strings.HasPrefix(f, "-") && strings.ContainsAny(f, "ni") {
					ref = true // declare -n r=HOME: $r is $HOME; -i: values evaluated as arithmetic
				}
			}
		}
		for _, a := range c.Args {
			w.assign(a, true)
			if ref && a.Name != nil {
				w.setVar(a.Name.Value, nil)
			}
		}
	default: // arithmetic, tests, let
		w.substs(c)
	}
	for _, r := range s.Redirs {
		w.substs(r.Word)
		w.substs(r.Hdoc)
	}
}

// pipeline walks a | b | c, each stage numbered.
func (w *walker) pipeline(c *syntax.BinaryCmd) {
	var stages []*syntax.Stmt
	var collect func(s *syntax.Stmt)
	collect = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 {
			collect(b.X)
			collect(b.Y)
			return
		}
		stages = append(stages, s)
	}
	collect(c.X)
	collect(c.Y)
	savedPipe, savedStage, savedIn := w.pipe, w.stage, w.inPipe
	w.pipes++
	w.pipe, w.inPipe = w.pipes, true
	for i, s := range stages {
		w.stage = i
		w.stmt(s)
	}
	w.pipe, w.stage, w.inPipe = savedPipe, savedStage, savedIn
}

// loopVar records a for loop's variable: known when it takes one
// literal value.
func (w *walker) loopVar(wi *syntax.WordIter) {
	var vals []Word
	for _, it := range wi.Items {
		vals = append(vals, w.fields(it)...)
	}
	if len(vals) == 1 && vals[0].Known && !vals[0].Glob {
		w.setVar(wi.Name.Value, &vals[0].Text)
	} else {
		w.setVar(wi.Name.Value, nil)
	}
}

// setVar records a variable's value; a second, different value makes
// it unknown (the walk does not follow which branch ran).
func (w *walker) setVar(name string, v *string) {
	if old, set := w.vars[name]; set && (old == nil || v == nil || *old != *v) {
		v = nil
	}
	w.vars[name] = v
}

// assign walks NAME=value; global says it sets the script's variable.
func (w *walker) assign(a *syntax.Assign, global bool) string {
	w.substs(a.Value)
	w.substs(a.Array)
	if a.Name == nil {
		return ""
	}
	var val *string
	text := a.Name.Value + "="
	if a.Value != nil && a.Array == nil && a.Index == nil && !a.Append {
		if r := w.word(a.Value); r.Known {
			val = &r.Text
			text += r.Text
		} else {
			text += r.Text
		}
	}
	if global {
		w.setVar(a.Name.Value, val)
	}
	if val != nil && strings.ContainsAny(*val, "$`") {
		// x='a[$(rm -rf /)]' runs when arithmetic reads $x: its text is
		// judged as a script too.
		w.embeddedWord(Lit(*val), append(append([]string(nil), w.via...), "the value of "+a.Name.Value), w.depth)
	}
	return text
}

// call walks a simple command.
func (w *walker) call(c *syntax.CallExpr, s *syntax.Stmt) {
	if !w.inPipe {
		w.pipes++
		w.pipe, w.stage = w.pipes, 0
	}
	cmd := Command{Pipeline: w.pipe, Stage: w.stage, Dirs: append([]Word(nil), w.dirs...)}
	for _, a := range c.Assigns {
		cmd.Assigns = append(cmd.Assigns, w.assign(a, len(c.Args) == 0))
	}
	for _, r := range s.Redirs {
		w.substs(r.Word)
		w.substs(r.Hdoc)
		red := Redir{Op: r.Op.String()}
		if r.Word != nil {
			red.Target = w.word(r.Word)
		}
		if r.Hdoc != nil {
			red.Target = w.heredoc(r)
		}
		if strings.Contains(red.Op, ">") && red.Target.Known {
			w.wrote(red.Target.Text)
		}
		cmd.Redirs = append(cmd.Redirs, red)
	}
	for _, a := range c.Args {
		cmd.Args = append(cmd.Args, w.fields(a)...)
	}
	if len(cmd.Args) == 0 {
		if len(cmd.Redirs) > 0 {
			cmd.Args = []Word{Lit(":")} // "> file" alone opens the file as ": > file" does
			w.add(cmd)
		}
		return
	}
	if err := w.command(cmd, s, w.depth); err != nil {
		w.unresolved("%v", err)
	}
}

// heredoc is a here-document's body as the command reads it: literal
// when its delimiter is quoted, else expanded like a double-quoted word.
func (w *walker) heredoc(r *syntax.Redirect) Word {
	quoted := r.Word != nil && len(r.Word.Parts) > 0
	if quoted {
		if _, lit := r.Word.Parts[0].(*syntax.Lit); lit && len(r.Word.Parts) == 1 && !strings.Contains(r.Word.Parts[0].(*syntax.Lit).Value, "\\") {
			quoted = false
		}
	}
	if quoted {
		var b strings.Builder
		for _, p := range r.Hdoc.Parts {
			if lit, ok := p.(*syntax.Lit); ok {
				b.WriteString(lit.Value)
			}
		}
		return Lit(b.String())
	}
	return w.word(&syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: r.Hdoc.Parts}}})
}
