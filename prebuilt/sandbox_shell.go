package prebuilt

import (
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/rienda/hooks/internal/shell"
)

// shellEnv is what the rules need to place a command's paths: the run's
// working directory and the home directory ("" when unknown).
type shellEnv struct {
	workdir, home string
}

// verdict is a rule's answer on one command: denied (with the rule), or
// not judgeable (a target decided at run time).
type verdict struct {
	rule       string
	unresolved string
}

// shellRule is a built-in deny rule over one simple command, with the
// other commands of the script (for pipelines).
type shellRule struct {
	name  string
	check func(env shellEnv, c shell.Command, all []shell.Command) verdict
}

var builtinShellRules = []shellRule{
	{"rm -rf on /, ~, . or *", rmRoot},
	{"chmod or chown -R on /, ~, . or *", chmodRoot},
	{"git push --force", gitForcePush},
	{curlRuleName, curlPipeShell},
	{"mkfs, or dd onto a device", diskWipe},
	{moveRuleName, moveOrLinkRoot},
}

const moveRuleName = "mv, rsync --delete or ln -s on /, ~, . or a device"

// moveOrLinkRoot: mv of such a directory away (as good as rm -rf),
// rsync --delete into one (it deletes what the source lacks), and ln -s
// to one or to a device (a later command through the link reaches it,
// and links made by the script are not followed by these rules).
func moveOrLinkRoot(env shellEnv, c shell.Command, _ []shell.Command) verdict {
	if n := c.Name(); n != "mv" && n != "rsync" && n != "ln" {
		return verdict{} // the common case: nothing to sort
	}
	var opts, ops []shell.Word
	for _, a := range c.Args[1:] {
		if a.Known && strings.HasPrefix(a.Text, "-") && len(a.Text) > 1 {
			opts = append(opts, a)
		} else {
			ops = append(ops, a)
		}
	}
	has := func(short byte, long string) bool {
		return slices.ContainsFunc(opts, func(o shell.Word) bool {
			return strings.HasPrefix(o.Text, long) || !strings.HasPrefix(o.Text, "--") && strings.IndexByte(o.Text, short) > 0
		})
	}
	switch c.Name() {
	case "mv":
		if len(ops) > 1 {
			srcs := slices.DeleteFunc(slices.Clone(ops[:len(ops)-1]), func(w shell.Word) bool {
				return w.Glob && !strings.HasPrefix(w.Text, "/") && !strings.HasPrefix(w.Text, "~") // mv * sub/ keeps them here
			})
			return judgeTargets(env, c, srcs, moveRuleName)
		}
	case "rsync":
		if len(ops) > 1 && has(0, "--del") {
			return judgeTargets(env, c, ops[len(ops)-1:], moveRuleName)
		}
	case "ln":
		if len(ops) > 0 && has('s', "--sym") {
			if ops[0].Known && deviceTarget(env, c.Dirs, ops[0].Text) {
				return verdict{rule: moveRuleName}
			}
			return judgeTargets(env, c, ops[:1], moveRuleName)
		}
	}
	return verdict{}
}

// args returns a command's arguments' texts and whether they are all known.
func texts(ws []shell.Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Text
	}
	return out
}

// rmRoot: rm, recursive, on a target whose loss is the whole machine, the
// home or the work directory.
func rmRoot(env shellEnv, c shell.Command, _ []shell.Command) verdict {
	if c.Name() != "rm" {
		return verdict{}
	}
	recursive, dashdash := false, false
	var targets []shell.Word
	for _, a := range c.Args[1:] {
		t := a.Text
		switch {
		case !a.Known || dashdash || !strings.HasPrefix(t, "-") || t == "-":
			targets = append(targets, a)
		case t == "--":
			dashdash = true
		case longOption(t, "--recursive", 3), t == "--no-preserve-root":
			recursive = true // GNU takes any unambiguous prefix: --r, --rec
		case !strings.HasPrefix(t, "--") && strings.ContainsAny(t, "rR"):
			recursive = true
		}
	}
	if !recursive {
		return verdict{}
	}
	return judgeTargets(env, c, targets, "rm -rf on /, ~, . or *")
}

