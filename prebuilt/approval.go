package prebuilt

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/shell"
	"github.com/rienda/hooks/internal/suggest"
)

// Rule matches tool calls: by tool name (a name, or a path.Match glob such
// as "fs_*"; "" matches every tool) and by arguments (each named argument,
// as text, must match its regexp; a missing one does not match).
//
// Arguments are found as the tool's decoder finds them
// (hooks.ArgumentKeys: "Command" and "COMMAND" are command). A Require
// rule takes the call when any variant matches (a value that is not a
// string is matched as its JSON text), and its tool in any case; an
// Allow rule exempts it only when every variant is a string that
// matches, its tool named exactly, and, when the text reads as shell
// syntax, each command it runs matches on its own, with no output
// redirection and nothing decided at run time ("^ls" does not exempt
// "ls && rm -rf /").
//
// Responses, in a Require rule, narrows what a person may answer about
// the calls it takes (ApprovalConfig.Responses); an Allow rule ignores it.
type Rule struct {
	Tool      string
	Args      map[string]string
	Responses []Response
}

type rule struct {
	tool      string
	args      map[string]*regexp.Regexp
	responses responseSet
}

func compileRules(field string, rs []Rule) ([]rule, error) {
	out := make([]rule, len(rs))
	for i, r := range rs {
		if _, err := path.Match(r.Tool, ""); err != nil {
			return nil, fmt.Errorf("field %s[%d].Tool %q: %w", field, i, r.Tool, err)
		}
		out[i].tool = r.Tool
		rs, err := responsesOf(fmt.Sprintf("%s[%d].Responses", field, i), r.Responses)
		if err != nil {
			return nil, err
		}
		out[i].responses = rs
		for _, k := range sortedKeys(r.Args) {
			re, err := regexp.Compile(r.Args[k])
			if err != nil {
				return nil, fmt.Errorf("field %s[%d].Args[%q]: %w", field, i, k, err)
			}
			if out[i].args == nil {
				out[i].args = make(map[string]*regexp.Regexp)
			}
			out[i].args[k] = re
		}
	}
	return out, nil
}

// requires reports whether the rule, as a Require rule, takes the call:
// the tool's name in any case, and each argument found as a tool's
// decoder finds it (hooks.ArgumentKeys: "Command" is command), one of its
// variants matching (a value that is not a string as JSON text).
func (r rule) requires(call hooks.ToolCall) bool {
	if r.tool != "" {
		if ok, _ := path.Match(strings.ToLower(r.tool), strings.ToLower(call.Name)); !ok {
			return false
		}
	}
	for k, re := range r.args {
		keys := hooks.ArgumentKeys(call.Arguments, k)
		if !slices.ContainsFunc(keys, func(key string) bool {
			v := call.Arguments[key]
			if re.MatchString(argText(v)) {
				return true
			}
			s, ok := v.(string)
			return ok && anyCommandMatches(re, s)
		}) {
			return false
		}
	}
	return true
}

// anyCommandMatches: s read as a shell reads it runs a command that
// matches re (its words as the program receives them: "r"m -rf / is
// rm -rf /, sudo rm is rm), or runs something the parser cannot read
// or that is decided only when it runs: a Require rule takes it, as a
// model must not talk its way past one by spelling.
func anyCommandMatches(re *regexp.Regexp, s string) bool {
	script, err := shell.Parse(s, shell.Config{})
	if err != nil || len(script.Unresolved) > 0 {
		return true
	}
	for _, c := range script.Commands {
		words := make([]string, len(c.Args))
		for i, w := range c.Args {
			words[i] = w.Text
		}
		line := strings.Join(words, " ")
		if re.MatchString(line) || len(c.Args) > 0 && re.MatchString(strings.Join(append([]string{c.Name()}, words[1:]...), " ")) {
			return true // also as the program's name alone: /bin/rm is rm
		}
	}
	return false
}

