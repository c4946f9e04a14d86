package shell

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Word is one argument as the program will receive it.
type Word struct {
	// Text is the word with quotes joined and removed, escapes decoded,
	// "~" and $HOME expanded, and variables the script set to a literal
	// substituted. When Known is false it is the word's source text.
	Text string
	// Known is false when part of the word is decided only when the
	// command runs: a command substitution, a variable the script did not
	// set, arithmetic, a process substitution, or arguments xargs reads.
	Known bool
	// Glob is true when the word has a pattern the shell expands against
	// the file system (an unquoted *, ? or [): Text is the pattern.
	Glob bool
	// Subst is true when the word is a process substitution (<(…)): the
	// program receives the path of another command's output.
	Subst bool
}

// Lit is a word known in advance, as an argv element is.
func Lit(s string) Word { return Word{Text: s, Known: true} }

// maxFields bounds the words one word may expand to (brace expansion):
// {a,b}{a,b}… doubles with each pair.
const maxFields = 1024

// maxWords bounds the words of a whole script, brace expansions
// included: a thousand words of {a,b}… pairs stay small.
const maxWords = 1 << 16

// fields resolves a word into the words the shell will make of it: one,
// or several after brace expansion or splitting a variable's value.
func (w *walker) fields(word *syntax.Word) []Word {
	w.substs(word)
	if w.words > maxWords {
		if !w.tooMany {
			w.tooMany = true
			w.unresolved("the command has more than %d words", maxWords)
		}
		return []Word{{Text: w.source(word)}}
	}
	if syntax.SplitBraces(word) {
		parts, ok := expandBraces(word.Parts, maxFields)
		if !ok {
			w.unresolved("the brace expansion in %q makes more than %d words", w.source(word), maxFields)
			return []Word{{Text: w.source(word)}}
		}
		w.words += len(parts)
		out := make([]Word, 0, len(parts))
		for _, p := range parts {
			out = append(out, w.word(&syntax.Word{Parts: p}))
		}
		return out
	}
	w.words++
	r := w.word(word)
	if !r.Known || !w.split {
		return []Word{r}
	}
	ifs := " \t\n"
	if v, set := w.vars["IFS"]; set {
		if v == nil {
			return []Word{{Text: w.source(word)}} // split on characters decided only when it runs
		}
		ifs = *v
	}
	if ifs == "" || !strings.ContainsAny(r.Text, ifs) {
		return []Word{r}
	}
	var out []Word
	for _, f := range strings.FieldsFunc(r.Text, func(c rune) bool { return strings.ContainsRune(ifs, c) }) {
		out = append(out, Word{Text: f, Known: true, Glob: r.Glob})
	}
	return out
}

// word resolves one word (no brace expansion).
func (w *walker) word(word *syntax.Word) Word {
	w.split = false
	var b strings.Builder
	r := Word{Known: true}
	for i, part := range word.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && strings.HasPrefix(v, "~") {
				v = w.tilde(v, &r)
			}
			if unquotedGlob(v) {
				r.Glob = true
			}
			b.WriteString(unescape(v))
		case *syntax.SglQuoted:
			if p.Dollar {
				b.WriteString(ansiC(p.Value))
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if lit, ok := q.(*syntax.Lit); ok {
					b.WriteString(unescapeDouble(lit.Value))
				} else if s, ok := w.param(q); ok {
					b.WriteString(s)
				} else {
					r.Known = false
				}
			}
		case *syntax.ParamExp:
			if s, ok := w.param(p); ok {
				b.WriteString(s)
				w.split = true
				if strings.ContainsAny(s, "*?[") {
					r.Glob = true // an unquoted expansion is a pattern too: x='/usr/*'; rm -rf $x
				}
			} else {
				r.Known = false
			}
		case *syntax.ExtGlob:
			r.Glob = true
			b.WriteString(p.Op.String() + p.Pattern.Value + ")")
		case *syntax.ProcSubst:
			r.Known, r.Subst = false, true
		default: // $(…), `…`, $((…)), an unexpanded brace
			r.Known = false
		}
	}
	if !r.Known {
		r.Text = w.source(word)
		return r
	}
	r.Text = b.String()
	return r
}

// tilde expands a leading "~" or "~/" to the home directory. "~user",
// "~+" and "~-" depend on the machine or the shell's state: unknown.
func (w *walker) tilde(v string, r *Word) string {
	name, rest, _ := strings.Cut(v, "/")
	if name != "~" {
		r.Known = false
		return v
	}
	if w.cfg.Home == "" {
		r.Known = false
		return v
	}
	if rest == "" && !strings.Contains(v, "/") {
		return w.cfg.Home
	}
	return strings.TrimSuffix(w.cfg.Home, "/") + "/" + rest
}

// param resolves a plain $NAME or ${NAME}: HOME from the config, or a
// variable the script set to one literal value; ok is false otherwise.
func (w *walker) param(part syntax.WordPart) (string, bool) {
	p, ok := part.(*syntax.ParamExp)
	if !ok || p.Param == nil || p.Excl || p.Length || p.Width || p.IsSet || p.Index != nil || p.Slice != nil ||
		p.Repl != nil || p.Exp != nil || p.Names != 0 || p.NestedParam != nil || len(p.Modifiers) > 0 {
		return "", false
	}
	if v, set := w.vars[p.Param.Value]; set {
		if v == nil {
			return "", false
		}
		return *v, true
	}
	if p.Param.Value == "HOME" && w.cfg.Home != "" {
		return w.cfg.Home, true
	}
	return "", false
}

