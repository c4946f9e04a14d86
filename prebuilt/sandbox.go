package prebuilt

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/rienda/hooks"
)

// SandboxConfig configures Sandbox. Each of its three checks is on when
// its list is set (or, for paths, when the run has a Workdir).
//
// Names of tools and arguments match as a tool's JSON decoder matches
// them: without regard to case, dashes or underscores ("Shell" is the
// tool shell, "Command" the argument command), loudly: the first call
// that needs it reports a diagnostic. A list set here replaces its
// default (nil keeps it); the Extra lists add to the defaults instead.
type SandboxConfig struct {
	Name string // "": "sandbox"
	// Roots are the directories file paths must stay in. nil: the run's
	// Workdir (no path check when that is empty too). Relative roots, and
	// relative paths in calls, are taken from the run's Workdir.
	Roots []string
	// PathArgs are the arguments that hold file paths (a string or a list
	// of strings), in every tool; nil: path, paths, file, file_path,
	// filePath, filename, dir, directory, cwd, workdir, source,
	// destination, target, target_file, notebook_path, src, dst.
	PathArgs []string
	// ShellTools are the tools whose CommandArgs are shell commands; nil:
	// shell, bash, Bash, sh, exec, exec_command, run_command,
	// run_shell_command, run_terminal_cmd, terminal, execute_command,
	// execute_bash (the names common agents give their shell tool).
	ShellTools []string
	// CommandArgs are the arguments that hold the command (a string the
	// shell reads, or a list of strings run as argv); nil: command, cmd,
	// script, argv.
	CommandArgs []string
	// ExtraPathArgs, ExtraShellTools, ExtraCommandArgs and ExtraURLArgs
	// add to the lists above (to their defaults when those are nil).
	ExtraPathArgs, ExtraShellTools, ExtraCommandArgs, ExtraURLArgs []string
	// DenyCommands are more regexps a command must not match (Go's RE2
	// syntax), beside the built-in rules, tried on the raw text and on
	// each command that will run, its words joined by blanks. The
	// built-in rules: rm -r, chmod -R or chown -R on /, a top-level
	// directory, ~, the work directory or above (., .., *, /*), git push
	// --force (-f, --force-with-lease, +refspec, :ref), a download piped
	// into a shell (curl … | sh, sh -c "$(curl …)"), mkfs, and dd, shred
	// or a redirection onto a device.
	DenyCommands []string
	// NoBuiltinDenies turns the built-in rules off (DenyCommands only).
	NoBuiltinDenies bool
	// AllowHosts are the network hosts calls may reach: a name
	// ("api.github.com"), "*.example.com" (its subdomains, not itself), or
	// an IP address. nil: no network check. A URL in URLArgs, and any
	// URL in a shell command's words, must name one of them.
	AllowHosts []string
	// URLArgs are the arguments that hold URLs or hosts; nil: url, uri,
	// endpoint, host.
	URLArgs []string
	// Unresolved is what happens to a command whose effect is decided
	// only when it runs ($(…) or a variable as a command name, a script
	// from a variable or a download, a target from xargs): refuse it
	// (RefuseUnresolved, the default) or ask a person (AskUnresolved,
	// through Context.Confirm). It is never allowed unasked.
	Unresolved UnresolvedAction
}

// UnresolvedAction is what the Sandbox does with a command it cannot
// judge before it runs.
type UnresolvedAction int

const (
	// RefuseUnresolved refuses it, with the reason.
	RefuseUnresolved UnresolvedAction = iota
	// AskUnresolved asks a person (Context.Confirm; Host.AutoApprove
	// answers when nobody can be asked).
	AskUnresolved
)

