package prebuilt

import (
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/shell"
	"github.com/rienda/hooks/internal/suggest"
)

// isShell reports whether the tool is one of ShellTools: exactly, or as
// the same name in another case or spelling (loudly). A name that only
// looks like one, or a default one the config replaced, is a diagnostic.
func (h *sandbox) isShell(c *hooks.Context, tool string) bool {
	name, ok := h.shellTools.match(tool)
	switch {
	case ok && name == tool:
		return true
	case ok:
		h.once(c, "shell:"+tool, fmt.Errorf("ShellTools names %q and the call's tool is %q: judged as the same shell tool (write the tool's own name to silence this)", name, tool))
		return true
	}
	if h.shellReplaced && slicesContainsFold(defaultShellTools, tool) {
		h.once(c, "replaced:"+tool, fmt.Errorf("ShellTools replaces the default shell tools, so the tool %q is not judged as a shell: add it to ShellTools, or list yours in ExtraShellTools to keep the defaults", tool))
	} else if near, ok := suggest.Closest(tool, h.shellTools.list); ok {
		h.once(c, "near:"+tool, fmt.Errorf("the tool %q is not in ShellTools (did you mean %q?): its commands are not judged", tool, near))
	}
	return false
}

// once reports err as a diagnostic once per run and key.
func (h *sandbox) once(c *hooks.Context, key string, err error) {
	_, _ = c.Memo("sandbox:diagnostic:"+key, func() (any, error) {
		c.Diagnose(err)
		return true, nil
	})
}

func slicesContainsFold(list []string, s string) bool {
	for _, x := range list {
		if hooks.ArgumentName(x) == hooks.ArgumentName(s) {
			return true
		}
	}
	return false
}

// checkCommands judges every command argument of a shell tool's call:
// the reason it is refused, or what about it cannot be judged.
func (h *sandbox) checkCommands(c *hooks.Context, call hooks.ToolCall) (string, []string) {
	found := false
	var unresolved []string
	env := shellEnv{workdir: c.Workdir, home: homeDir(c)}
	dirs, reason := commandDirs(c, call)
	if reason != "" {
		return reason, nil
	}
	for _, k := range sortedArgKeys(call.Arguments) {
		name, ok := h.commandArgs.match(k)
		if !ok {
			continue
		}
		found = true
		if name != k {
			h.once(c, "arg:"+k, fmt.Errorf("CommandArgs names %q and the call of %q has %q: judged as the same argument", name, call.Name, k))
		}
		v, reason := withArgs(call, call.Arguments[k])
		if reason != "" {
			return reason, nil
		}
		for _, d := range dirs {
			env := env
			env.workdir = d
			reason, unres := h.judgeCommand(env, k, v)
			if reason != "" {
				return reason, nil
			}
			unresolved = append(unresolved, unres...)
		}
	}
	if !found && len(call.Arguments) > 0 {
		keys := sortedArgKeys(call.Arguments)
		hint := ""
		if near, ok := suggestAny(keys, h.commandArgs.list); ok {
			hint = fmt.Sprintf(" (did you mean %q?)", near)
		}
		return fmt.Sprintf("Sandbox: the call of the shell tool %q has no command argument the sandbox knows (CommandArgs: %s; the call has %s%s): it cannot be judged, so it is not allowed.",
			call.Name, strings.Join(h.commandArgs.list, ", "), strings.Join(keys, ", "), hint), nil
	}
	return "", unresolved
}

// suggestAny is the first of keys that is a typo of one of known.
func suggestAny(keys, known []string) (string, bool) {
	for _, k := range keys {
		if near, ok := suggest.Closest(k, known); ok {
			return k + `" for "` + near, true
		}
	}
	return "", false
}