// allows reports whether the rule, as an Allow rule, exempts the call:
// the tool's exact name, and every variant of each argument a string
// that matches, as a whole and, when it reads as several shell commands,
// command by command: "ls && rm -rf /" is not exempted by "^ls". Text the
// shell cannot read plainly (a substitution, a parse error) is not
// exempted.
func (r rule) allows(call hooks.ToolCall) bool {
	if r.tool != "" {
		if ok, _ := path.Match(r.tool, call.Name); !ok {
			return false
		}
	}
	for k, re := range r.args {
		keys := hooks.ArgumentKeys(call.Arguments, k)
		if len(keys) == 0 {
			return false
		}
		for _, key := range keys {
			s, ok := call.Arguments[key].(string)
			if !ok || !re.MatchString(s) || !eachCommandMatches(re, s) {
				return false
			}
		}
	}
	return true
}

// eachCommandMatches: s read as a shell reads it is commands that each
// match re (a text with no shell syntax is one command: itself).
func eachCommandMatches(re *regexp.Regexp, s string) bool {
	if !strings.ContainsAny(s, ";&|`$()<>{}\n\\'\"*?[~#=") {
		return true // plain words: one command, the text already matched
	}
	script, err := shell.Parse(s, shell.Config{})
	if err != nil || len(script.Unresolved) > 0 {
		return false
	}
	if len(script.Commands) <= 1 && !strings.ContainsAny(s, ";&|`$()<>") {
		return true
	}
	for _, c := range script.Commands {
		for _, r := range c.Redirs {
			if strings.Contains(r.Op, ">") {
				return false // it writes a file the pattern does not name
			}
		}
		words := make([]string, len(c.Args))
		for i, w := range c.Args {
			words[i] = w.Text
		}
		if !re.MatchString(strings.Join(words, " ")) {
			return false
		}
	}
	return true
}

// argText is an argument as text: a string as it is, anything else as
// JSON.
func argText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	data, _ := json.Marshal(v)
	return string(data)
}

func requiresAny(rs []rule, call hooks.ToolCall) bool {
	for _, r := range rs {
		if r.requires(call) {
			return true
		}
	}
	return false
}

func allowsAny(rs []rule, call hooks.ToolCall) bool {
	for _, r := range rs {
		if r.allows(call) {
			return true
		}
	}
	return false
}

// Unattended is what Approval does when nobody can be asked.
type Unattended int

const (
	// AskHost leaves it to the host: Context.Confirm answers
	// Host.AutoApprove when the host has no Confirm.
	AskHost Unattended = iota
	// DenyUnattended refuses the calls that need approval.
	DenyUnattended
	// ApproveUnattended lets them run.
	ApproveUnattended
)

// ApprovalConfig configures Approval.
type ApprovalConfig struct {
	Name string // "": "approval"
	// Require are the calls that need a person's approval; empty: every
	// tool call.
	Require []Rule
	// Allow are calls that never need it, even when Require matches them
	// (an allow-list: "shell" needs approval, but not `ls` or `git status`).
	Allow []Rule
	// NonInteractive is what happens when nobody can be asked: the host
	// gave neither Host.Confirm nor Host.Review (Context.Interactive is
	// false). AskHost, the
	// default, takes Host.AutoApprove's answer.
	NonInteractive Unattended
	// Prompt is the question asked; nil: "Allow <tool>?" with the
	// arguments as JSON.
	Prompt func(call hooks.ToolCall) hooks.Prompt
	// Responses are what a person may answer (Context.Review): approve,
	// edit (the tool runs with the person's arguments), reject (with a
	// message the model reads), respond (the person's result stands for
	// the tool's). nil: all four. An answer not allowed refuses the call,
	// with a diagnostic. A Require rule's Responses narrow these for the
	// calls it takes.
	Responses []Response
	// Remember keeps each answer in the run (Context.Memo), by call ID and
	// arguments, so that a call asked about once is not asked again: a
	// durable host that replays a step after a restart does not ask the
	// person twice. It needs call IDs that are unique in a run (a model's
	// are); calls without an ID are always asked.
	Remember bool
}