// judgeTargets denies when a target is the machine, the home or the
// work directory (or above them), and cannot judge one decided at run
// time.
func judgeTargets(env shellEnv, c shell.Command, targets []shell.Word, rule string) verdict {
	for _, t := range targets {
		if !t.Known {
			return verdict{unresolved: "the target " + t.Text + " of " + c.Name() + " is decided only when it runs"}
		}
		danger, known := dangerousTarget(env, c.Dirs, t)
		if danger {
			return verdict{rule: rule}
		}
		if !known {
			return verdict{unresolved: "the target " + t.Text + " of " + c.Name() + " is relative to a directory decided only when it runs"}
		}
	}
	return verdict{}
}

// dangerousTarget reports whether the target t (in a command that runs in
// dirs, after the run's workdir) is /, a top-level directory other than
// /tmp, the home directory or one of its parents, or the work directory
// or one of its parents; for a pattern (/*, ~/.*), whether the directory
// it expands in is one. known is false when t is relative to a
// directory decided at run time.
func dangerousTarget(env shellEnv, dirs []shell.Word, t shell.Word) (danger, known bool) {
	p := t.Text
	if t.Glob {
		return dangerousGlob(env, dirs, p)
	}
	if !strings.HasPrefix(p, "/") {
		switch path.Clean(p) {
		case ".", "..":
			return true, true
		}
		if strings.HasPrefix(path.Clean(p), "../") && strings.Trim(path.Clean(p), "./") == "" {
			return true, true // ../.. and the like
		}
	}
	bases, known := candidateDirs(env, dirs)
	if strings.HasPrefix(p, "/") {
		bases = []string{""}
	}
	for _, base := range bases {
		abs := p
		if base != "" {
			abs = base + "/" + p
		} else if !strings.HasPrefix(p, "/") {
			continue
		}
		r, err := resolvePath(filepath.FromSlash(abs))
		if err != nil {
			return true, true // a cycle of links: nothing to allow
		}
		if criticalPath(env, filepath.ToSlash(r)) {
			return true, true
		}
	}
	return false, known || strings.HasPrefix(p, "/")
}

// candidateDirs are the directories a command may run in: the workdir,
// then each cd before it (a cd in a branch or a subshell may or may not
// have run, so all are judged). known is false past a cd decided at run
// time.
func candidateDirs(env shellEnv, dirs []shell.Word) ([]string, bool) {
	var out []string
	cur := env.workdir
	if cur != "" {
		out = append(out, cur)
	}
	for _, d := range dirs {
		if !d.Known || d.Glob {
			return out, false
		}
		switch {
		case strings.HasPrefix(d.Text, "/"):
			cur = d.Text
		case cur == "":
			continue // relative to a directory the sandbox was not told: as unknown as before the cd
		default:
			cur = cur + "/" + d.Text
		}
		out = append(out, cur)
	}
	return out, true
}

// dangerousGlob judges a pattern (/*, ~/.*, build*, /e?c) as the shell
// expands it: one whose first pattern segment matches every name (*, .*,
// ?*) in a critical directory is the directory's whole content; any
// other is expanded against the file system, as the shell will, and each
// name it gives judged.
func dangerousGlob(env shellEnv, dirs []shell.Word, pattern string) (danger, known bool) {
	base := globBase(pattern)
	rest := strings.TrimPrefix(strings.TrimPrefix(pattern, base), "/")
	seg, _, _ := strings.Cut(rest, "/")
	if base == "" {
		base = "."
	}
	matchAll := strings.Trim(seg, "*?.") == "" // *, .*, ?*, *.* …
	if matchAll {
		if d, k := dangerousTarget(env, dirs, shell.Lit(base)); d || !k {
			return d, k
		}
	}
	bases := []string{""}
	if !strings.HasPrefix(pattern, "/") {
		var ok bool
		if bases, ok = candidateDirs(env, dirs); !ok {
			return false, false
		}
	}
	for _, b := range bases {
		abs := pattern
		if b != "" {
			abs = b + "/" + pattern
		}
		matches, err := filepath.Glob(filepath.FromSlash(strings.TrimRight(abs, "/")))
		if err != nil {
			return true, true // a pattern the shell reads and Go cannot: not judged safe
		}
		for _, m := range matches {
			if d, _ := dangerousTarget(env, nil, shell.Lit(filepath.ToSlash(m))); d {
				return true, true
			}
		}
	}
	return false, true
}