// judgeCommand judges one command argument: a string the shell reads, or
// an argv list.
func (h *sandbox) judgeCommand(env shellEnv, k string, v any) (string, []string) {
	var script *shell.Script
	var err error
	raw := ""
	cfg := shell.Config{Home: env.home}
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		raw = x
		script, err = shell.Parse(x, cfg)
	default:
		argv, ok := stringsOf(v)
		if !ok {
			return shapeReason(k, v, "a command"), nil
		}
		raw = strings.Join(argv, " ")
		script, err = shell.ParseArgv(argv, cfg)
	}
	if err != nil {
		return fmt.Sprintf("Sandbox: the command in %q cannot be read as the shell will read it (%v), so it is not allowed.", k, err), nil
	}
	refuse := func(rule string) string {
		return fmt.Sprintf("Sandbox: the command in %q is not allowed (%s). Do not run it; find a safer way or ask the user.", k, rule)
	}
	var unresolved []string
	if h.builtins {
		if curlSubst.MatchString(raw) {
			return refuse(curlRuleName), nil
		}
		for _, cmd := range script.Commands {
			for _, r := range builtinShellRules {
				v := r.check(env, cmd, script.Commands)
				if v.rule != "" {
					return refuse(v.rule), nil
				}
				if v.unresolved != "" {
					unresolved = append(unresolved, v.unresolved)
				}
			}
		}
	}
	for i, re := range h.deny {
		if re.MatchString(raw) {
			return refuse("the pattern " + h.denySrc[i]), nil
		}
		for _, cmd := range script.Commands {
			if re.MatchString(commandLine(cmd)) {
				return refuse("the pattern " + h.denySrc[i]), nil
			}
		}
	}
	if h.hosts != nil {
		if reason, unres := h.commandURLs(k, raw, script); reason != "" {
			return reason, nil
		} else {
			unresolved = append(unresolved, unres...)
		}
	}
	return "", append(unresolved, script.Unresolved...)
}

// commandURLs checks the URLs in a command's words (quotes joined, as
// the program receives them) and in its raw text.
func (h *sandbox) commandURLs(k, raw string, script *shell.Script) (string, []string) {
	var unresolved []string
	for _, cmd := range script.Commands {
		if cmd.Guess {
			// a command read from another's arguments (service ssh restart):
			// only its URLs are judged, not its words as bare hosts
		} else if reason, unres := h.downloadTargets(k, cmd); reason != "" {
			return reason, nil
		} else {
			unresolved = append(unresolved, unres...)
		}
		for _, w := range cmd.Args {
			for _, u := range urlInText.FindAllString(w.Text, -1) {
				if !w.Known {
					unresolved = append(unresolved, "the URL "+w.Text+" is decided only when it runs")
					continue
				}
				if reason := h.checkURL(k, u); reason != "" {
					return reason, nil
				}
			}
		}
	}
	for _, u := range urlInText.FindAllString(raw, -1) {
		if reason := h.checkURL(k, u); reason != "" {
			return reason, nil
		}
	}
	return "", unresolved
}

// checkPaths returns why a path argument of call is outside the roots, or "".
func (h *sandbox) checkPaths(c *hooks.Context, call hooks.ToolCall) string {
	var keys []string
	for k := range call.Arguments {
		if name, ok := h.pathArgs.match(k); ok {
			keys = append(keys, k)
			if name != k {
				h.once(c, "path:"+k, fmt.Errorf("PathArgs names %q and the call of %q has %q: judged as the same argument", name, call.Name, k))
			}
		} else if h.pathReplaced && slicesContainsFold(defaultPathArgs, k) {
			h.once(c, "pathReplaced:"+k, fmt.Errorf("PathArgs replaces the default path arguments, so %q of the tool %q is not judged as a path: add it to PathArgs, or list yours in ExtraPathArgs to keep the defaults", k, call.Name))
		} else if _, ok := h.urlArgs.match(k); ok && holdsFileURL(call.Arguments[k]) {
			keys = append(keys, k) // {"uri": "file:///etc/passwd"}: a path in a URL argument (MCP resources)
		}
	}
	if len(keys) == 0 {
		return "" // the common case: no path, no file-system access
	}
	roots := h.roots
	if roots == nil {
		if c.Workdir == "" {
			return ""
		}
		roots = []string{c.Workdir}
	}
	resolvedRoots := make([]string, 0, len(roots))
	for _, r := range roots {
		rr, err := resolvePath(absUnder(c.Workdir, r))
		if err != nil {
			return fmt.Sprintf("Sandbox: the root %q cannot be resolved (%v): every path is refused.", r, err)
		}
		resolvedRoots = append(resolvedRoots, rr)
	}
	for _, k := range sortedArgKeys(map[string]any(pick(call.Arguments, keys))) {
		vals, ok := stringsOf(call.Arguments[k])
		if !ok {
			return shapeReason(k, call.Arguments[k], "a path")
		}
		for _, p := range vals {
			if reason := h.checkPath(c, k, p, roots, resolvedRoots); reason != "" {
				return reason
			}
		}
	}
	return ""
}