// unquotedGlob reports whether an unquoted literal has a pattern
// character that is not escaped.
func unquotedGlob(v string) bool {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

// unescape removes the backslashes of an unquoted literal: "\x" is x,
// and a backslash before a newline joins the lines.
func unescape(v string) string {
	if !strings.Contains(v, "\\") {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			i++
			if v[i] == '\n' {
				continue
			}
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// unescapeDouble removes the backslashes that escape in double quotes:
// before $, `, ", \ and a newline.
func unescapeDouble(v string) string {
	if !strings.Contains(v, "\\") {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) && strings.IndexByte("$`\"\\\n", v[i+1]) >= 0 {
			i++
			if v[i] == '\n' {
				continue
			}
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// ansiC decodes the escapes of a $'…' string, as bash does.
func ansiC(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '\\' || i+1 == len(v) {
			b.WriteByte(v[i])
			continue
		}
		i++
		switch c := v[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case 'c':
			if i+1 < len(v) {
				i++
				b.WriteByte(v[i] & 0x1f)
			}
		case 'x', 'u', 'U', '0', '1', '2', '3', '4', '5', '6', '7':
			i = numericEscape(v, i, &b)
		default: // \\ \' \" \? and unknown escapes
			if strings.IndexByte("\\'\"?", c) < 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
	}
	if !utf8.ValidString(b.String()) {
		return strings.ToValidUTF8(b.String(), "\uFFFD")
	}
	return b.String()
}

// numericEscape decodes \xHH, \uHHHH, \UHHHHHHHH or \NNN (octal) whose
// letter is v[i], and returns the index of its last character.
func numericEscape(v string, i int, b *strings.Builder) int {
	c := v[i]
	n, base, limit := 0, 16, map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
	start := i + 1
	if c >= '0' && c <= '7' {
		base, limit, start = 8, 3, i
	}
	for n < limit && start+n < len(v) && isDigit(v[start+n], base) {
		n++
	}
	if n == 0 {
		b.WriteByte('\\')
		b.WriteByte(c)
		return i
	}
	x, _ := strconv.ParseUint(v[start:start+n], base, 32)
	if c == 'u' || c == 'U' {
		b.WriteString(string(rune(x)))
	} else {
		b.WriteByte(byte(x))
	}
	return start + n - 1
}

func isDigit(c byte, base int) bool {
	switch {
	case c >= '0' && c <= '7':
		return true
	case c == '8' || c == '9':
		return base == 16
	case c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		return base == 16
	}
	return false
}

// source is a node's text as written: a slice of the script being walked
// (no copy, however deep the node), or printed when it has no place in
// it (a here-document's body).
func (w *walker) source(n syntax.Node) string {
	p, e := n.Pos(), n.End()
	if p.IsValid() && e.IsValid() && p.Offset() <= e.Offset() && int(e.Offset()) <= len(w.src) {
		return w.src[p.Offset():e.Offset()]
	}
	return source(n)
}

// source is a node's text, printed.
func source(n syntax.Node) string {
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, n); err != nil {
		return "…"
	}
	return b.String()
}

// expandBraces returns the part lists a word with brace expansions makes,
// or false past limit.
func expandBraces(parts []syntax.WordPart, limit int) ([][]syntax.WordPart, bool) {
	out := [][]syntax.WordPart{nil}
	for _, part := range parts {
		be, ok := part.(*syntax.BraceExp)
		if !ok {
			for i := range out {
				out[i] = append(out[i], part)
			}
			continue
		}
		var alts [][]syntax.WordPart
		if be.Sequence {
			seq, ok := sequence(be, limit)
			if !ok {
				return nil, false
			}
			for _, s := range seq {
				alts = append(alts, []syntax.WordPart{&syntax.Lit{Value: s}})
			}
		} else {
			for _, e := range be.Elems {
				sub, ok := expandBraces(e.Parts, limit)
				if !ok {
					return nil, false
				}
				alts = append(alts, sub...)
			}
		}
		if len(out)*len(alts) > limit {
			return nil, false
		}
		next := make([][]syntax.WordPart, 0, len(out)*len(alts))
		for _, o := range out {
			for _, a := range alts {
				next = append(next, append(append([]syntax.WordPart(nil), o...), a...))
			}
		}
		out = next
	}
	return out, true
}

// sequence expands {x..y[..step]} of numbers or letters, or false when
// it is not one or makes more than limit words.
func sequence(be *syntax.BraceExp, limit int) ([]string, bool) {
	if len(be.Elems) < 2 {
		return nil, false
	}
	from, to := be.Elems[0].Lit(), be.Elems[1].Lit()
	step := 1
	if len(be.Elems) > 2 {
		s, err := strconv.Atoi(be.Elems[2].Lit())
		if err != nil || s == 0 {
			return nil, false
		}
		step = max(s, -s)
	}
	a, errA := strconv.Atoi(from)
	z, errZ := strconv.Atoi(to)
	if errA != nil || errZ != nil {
		if len(from) != 1 || len(to) != 1 {
			return nil, false
		}
		a, z = int(from[0]), int(to[0])
	}
	if (max(a, z)-min(a, z))/step+1 > limit {
		return nil, false
	}
	var out []string
	for i := a; ; {
		if errA != nil {
			out = append(out, string(rune(i)))
		} else {
			out = append(out, strconv.Itoa(i))
		}
		if i == z || (a < z && i+step > z) || (a > z && i-step < z) {
			break
		}
		if a < z {
			i += step
		} else {
			i -= step
		}
	}
	return out, true
}