// globBase is the directory a pattern expands in: its text up to the
// last "/" before the first pattern character.
func globBase(p string) string {
	i := strings.IndexAny(p, "*?[")
	j := strings.LastIndexByte(p[:i], '/')
	if j < 0 {
		return ""
	}
	if j == 0 {
		return "/"
	}
	return p[:j]
}

// criticalPath: p (resolved, absolute) is /, a top-level directory other
// than /tmp, the home directory or above it, or the work directory or
// above it.
func criticalPath(env shellEnv, p string) bool {
	p = path.Clean(p)
	if p == "/" || path.Dir(p) == "/" && p != "/tmp" {
		return true
	}
	for _, d := range []string{env.home, env.workdir} {
		if d == "" {
			continue
		}
		if rd, err := resolvePath(filepath.Clean(d)); err == nil {
			d = filepath.ToSlash(rd)
		}
		if p == d || strings.HasPrefix(d+"/", p+"/") {
			return true
		}
	}
	return false
}

// chmodRoot: chmod, chown or chgrp, recursive, on such a target (the
// first operand is the mode or the owner).
func chmodRoot(env shellEnv, c shell.Command, _ []shell.Command) verdict {
	switch c.Name() {
	case "chmod", "chown", "chgrp":
	default:
		return verdict{}
	}
	recursive := false
	var rest []shell.Word
	for _, a := range c.Args[1:] {
		switch t := a.Text; {
		case !a.Known:
			rest = append(rest, a)
		case t == "-R" || longOption(t, "--recursive", 3) || strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.Contains(t, "R"):
			recursive = true
		case !strings.HasPrefix(t, "-"):
			rest = append(rest, a)
		}
	}
	if !recursive || len(rest) < 2 {
		return verdict{}
	}
	return judgeTargets(env, c, rest[1:], "chmod or chown -R on /, ~, . or *")
}

func gitForcePush(_ shellEnv, c shell.Command, _ []shell.Command) verdict {
	if c.Name() != "git" {
		return verdict{}
	}
	args := texts(c.Args[1:])
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") { // git's own options
		if args[i] == "-C" || args[i] == "-c" || args[i] == "--git-dir" || args[i] == "--work-tree" || args[i] == "--namespace" {
			i++
		}
		i++
	}
	if i >= len(args) || args[i] != "push" {
		return verdict{}
	}
	for _, a := range args[i+1:] {
		switch {
		case a == "-f", strings.HasPrefix(a, "--force"), longOption(a, "--force-with-lease", 4), longOption(a, "--force-if-includes", 4),
			longOption(a, "--mirror", 4): // git takes an unambiguous prefix too: --forc, --mir
			return verdict{rule: "git push --force"}
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "f"):
			return verdict{rule: "git push --force"} // -fu and the like
		case strings.HasPrefix(a, "+"), strings.HasPrefix(a, ":"):
			return verdict{rule: "git push --force"} // a +refspec forces that ref; :ref deletes it
		}
	}
	return verdict{}
}

var (
	downloaders = map[string]bool{"curl": true, "wget": true, "fetch": true, "iwr": true, "Invoke-WebRequest": true, "nc": true, "ncat": true}
	shells      = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "mksh": true, "ash": true,
		"python": true, "python3": true, "perl": true, "ruby": true, "node": true, "iex": true, "source": true, ".": true, "eval": true}
)

// curlPipeShell: a download earlier in the same pipeline as a shell or
// an interpreter.
func curlPipeShell(_ shellEnv, c shell.Command, all []shell.Command) verdict {
	if !shells[c.Name()] || c.Stage == 0 {
		return verdict{}
	}
	for _, o := range all {
		if o.Pipeline == c.Pipeline && o.Stage < c.Stage && downloaders[o.Name()] {
			return verdict{rule: curlRuleName}
		}
	}
	return verdict{}
}

const curlRuleName = "a download piped into a shell (curl … | sh)"

// curlSubst names the forms that are not a pipe (sh -c "$(curl …)",
// bash <(curl …)): the parser reports them unresolved; this names the
// rule.
var curlSubst = regexp.MustCompile(`\b(?:ba|z|da|k)?sh\b[^|;&]*(?:\$\(|<\(|` + "`" + `)\s*(?:curl|wget)\b`)