// checkPath judges one path (or file: URL) against the resolved roots.
func (h *sandbox) checkPath(c *hooks.Context, k, p string, roots, resolvedRoots []string) string {
	fsPath, err := fileURLPath(p)
	if err != nil {
		return fmt.Sprintf("Sandbox: the path %q in %q cannot be read (%v), so it is not allowed.", p, k, err)
	}
	if strings.HasPrefix(fsPath, "~") {
		return fmt.Sprintf("Sandbox: the path %q in %q starts with ~: give a path inside %s.", p, k, strings.Join(roots, ", "))
	}
	rp, err := resolvePath(absUnder(c.Workdir, fsPath))
	if err != nil {
		return fmt.Sprintf("Sandbox: the path %q in %q cannot be resolved (%v).", p, k, err)
	}
	for _, r := range resolvedRoots {
		if within(rp, r) {
			return ""
		}
	}
	return fmt.Sprintf("Sandbox: the path %q in %q is outside the allowed directories (%s). Use a path inside them.", p, k, strings.Join(roots, ", "))
}

// fileURLPath is the file-system path of a file: URL in any spelling
// (file:///x, file://localhost/x, FILE:///x, file:/x, percent-escaped),
// or p itself when it is not one. A file: URL naming another host is an
// error: the tool would read a network share.
func fileURLPath(p string) (string, error) {
	if !isFileURL(p) {
		return p, nil
	}
	u, err := url.Parse("file:" + p[5:])
	if err != nil {
		return "", err
	}
	if u.Host != "" && !strings.EqualFold(u.Host, "localhost") {
		return "", fmt.Errorf("a file: URL on the host %q", u.Host)
	}
	if u.Opaque != "" {
		return url.PathUnescape(u.Opaque) // file:relative
	}
	return u.Path, nil
}

// isFileURL: s starts with the file: scheme, in any case.
func isFileURL(s string) bool {
	return len(s) >= 5 && strings.EqualFold(s[:5], "file:")
}

// pick is the entries of args under keys.
func pick(args map[string]any, keys []string) map[string]any {
	out := make(map[string]any, len(keys))
	for _, k := range keys {
		out[k] = args[k]
	}
	return out
}

// downloadValueFlags are the options of curl and wget that take a value
// (not a URL).
var downloadValueFlags = map[string]bool{"-o": true, "-O": true, "-d": true, "-H": true, "-X": true, "-u": true, "-A": true, "-e": true,
	"-b": true, "-c": true, "-F": true, "-T": true, "-w": true, "-m": true, "-K": true, "-E": true, "-r": true, "-C": true,
	"-P": true, "-U": true, "-t": true, "-a": true, "-B": true, "--output": true, "--data": true, "--header": true,
	"--request": true, "--user": true, "--user-agent": true, "--referer": true, "--cookie": true, "--form": true,
	"--upload-file": true, "--write-out": true, "--max-time": true, "--config": true, "--output-document": true,
	"--directory-prefix": true, "--data-raw": true, "--data-binary": true, "--data-urlencode": true, "--cookie-jar": true}