var (
	defaultPathArgs = []string{"path", "paths", "file", "file_path", "filePath", "filename", "dir", "directory",
		"cwd", "workdir", "source", "destination", "target", "target_file", "notebook_path", "src", "dst"}
	defaultShellTools = []string{"shell", "bash", "Bash", "sh", "exec", "exec_command", "run_command", "run_shell_command",
		"run_terminal_cmd", "terminal", "execute_command", "execute_bash"}
	defaultCommandArgs = []string{"command", "cmd", "script", "argv"}
	defaultURLArgs     = []string{"url", "uri", "endpoint", "host"}
	urlInText          = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^\s'"<>|;&)]+`)
)

// Sandbox returns a hook that refuses tool calls that reach outside what
// the config allows, with a reason that names the argument and the rule:
//   - a file path (PathArgs, and file: URLs in them) outside Roots,
//     judged on where the OS would take it: symbolic links are followed
//     element by element, and ".." after them (also after a directory
//     that does not exist yet and a tool would create), so neither a link
//     nor "../" gets out;
//   - a shell command (CommandArgs of ShellTools: a string, or an argv
//     list) that a deny rule matches, judged on what the shell will run:
//     it is parsed by a real shell parser (mvdan.cc/sh), and every simple
//     command of it is judged, through pipelines, lists, subshells,
//     substitutions, bash -c, eval, here-strings and wrappers (sudo, env,
//     nice, timeout, xargs, find -exec …), with targets canonicalised;
//   - a URL or host (URLArgs, and URLs in shell commands) not in
//     AllowHosts.
//
// A command it cannot parse is refused; one whose effect is decided only
// when it runs is refused or asked about (Unresolved).
//
// What it is not: an OS sandbox. It judges what a tool is asked to run,
// before it runs; it cannot see what a program does once allowed (a
// script file that deletes files, a tool that follows a link it creates
// after the check, a program that opens sockets itself). Use an OS
// sandbox (a container, a VM, seccomp, a separate user) too where it
// matters.
func Sandbox(cfg SandboxConfig) hooks.Hook {
	h, err := newSandbox(cfg)
	mustValid("Sandbox", err)
	return h
}

type sandbox struct {
	name          string
	roots         []string // as given; resolved per call against the Workdir
	pathArgs      names
	urlArgs       names
	commandArgs   names
	shellTools    names
	shellReplaced bool // ShellTools replaced the defaults
	pathReplaced  bool
	builtins      bool
	deny          []*regexp.Regexp
	denySrc       []string
	hosts         []string // nil: no network check
	unresolved    UnresolvedAction
}

// names is a list of tool or argument names, as given and by their
// ArgumentName forms.
type names struct {
	list  []string
	exact map[string]bool
	fold  map[string]string // ArgumentName form → the (first) name as configured
}

func newNames(list, def, extra []string) names {
	l := slices.Concat(orList(list, def), extra)
	n := names{list: l, exact: make(map[string]bool, len(l)), fold: make(map[string]string, len(l))}
	for _, x := range l {
		n.exact[x] = true
		if _, dup := n.fold[hooks.ArgumentName(x)]; !dup {
			n.fold[hooks.ArgumentName(x)] = x
		}
	}
	return n
}

// match returns the configured name that key is (exactly, or as a
// decoder reads it), and whether it is one.
func (n names) match(key string) (string, bool) {
	if n.exact[key] {
		return key, true
	}
	name, ok := n.fold[hooks.ArgumentName(key)]
	return name, ok
}

