package prebuilt

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/rienda/hooks"
)

// SandboxConfig configures Sandbox. Each of its three checks is on when
// its list is set (or, for paths, when the run has a Workdir).
type SandboxConfig struct {
	Name string // "": "sandbox"
	// Roots are the directories file paths must stay in. nil: the run's
	// Workdir (no path check when that is empty too). Relative roots, and
	// relative paths in calls, are taken from the run's Workdir.
	Roots []string
	// PathArgs are the arguments that hold file paths (a string or a list
	// of strings), in every tool; nil: path, paths, file, file_path,
	// filePath, filename, dir, directory, cwd, workdir, source,
	// destination, target, src, dst.
	PathArgs []string
	// ShellTools are the tools whose CommandArgs are shell commands; nil:
	// shell, bash, Bash, sh, exec, exec_command, run_command,
	// run_shell_command, run_terminal_cmd, terminal, execute_command,
	// execute_bash (the names common agents give their shell tool).
	ShellTools []string
	// CommandArgs are the arguments that hold the command; nil: command,
	// cmd, script.
	CommandArgs []string
	// DenyCommands are more regexps a command must not match (Go's RE2
	// syntax, on the raw text), beside the built-in rules: rm -r, chmod -R
	// or chown -R on /, ~, . or * (and top-level system directories), git
	// push --force (-f,
	// --force-with-lease, +refspec), a download piped into a shell (curl …
	// | sh, sh -c "$(curl …)"), mkfs and dd onto a device.
	DenyCommands []string
	// NoBuiltinDenies turns the built-in rules off (DenyCommands only).
	NoBuiltinDenies bool
	// AllowHosts are the network hosts calls may reach: a name
	// ("api.github.com"), "*.example.com" (its subdomains, not itself), or
	// an IP address. nil: no network check. A URL in URLArgs, and any
	// http(s) URL in a shell command, must name one of them.
	AllowHosts []string
	// URLArgs are the arguments that hold URLs or hosts; nil: url, uri,
	// endpoint, host.
	URLArgs []string
}

var (
	defaultPathArgs = []string{"path", "paths", "file", "file_path", "filePath", "filename", "dir", "directory",
		"cwd", "workdir", "source", "destination", "target", "src", "dst"}
	defaultShellTools = []string{"shell", "bash", "Bash", "sh", "exec", "exec_command", "run_command", "run_shell_command",
		"run_terminal_cmd", "terminal", "execute_command", "execute_bash"}
	defaultCommandArgs = []string{"command", "cmd", "script"}
	defaultURLArgs     = []string{"url", "uri", "endpoint", "host"}
	urlInText          = regexp.MustCompile(`(?i)\bhttps?://[^\s'"<>|;&)]+`)
)

// Sandbox returns a hook that refuses tool calls that reach outside what
// the config allows, with a reason that names the argument and the rule:
//   - a file path (PathArgs) outside Roots, judged on where the OS would
//     take it: symbolic links are followed element by element, and ".."
//     after them, so neither a link nor "../" gets out;
//   - a shell command (CommandArgs of ShellTools) that a deny rule
//     matches, judged on its words (quotes removed, wrappers such as sudo
//     skipped, each command of a pipeline, list or substitution);
//   - a URL or host (URLArgs, and URLs in shell commands) not in
//     AllowHosts.
//
// What it cannot do: see what a program does once allowed (a script that
// deletes files, a tool that follows a link it creates after the check);
// it judges the call's arguments, before the tool runs. Use an OS sandbox
// too where it matters.
func Sandbox(cfg SandboxConfig) hooks.Hook {
	h, err := newSandbox(cfg)
	mustValid("Sandbox", err)
	return h
}

type sandbox struct {
	name        string
	roots       []string // as given; resolved per call against the Workdir
	pathArgs    []string
	pathSet     toolSet // pathArgs as a set: a call's few keys are looked up, not every name
	urlSet      toolSet
	shellTools  toolSet
	commandArgs []string
	builtins    bool
	deny        []*regexp.Regexp
	denySrc     []string
	hosts       []string // nil: no network check
	urlArgs     []string
}

func newSandbox(cfg SandboxConfig) (*sandbox, error) {
	h := &sandbox{name: orName(cfg.Name, "sandbox"), roots: cfg.Roots, pathArgs: orList(cfg.PathArgs, defaultPathArgs),
		shellTools: newToolSet(orList(cfg.ShellTools, defaultShellTools)), commandArgs: orList(cfg.CommandArgs, defaultCommandArgs),
		builtins: !cfg.NoBuiltinDenies, urlArgs: orList(cfg.URLArgs, defaultURLArgs)}
	h.pathSet, h.urlSet = nonNilSet(h.pathArgs), nonNilSet(h.urlArgs)
	for i, r := range cfg.Roots {
		if r == "" {
			return nil, fmt.Errorf("field Roots[%d] is empty", i)
		}
	}
	for i, p := range cfg.DenyCommands {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("field DenyCommands[%d]: %w", i, err)
		}
		h.deny = append(h.deny, re)
		h.denySrc = append(h.denySrc, p)
	}
	if cfg.AllowHosts != nil {
		h.hosts = []string{}
		for i, a := range cfg.AllowHosts {
			a = strings.ToLower(strings.TrimSuffix(a, "."))
			if a == "" || a == "*." || strings.ContainsAny(a, "/: ") && net.ParseIP(a) == nil {
				return nil, fmt.Errorf("field AllowHosts[%d] %q: want a host name, *.domain or an IP address", i, cfg.AllowHosts[i])
			}
			h.hosts = append(h.hosts, a)
		}
	}
	return h, nil
}