// downloadTargets judges the operands of curl and wget, which take a
// host without a scheme too (curl evil.example): an operand decided at
// run time cannot be judged. The proxy (-x) is a host as well.
func (h *sandbox) downloadTargets(k string, cmd shell.Command) (string, []string) {
	if flags, ok := hostFirst[cmd.Name()]; ok {
		return h.firstHost(k, cmd, flags)
	}
	if remoteCopiers[cmd.Name()] {
		return h.remotePaths(k, cmd)
	}
	if n := cmd.Name(); n != "curl" && n != "wget" {
		return "", nil
	}
	args := cmd.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Known && strings.HasPrefix(a.Text, "-") {
			v, ok, reason := hostOption(cmd.Name(), args, &i)
			if reason != "" {
				return "", []string{reason}
			}
			if !ok {
				if downloadValueFlags[a.Text] {
					i++
				}
				continue
			}
			a = v
		}
		if !a.Known {
			return "", []string{"the address " + a.Text + " of " + cmd.Name() + " is decided only when it runs"}
		}
		u := a.Text
		if !strings.Contains(u, "://") {
			u = "http://" + u
		}
		if reason := h.checkURL(k, u); reason != "" {
			return reason, nil
		}
	}
	return "", nil
}

// dirArgs are the arguments in which a shell tool takes the directory
// its command runs in (Codex's workdir, others' cwd).
var dirArgs = []string{"workdir", "cwd", "working_directory", "working_dir", "dir", "directory", "chdir", "cd", "base_dir", "project_dir"}

// commandDirs are the directories a shell tool's command runs in: the
// run's Workdir, and each directory argument of the call (a relative one
// from the Workdir), so that {"workdir": "/", "command": "rm -rf etc"}
// is judged in /.
func commandDirs(c *hooks.Context, call hooks.ToolCall) ([]string, string) {
	base := c.Workdir
	if base == "" {
		// No Workdir: a tool runs its command where the host runs, so
		// "rm -rf etc" from / is judged as what it is there.
		base, _ = os.Getwd()
	}
	dirs := []string{base}
	for _, name := range dirArgs {
		for _, k := range hooks.ArgumentKeys(call.Arguments, name) {
			vals, ok := stringsOf(call.Arguments[k])
			if !ok || len(vals) > 1 {
				return nil, shapeReason(k, call.Arguments[k], "a directory")
			}
			for _, v := range vals {
				if v == "" {
					continue
				}
				d := v
				if !strings.HasPrefix(d, "/") {
					if base == "" {
						continue // as unknown as the run's own directory
					}
					d = base + "/" + d
				}
				dirs = append(dirs, d)
			}
		}
	}
	return dirs, ""
}

// hostFirst are programs whose first operand is a host, with their
// options that take a value.
var hostFirst = map[string]string{"nc": "psxwieqXIOT", "ncat": "psxwieqcIOT", "netcat": "psxwieqXIOT", "telnet": "bleln",
	"ssh": "BbcDEeFIiJLlmOopQRSWw", "sftp": "BbcDFiJlooPRSs", "ftp": "P"}

// firstHost judges the host operand of nc, ssh and the like.
func (h *sandbox) firstHost(k string, cmd shell.Command, valueFlags string) (string, []string) {
	args := cmd.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Known && strings.HasPrefix(a.Text, "-") && len(a.Text) > 1 {
			if last := a.Text[len(a.Text)-1]; len(a.Text) == 2 && strings.IndexByte(valueFlags, last) >= 0 {
				i++
			}
			continue
		}
		if !a.Known {
			return "", []string{"the host " + a.Text + " of " + cmd.Name() + " is decided only when it runs"}
		}
		host := a.Text
		if at := strings.LastIndexByte(host, '@'); at >= 0 {
			host = host[at+1:]
		}
		return h.checkURL(k, host), nil
	}
	return "", nil
}

// hostOptions are the options of curl and wget whose value is a host the
// program connects to, or a URL it fetches.
var hostOptions = map[string]bool{"-x": true, "--proxy": true, "--preproxy": true, "--socks4": true, "--socks4a": true,
	"--socks5": true, "--socks5-hostname": true, "--url": true, "--proxy-url": true}

