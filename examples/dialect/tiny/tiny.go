// Package tiny is a complete command-hook dialect written on package
// dialect alone, as one would write it outside this repository: a
// settings file names commands for three events, each reads JSON on stdin
// and prints a decision.
//
//	{"hooks": {
//	  "beforeTool": [{"matcher": "shell", "command": "./guard.sh", "timeout": 5}],
//	  "afterTool":  [{"command": "./log.sh"}],
//	  "stop":       [{"command": "./tests-pass.sh"}]}}
//
// beforeTool reads {"tool": …, "args": …} and may print {"decision":
// "deny", "reason": …} or {"args": {…}} (rewritten arguments); exit 2
// denies with stderr as the reason. afterTool reads the result too and
// may print {"text": …}. stop reads the reply and may print {"decision":
// "continue", "reason": …} to send the run on.
package tiny

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// Option configures Hooks: ToolNames, NamePrefix, Diagnostics.
type Option = dialect.Option

// ToolNames shows the host's tools to the scripts by other names.
func ToolNames(names map[string]string) Option { return dialect.ToolNames(names) }

// NamePrefix sets what the hooks' names start with (default "tiny:").
func NamePrefix(prefix string) Option { return dialect.NamePrefix(prefix) }

// Diagnostics receives the load-time diagnostics.
func Diagnostics(fn func(hooks.Diagnostic)) Option { return dialect.Diagnostics(fn) }

// spec is the dialect's table: its events, their input and how their
// output decides.
var spec = &dialect.Spec{
	Name:   "Tiny",
	Prefix: "tiny:",
	Events: []dialect.Event{
		{Name: "beforeTool", When: dialect.ToolCall, Input: toolInput, Decide: decide},
		{Name: "afterTool", When: dialect.AnyToolResult, Input: toolInput, Decide: decide},
		{Name: "stop", When: dialect.FinalReply, Input: replyInput, Decide: decide},
	},
}

// input is what a handler reads on stdin.
type input struct {
	dialect.Common
	Tool   string         `json:"tool,omitempty"`
	Args   map[string]any `json:"args,omitempty"`
	Result *string        `json:"result,omitempty"`
	Reply  *string        `json:"reply,omitempty"`
	Active bool           `json:"active,omitempty"`
}

func toolInput(c *hooks.Context, at *dialect.At) (any, error) {
	in := input{Common: dialect.CommonOf(c, at), Tool: at.Tool, Args: at.Call.Arguments}
	if at.Result != nil {
		in.Result = &at.Result.Text
	}
	return in, nil
}

func replyInput(c *hooks.Context, at *dialect.At) (any, error) {
	return input{Common: dialect.CommonOf(c, at), Reply: &at.Response.Text, Active: at.Active}, nil
}

// output is what a handler may print.
type output struct {
	Decision string         `json:"decision"`
	Reason   string         `json:"reason"`
	Args     map[string]any `json:"args"`
	Text     *string        `json:"text"`
}

var outputKeys = []string{"decision", "reason", "args", "text"}

// decide reads a handler's output: exit 2 denies with stderr; exit 0 with
// a JSON object decides by its exact keys; anything else decides nothing
// (the kit diagnoses a non-zero exit, and refuses a call whose output
// evidently refuses, or is too large to read).
func decide(c *hooks.Context, at *dialect.At, r *dialect.Result) (dialect.Decision, error) {
	if r.ExitCode == 2 {
		return dialect.Decision{Block: true, Reason: r.Stderr}, nil
	}
	text := strings.TrimSpace(string(r.Stdout))
	if r.ExitCode != 0 || text == "" {
		return dialect.Decision{}, nil
	}
	var o output
	unknown, err := dialect.Decode([]byte(text), &o)
	if err != nil {
		return dialect.Decision{}, err
	}
	dialect.Unknown(c, "Tiny hook "+r.Handler.Where, unknown, outputKeys)
	d := dialect.Decision{Reason: o.Reason, Arguments: o.Args, Text: o.Text}
	switch o.Decision {
	case "", "allow":
	case "deny", "continue":
		d.Block = true
	default:
		return d, fmt.Errorf("unknown decision %q%s", o.Decision, dialect.DidYouMean(o.Decision, []string{"allow", "deny", "continue"}))
	}
	return d, nil
}

// handlerConfig is one handler as written.
type handlerConfig struct {
	Matcher *string  `json:"matcher"`
	Command *string  `json:"command"`
	Timeout *float64 `json:"timeout"`
}

// Hooks returns the hooks of a Tiny settings file, one per event with
// handlers, named "tiny:<event>". A malformed entry is an error naming
// its line and path; an unknown event or key is a load-time diagnostic
// with the name it resembles.
func Hooks(settings []byte, opts ...Option) ([]hooks.Hook, error) {
	o, err := dialect.NewOptions(spec, opts)
	if err != nil {
		return nil, err
	}
	handlers, err := load(settings, o)
	if err != nil {
		return nil, err
	}
	return dialect.Build(spec, o, handlers), nil
}

// CheckToolNames is, for a linter, each matcher and ToolNames key that
// names no tool of tools.
func CheckToolNames(settings []byte, tools []string, opts ...Option) ([]error, error) {
	o, err := dialect.NewOptions(spec, append(opts, Diagnostics(func(hooks.Diagnostic) {})))
	if err != nil {
		return nil, err
	}
	handlers, err := load(settings, o)
	if err != nil {
		return nil, err
	}
	return dialect.NewToolCheck(spec, o, handlers).Problems(tools), nil
}

// load reads the handlers of each event.
func load(settings []byte, o *dialect.Options) (map[string][]*dialect.Handler, error) {
	s := dialect.NewSettings("tiny: Tiny settings", o.File, settings, o.Diagnostics)
	events, _, ok, err := s.Top(nil)
	if err != nil || !ok {
		return nil, err
	}
	out := map[string][]*dialect.Handler{}
	for _, ev := range sortedKeys(events) {
		path := "hooks." + ev
		if !s.Event(path, ev, spec.EventNames(), nil) {
			continue
		}
		var list []json.RawMessage
		if err := json.Unmarshal(events[ev], &list); err != nil {
			return nil, s.Errorf(path, "must be a list of handlers")
		}
		for i, raw := range list {
			hp := fmt.Sprintf("%s[%d]", path, i)
			var cfg handlerConfig
			if err := s.Object(hp, raw, &cfg, `{"command": "…"}`); err != nil {
				return nil, err
			}
			if cfg.Command == nil || strings.TrimSpace(*cfg.Command) == "" {
				return nil, s.Errorf(hp+".command", "missing or empty")
			}
			h := &dialect.Handler{Where: fmt.Sprintf("%s[%d]", ev, i), Argv: []string{"sh", "-c", *cfg.Command}, Timeout: 30 * time.Second}
			if cfg.Timeout != nil {
				if *cfg.Timeout <= 0 || *cfg.Timeout > 3600 {
					return nil, s.Errorf(hp+".timeout", "must be a number of seconds from 0 to 3600, not %v", *cfg.Timeout)
				}
				h.Timeout = time.Duration(*cfg.Timeout * float64(time.Second))
			}
			if cfg.Matcher != nil {
				m, err := dialect.NewMatcher(hp+".matcher", *cfg.Matcher, dialect.NamesOrPattern)
				if err != nil {
					return nil, s.Errorf(hp+".matcher", "%q is not a regular expression", *cfg.Matcher)
				}
				h.Matcher = m
			}
			out[ev] = append(out[ev], h)
		}
	}
	return out, nil
}

func sortedKeys(m map[string]json.RawMessage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