func orList(l, def []string) []string {
	if l == nil {
		return def
	}
	return l
}

func (h *sandbox) Name() string { return h.name }

func (h *sandbox) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	if reason := h.checkPaths(c, call); reason != "" {
		return hooks.Refuse(reason), nil
	}
	if h.shellTools.has(call.Name) {
		for _, k := range h.commandArgs {
			cmd, ok := call.Arguments[k].(string)
			if !ok {
				continue
			}
			if rule := deniedCommand(cmd, h.builtins, h.deny, h.denySrc); rule != "" {
				return hooks.Refuse(fmt.Sprintf("Sandbox: the command in %q is not allowed (%s). Do not run it; find a safer way or ask the user.", k, rule)), nil
			}
			if h.hosts != nil {
				for _, u := range urlInText.FindAllString(cmd, -1) {
					if reason := h.checkURL(k, u); reason != "" {
						return hooks.Refuse(reason), nil
					}
				}
			}
		}
	}
	if h.hosts != nil && anyKey(call.Arguments, h.urlSet) {
		for _, k := range h.urlArgs {
			for _, u := range stringsOf(call.Arguments[k]) {
				if reason := h.checkURL(k, u); reason != "" {
					return hooks.Refuse(reason), nil
				}
			}
		}
	}
	return nil, nil
}

// stringsOf returns v's strings: v itself, or the strings of a list.
func stringsOf(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	case []string:
		return x
	}
	return nil
}

// checkPaths returns why a path argument of call is outside the roots, or "".
func (h *sandbox) checkPaths(c *hooks.Context, call hooks.ToolCall) string {
	if !anyKey(call.Arguments, h.pathSet) {
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
	for _, k := range h.pathArgs {
		for _, p := range stringsOf(call.Arguments[k]) {
			p = strings.TrimPrefix(p, "file://")
			if strings.HasPrefix(p, "~") {
				return fmt.Sprintf("Sandbox: the path %q in %q starts with ~: give a path inside %s.", p, k, strings.Join(roots, ", "))
			}
			rp, err := resolvePath(absUnder(c.Workdir, p))
			if err != nil {
				return fmt.Sprintf("Sandbox: the path %q in %q cannot be resolved (%v).", p, k, err)
			}
			inside := false
			for _, r := range resolvedRoots {
				if within(rp, r) {
					inside = true
					break
				}
			}
			if !inside {
				return fmt.Sprintf("Sandbox: the path %q in %q is outside the allowed directories (%s). Use a path inside them.", p, k, strings.Join(roots, ", "))
			}
		}
	}
	return ""
}

// absUnder returns p made absolute against dir (the process's directory
// when dir is empty too).
func absUnder(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	if dir == "" {
		dir, _ = filepath.Abs(".")
	} else if !filepath.IsAbs(dir) {
		dir, _ = filepath.Abs(dir)
	}
	return dir + string(filepath.Separator) + p // not Join: it would clean ".." before links are seen
}

// checkURL returns why the URL (or bare host) u in argument k is not
// allowed, or "".
func (h *sandbox) checkURL(k, u string) string {
	host := u
	if strings.Contains(u, "://") {
		parsed, err := url.Parse(u)
		if err != nil || parsed.Hostname() == "" {
			return fmt.Sprintf("Sandbox: the URL %q in %q cannot be read, so it is not allowed.", u, k)
		}
		host = parsed.Hostname()
	} else if hp, _, err := net.SplitHostPort(u); err == nil {
		host = hp
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if h.hostAllowed(host) {
		return ""
	}
	return fmt.Sprintf("Sandbox: the host %q (in %q) is not in the allowed hosts (%s).", host, k, strings.Join(h.hosts, ", "))
}

func (h *sandbox) hostAllowed(host string) bool {
	for _, a := range h.hosts {
		if suffix, ok := strings.CutPrefix(a, "*."); ok {
			if strings.HasSuffix(host, "."+suffix) {
				return true
			}
		} else if host == a {
			return true
		}
	}
	return false
}

// nonNilSet is names as a set, empty (matching nothing) when names is.
func nonNilSet(names []string) toolSet {
	s := make(toolSet, len(names))
	for _, n := range names {
		s[n] = true
	}
	return s
}

// anyKey reports whether args has a key in set.
func anyKey(args map[string]any, set toolSet) bool {
	for k := range args {
		if set[k] {
			return true
		}
	}
	return false
}