func newSandbox(cfg SandboxConfig) (*sandbox, error) {
	h := &sandbox{name: orName(cfg.Name, "sandbox"), roots: cfg.Roots,
		pathArgs: newNames(cfg.PathArgs, defaultPathArgs, cfg.ExtraPathArgs), urlArgs: newNames(cfg.URLArgs, defaultURLArgs, cfg.ExtraURLArgs),
		commandArgs:   newNames(cfg.CommandArgs, defaultCommandArgs, cfg.ExtraCommandArgs),
		shellTools:    newNames(cfg.ShellTools, defaultShellTools, cfg.ExtraShellTools),
		shellReplaced: cfg.ShellTools != nil, pathReplaced: cfg.PathArgs != nil,
		builtins: !cfg.NoBuiltinDenies, unresolved: cfg.Unresolved}
	if cfg.Unresolved != RefuseUnresolved && cfg.Unresolved != AskUnresolved {
		return nil, fmt.Errorf("field Unresolved: unknown value %d", int(cfg.Unresolved))
	}
	for field, l := range map[string][]string{"ShellTools": cfg.ShellTools, "CommandArgs": cfg.CommandArgs, "PathArgs": cfg.PathArgs, "URLArgs": cfg.URLArgs} {
		if l != nil && len(l) == 0 {
			return nil, fmt.Errorf("field %s is empty: it would replace the defaults with nothing (nil keeps them)", field)
		}
		for i, x := range l {
			if strings.TrimSpace(x) == "" {
				return nil, fmt.Errorf("field %s[%d] is empty", field, i)
			}
		}
	}
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
	var unresolved []string
	if h.isShell(c, call.Name) {
		reason, unres := h.checkCommands(c, call)
		if reason != "" {
			return hooks.Refuse(reason), nil
		}
		unresolved = unres
	}
	if h.hosts != nil {
		for _, k := range sortedArgKeys(call.Arguments) {
			if _, ok := h.urlArgs.match(k); !ok {
				continue
			}
			vals, ok := stringsOf(call.Arguments[k])
			if !ok {
				return hooks.Refuse(shapeReason(k, call.Arguments[k], "a URL or host")), nil
			}
			for _, u := range vals {
				if reason := h.checkURL(k, u); reason != "" {
					return hooks.Refuse(reason), nil
				}
			}
		}
	}
	if len(unresolved) > 0 {
		return h.onUnresolved(c, call, unresolved)
	}
	return nil, nil
}

// onUnresolved refuses or asks about a command that cannot be judged.
func (h *sandbox) onUnresolved(c *hooks.Context, call hooks.ToolCall, why []string) (*hooks.ToolCallPatch, error) {
	reason := fmt.Sprintf("Sandbox: the command cannot be judged before it runs: %s. Write it so that what runs is plain (no $(…) or variables where a command or script goes, no script piped into a shell).", strings.Join(why, "; "))
	if h.unresolved == AskUnresolved {
		data, _ := hooks.EncodeArguments(call.Arguments)
		ok := c.Confirm(hooks.Prompt{Title: fmt.Sprintf("Run this %s command? The sandbox cannot judge it.", call.Name), Body: data + "\n\n" + strings.Join(why, "\n")})
		if err := c.Err(); err != nil {
			return nil, err
		}
		if ok {
			return nil, nil
		}
		reason = "Sandbox: the user did not approve a command the sandbox cannot judge (" + strings.Join(why, "; ") + ")."
	}
	return hooks.Refuse(reason), nil
}

// stringsOf returns v's strings: v itself, or the strings of a list; ok
// is false for any other shape (a number, an object, a list holding
// one), which a policy refuses rather than skips. nil (JSON null) is no
// value.
func stringsOf(v any) ([]string, bool) {
	switch x := v.(type) {
	case nil:
		return nil, true
	case string:
		return []string{x}, true
	case []string:
		return x, true
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

// shapeReason is the refusal of an argument of a shape the policy cannot
// read.
func shapeReason(k string, v any, want string) string {
	return fmt.Sprintf("Sandbox: the argument %q is %s, not %s (a string or a list of strings): it cannot be judged, so it is not allowed.", k, describe(v), want)
}

// sortedArgKeys are args' keys in order, so the first refusal is the
// same every time.
func sortedArgKeys(args map[string]any) []string {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
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

// homeDir is the home directory "~" and $HOME stand for in commands.
func homeDir(c *hooks.Context) string {
	if c.Env != nil {
		if h := c.Env["HOME"]; h != "" {
			return h
		}
	}
	h, _ := os.UserHomeDir()
	return h
}