func (cfg ApprovalConfig) check() error {
	if cfg.NonInteractive < AskHost || cfg.NonInteractive > ApproveUnattended {
		return fmt.Errorf("field NonInteractive: unknown value %d", int(cfg.NonInteractive))
	}
	_, err := responsesOf("Responses", cfg.Responses)
	return err
}

// Approval returns a hook that asks a person (Context.Review) before each
// tool call that Require matches and Allow does not, and does what they
// decide (hooks.Verdict.Patch): approve, edit the arguments (which the
// guards listed before it check again), reject with a message the model
// reads (without one, a reason that tells the model the user said no), or
// respond instead of the tool. A host with only a Confirm answers yes or
// no. An answer that Responses does not allow refuses the call. With
// Remember, the answer is kept per call (Context.Memo, by call ID and
// arguments), so a run resumed from a snapshot does not ask twice for one
// call. A cancelled context while waiting is the call's error, not a no.
func Approval(cfg ApprovalConfig) hooks.Hook {
	mustValid("Approval", cfg.check())
	req, err := compileRules("Require", cfg.Require)
	mustValid("Approval", err)
	allow, err := compileRules("Allow", cfg.Allow)
	mustValid("Approval", err)
	responses, _ := responsesOf("Responses", cfg.Responses)
	return &approval{name: orName(cfg.Name, "approval"), require: req, allow: allow, unattended: cfg.NonInteractive,
		prompt: cfg.Prompt, remember: cfg.Remember, responses: responses}
}

type approval struct {
	name       string
	require    []rule
	allow      []rule
	unattended Unattended
	prompt     func(hooks.ToolCall) hooks.Prompt
	remember   bool
	responses  responseSet
}

func (h *approval) Name() string { return h.name }

func (h *approval) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	if len(h.require) > 0 && !requiresAny(h.require, call) {
		h.nearMiss(c, call.Name)
		return nil, nil
	}
	if allowsAny(h.allow, call) {
		return nil, nil
	}
	if !c.Interactive() {
		switch h.unattended {
		case DenyUnattended:
			return hooks.Refuse(fmt.Sprintf("This call of %q needs a person's approval, and nobody can be asked in this run. Do not call it again; go on without it.", call.Name)), nil
		case ApproveUnattended:
			return nil, nil
		}
	}
	v, err := h.review(c, call)
	if err != nil {
		return nil, err
	}
	return h.decide(c, call, v), nil
}

func (h *approval) defaultPrompt(call hooks.ToolCall) hooks.Prompt {
	data, _ := json.MarshalIndent(call.Arguments, "", "  ")
	return hooks.Prompt{Title: fmt.Sprintf("Allow %s?", call.Name), Body: string(data)}
}

// callDigest names a call's tool and arguments in a few bytes (JSON sorts
// map keys, so equal arguments give equal digests).
func callDigest(call hooks.ToolCall) string {
	data, _ := json.Marshal(call.Arguments)
	sum := sha256.Sum256(append([]byte(call.Name+"\x00"), data...))
	return hex.EncodeToString(sum[:8])
}

// nearMiss reports, once per run and tool, a call whose tool no Require
// rule names but one nearly does ("shel" for shell): a guard that never
// asks because of a typo must be loud.
func (h *approval) nearMiss(c *hooks.Context, tool string) {
	var names []string
	for _, r := range h.require {
		if r.tool != "" && !strings.ContainsAny(r.tool, "*?[") {
			names = append(names, r.tool)
		}
	}
	near, ok := suggest.Closest(tool, names)
	if !ok || strings.EqualFold(near, tool) {
		return
	}
	_, _ = c.Memo("approval:near:"+tool, func() (any, error) {
		c.Diagnose(fmt.Errorf("approval: Require names the tool %q and the call's tool is %q (did you mean %q?): the call is not asked about", near, tool, tool))
		return true, nil
	})
}