// hostOption reads the option at args[*i] when its value is a host or a
// URL (-x host, -xhost, --proxy=host, --url=x), moving *i past its value;
// reason is set for an option that sends the request elsewhere in a way
// not judged here (--connect-to, --resolve, a config file, wget -e).
func hostOption(prog string, args []shell.Word, i *int) (shell.Word, bool, string) {
	t := args[*i].Text
	name, value, hasEq := strings.Cut(t, "=")
	elsewhere := name == "--connect-to" || name == "--resolve" || name == "--config" || name == "--execute" || name == "--input-file"
	if prog == "curl" {
		elsewhere = elsewhere || name == "-K"
	} else {
		elsewhere = elsewhere || name == "-e" || name == "-i"
	}
	switch {
	case elsewhere:
		return shell.Word{}, false, "the option " + name + " of " + prog + " takes hosts or URLs from elsewhere, not judged here"
	case hostOptions[name] && hasEq:
		return shell.Lit(value), true, ""
	case hostOptions[name] && *i+1 < len(args):
		*i++
		return args[*i], true, ""
	case prog == "curl" && len(t) > 2 && t[:2] == "-x":
		return shell.Lit(t[2:]), true, ""
	}
	return shell.Word{}, false, ""
}

// remoteCopiers take [user@]host:path operands (scp, rsync, git's
// scp-like URLs).
var remoteCopiers = map[string]bool{"scp": true, "rsync": true, "git": true}

// remotePath is [user@]host:path, the host a name, an IP or [IPv6]: for
// git, only with a user (git@host:repo), since refspecs are a:b too.
var remotePath = regexp.MustCompile(`^(?:([^@/:\s]+)@)?(\[[^\]]+\]|[A-Za-z0-9][A-Za-z0-9.-]*):`)

// remotePaths judges the hosts of scp, rsync and git operands written
// host:path, which are no URLs.
func (h *sandbox) remotePaths(k string, cmd shell.Command) (string, []string) {
	for _, a := range cmd.Args[1:] {
		if strings.HasPrefix(a.Text, "-") || strings.Contains(a.Text, "://") {
			continue
		}
		m := remotePath.FindStringSubmatch(a.Text)
		if m == nil || cmd.Name() == "git" && m[1] == "" {
			continue
		}
		if !a.Known {
			return "", []string{"the host of " + a.Text + " is decided only when it runs"}
		}
		if reason := h.checkURL(k, m[2]); reason != "" {
			return reason, nil
		}
	}
	return "", nil
}

// argsArgs are the arguments in which a tool takes its command's
// arguments apart from the command ({"command": "rm", "args": ["-rf",
// "/"]}, as MCP shell servers do).
var argsArgs = []string{"args", "arguments"}

// withArgs is the command v with the call's separate arguments, as the
// tool will run it: an argv when v is one word, else the text with the
// arguments quoted after it.
func withArgs(call hooks.ToolCall, v any) (any, string) {
	var extra []string
	for _, name := range argsArgs {
		for _, k := range hooks.ArgumentKeys(call.Arguments, name) {
			vals, ok := stringsOf(call.Arguments[k])
			if !ok {
				return nil, shapeReason(k, call.Arguments[k], "the command's arguments")
			}
			extra = append(extra, vals...)
		}
	}
	if len(extra) == 0 {
		return v, ""
	}
	s, ok := v.(string)
	if !ok {
		list, ok := stringsOf(v)
		if !ok {
			return v, "" // judgeCommand refuses the shape
		}
		return toAny(append(list, extra...)), ""
	}
	if !strings.ContainsAny(s, " \t\n") {
		return toAny(append([]string{s}, extra...)), ""
	}
	for _, a := range extra {
		s += " '" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return s, ""
}

func toAny(l []string) []any {
	out := make([]any, len(l))
	for i, x := range l {
		out[i] = x
	}
	return out
}

// holdsFileURL: v is, or lists, a file: URL in any case.
func holdsFileURL(v any) bool {
	vals, _ := stringsOf(v)
	for _, u := range vals {
		if isFileURL(u) {
			return true
		}
	}
	return false
}