// diskWipe: mkfs, or dd, shred or a redirection writing onto a device.
func diskWipe(env shellEnv, c shell.Command, _ []shell.Command) verdict {
	name := c.Name()
	if strings.HasPrefix(name, "mkfs") || deviceWipers[name] {
		return verdict{rule: "mkfs, or dd onto a device"}
	}
	if partitioners[name] && !slices.ContainsFunc(c.Args[1:], func(a shell.Word) bool {
		return a.Known && (a.Text == "-l" || a.Text == "--list" || a.Text == "-p" || a.Text == "--print" || a.Text == "print")
	}) && slices.ContainsFunc(c.Args[1:], func(a shell.Word) bool { return !a.Known || deviceTarget(env, c.Dirs, a.Text) }) {
		return verdict{rule: "mkfs, or dd onto a device"}
	}
	for _, a := range c.Args[1:] {
		if t, ok := strings.CutPrefix(a.Text, "of="); ok && name == "dd" || name == "shred" && !strings.HasPrefix(a.Text, "-") {
			if !ok {
				t = a.Text
			}
			if !a.Known {
				return verdict{unresolved: "the output " + a.Text + " of " + name + " is decided only when it runs"}
			}
			if deviceTarget(env, c.Dirs, t) {
				return verdict{rule: "mkfs, or dd onto a device"}
			}
		}
	}
	if name == "tee" || name == "cp" || name == "install" || name == "mv" {
		for _, a := range c.Args[1:] {
			if a.Known && deviceTarget(env, c.Dirs, a.Text) && (name == "tee" || a.Text == c.Args[len(c.Args)-1].Text) {
				return verdict{rule: "mkfs, or dd onto a device"}
			}
		}
	}
	for _, r := range c.Redirs {
		if strings.Contains(r.Op, ">") && r.Target.Known && deviceTarget(env, c.Dirs, r.Target.Text) {
			return verdict{rule: "mkfs, or dd onto a device"}
		}
	}
	return verdict{}
}

// deviceWipers write over a whole device whatever their arguments.
var deviceWipers = map[string]bool{"wipefs": true, "mke2fs": true, "mkswap": true, "mkntfs": true, "mkdosfs": true,
	"mkexfatfs": true, "blkdiscard": true}

// partitioners rewrite a device's partition table when given one
// (not with -l or print).
var partitioners = map[string]bool{"fdisk": true, "sfdisk": true, "sgdisk": true, "gdisk": true, "cfdisk": true, "parted": true}

// deviceTarget: p, resolved (a relative p from each directory the command
// may run in: a link in the work directory may lead to a device), is a
// device under /dev other than the harmless ones (null, zero, the
// terminal, standard streams).
func deviceTarget(env shellEnv, dirs []shell.Word, p string) bool {
	if p == "" || harmlessDevice(path.Clean(p)) {
		return false
	}
	cands := []string{p}
	if !strings.HasPrefix(p, "/") {
		cands, _ = candidateDirs(env, dirs)
		for i, b := range cands {
			cands[i] = b + "/" + p
		}
	}
	for _, c := range cands {
		if !strings.HasPrefix(c, "/") {
			continue
		}
		r, err := resolvePath(filepath.FromSlash(c))
		if err != nil {
			return true
		}
		if r = filepath.ToSlash(r); strings.HasPrefix(r, "/dev/") && !harmlessDevice(r) {
			return true
		}
	}
	return false
}

func harmlessDevice(p string) bool {
	switch p {
	case "/dev/null", "/dev/zero", "/dev/tty", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/random", "/dev/urandom", "/dev/full":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/dev/pts/") || strings.HasPrefix(p, "/dev/shm/")
}

// commandLine is a command's words joined by blanks, for the user's
// patterns.
func commandLine(c shell.Command) string {
	return strings.Join(texts(c.Args), " ")
}

// longOption reports whether t is the long option full or a prefix of it
// at least min characters long, as getopt_long and git accept them
// (before any "=value").
func longOption(t, full string, min int) bool {
	t, _, _ = strings.Cut(t, "=")
	return len(t) >= min && strings.HasPrefix(full, t)
}
