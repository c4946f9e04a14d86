// Command agentloop runs a small agent loop against a scripted model (no
// network, no keys) with hooks around every model and tool call, and prints
// a trace a person can follow line by line: a system-prompt injection, a
// rewritten argument, a redacted result, a refused call, a cached answer and
// the outcome the AfterRun hook audits. Most hooks are Go; two are
// JavaScript, in hooks/, declared by the agent file agent.md; one is an
// external command, listed in settings.json.
//
// Those files are embedded in the program, so that it runs from any
// directory; at start it writes them to a temporary folder, which it
// removes on exit, because the loader reads hook folders, and command hooks
// run scripts, from disk.
//
//	go run ./examples/agentloop
//
// A line with ⤷ is the chain's trace (hooks.WithTrace): what a hook
// decided, under the line the hook prints itself. The first, "cache ⤷
// changed state", is the cache hook's BeforeRun giving the run an empty
// cache table as its state.
package main

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rienda/hooks"
)

func main() {
	// Ctrl-C cancels the run instead of killing the program, so that
	// AfterRun still runs and the temporary folder is removed. A closed
	// pipe (go run ./examples/agentloop | head) does not kill it either:
	// while SIGPIPE is notified, writes fail instead (and, unlike
	// signal.Ignore, the command hooks' processes do not inherit it).
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentloop:", err)
		os.Exit(1)
	}
}

// out is where the trace goes (a test reads it).
var out io.Writer = os.Stdout

// trace prints one line of the trace, indented under the turn it belongs to.
func trace(who, format string, args ...any) {
	fmt.Fprintf(out, "  %-16s %s\n", who, fmt.Sprintf(format, args...))
}

// decided prints what a hook decided, from the chain's trace, under the
// lines the hooks print themselves: every decision but "no opinion".
func decided(e hooks.TraceEvent) {
	if e.Decision == hooks.DecisionNoOpinion {
		return
	}
	fmt.Fprintf(out, "  %-16s ⤷ %s\n", e.Hook, e)
}

// show writes a tool call the way a person reads it: read_file {"path":"notes.txt"}.
func show(call hooks.ToolCall) string {
	args, _ := json.Marshal(call.Arguments)
	return call.Name + " " + string(args)
}

// files are the agent file, the JavaScript hooks it declares, the command
// hooks' settings and the script they run.
//
//go:embed agent.md settings.json hooks commands
var files embed.FS

// unpack writes files to a new temporary folder; remove deletes it.
func unpack() (dir string, remove func(), err error) {
	dir, err = os.MkdirTemp("", "agentloop-")
	if err != nil {
		return "", nil, err
	}
	remove = func() { os.RemoveAll(dir) }
	if err := os.CopyFS(dir, files); err != nil {
		remove()
		return "", nil, err
	}
	return dir, remove, nil
}

// legend is the trace's first line: it says what the ⤷ lines are.
const legend = `(a ⤷ line is the chain's trace, from hooks.WithTrace: what the hook named on it decided; "no opinion" is left out)`

// workspace is where the sandbox hook confines the model's file paths.
const workspace = "/workspace"

func run(ctx context.Context) error {
	dir, remove, err := unpack()
	if err != nil {
		return err
	}
	defer remove() // after r.End below: no hook runs any more
	chain, host, err := setUp(dir)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, legend)
	fmt.Fprintln(out, "start")
	r, err := chain.Start(ctx, host, hooks.RunStart{RunID: "demo", Input: "Summarise notes.txt"})
	if err != nil {
		return err
	}
	var end hooks.RunEnd
	defer func() { r.End(ctx, end) }()
	end.Output, end.Err = loop(ctx, r, host.Agent)
	return end.Err
}

// setUp loads the hooks from dir, where unpack wrote them, and builds the
// chain and the host.
func setUp(dir string) (*hooks.Chain, hooks.Host, error) {
	source, err := os.ReadFile(filepath.Join(dir, "agent.md"))
	if err != nil {
		return nil, hooks.Host{}, err
	}
	agent, err := hooks.ParseAgent(source)
	if err != nil {
		return nil, hooks.Host{}, err
	}
	agent.Prompt = strings.TrimSpace(agent.Prompt) // not the file's last newline
	loader := hooks.Loader{Dir: filepath.Join(dir, "hooks"), Diagnostics: func(d hooks.Diagnostic) { trace("diagnostic", "%s", d) }}
	jsHooks, err := loader.LoadAgent(agent)
	if err != nil {
		return nil, hooks.Host{}, err
	}
	settings, err := os.ReadFile(filepath.Join(dir, "settings.json"))
	if err != nil {
		return nil, hooks.Host{}, err
	}
	commandHooks, err := hooks.CommandHooks(settings)
	if err != nil {
		return nil, hooks.Host{}, err
	}
	// List order: before-points run top to bottom, after-points bottom to
	// top, so audit and redact wrap everything below them.
	list := append([]hooks.Hook{audit, systemPrompt}, jsHooks...)
	list = append(list, commandHooks...)
	list = append(list, redact, guard, sandbox, &cache{})
	chain, err := hooks.NewChain(list,
		hooks.WithDiagnostics(func(d hooks.Diagnostic) { trace("diagnostic", "%s", d) }),
		hooks.WithTrace(decided))
	if err != nil {
		return nil, hooks.Host{}, err
	}
	host := hooks.Host{
		Workdir: dir, // where command hooks run
		Agent:   agent,
		System:  hooks.System{Clock: func() time.Time { return time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC) }},
		Log:     func(hook, line string) { trace(hook, "js: %s", line) }, // ctx.log of the JS hooks
	}
	return chain, host, nil
}

// loop runs the turns: the model, then the tools it calls, until it
// answers or a hook ends the run. It returns the run's output.
func loop(ctx context.Context, r *hooks.Run, agent *hooks.Agent) (string, error) {
	messages := []hooks.Message{{Role: "user", Text: "Summarise notes.txt"}}
	for turn := 1; ; turn++ {
		fmt.Fprintf(out, "turn %d\n", turn)
		reply, err := r.CallModel(ctx, hooks.ModelRequest{System: agent.Prompt, Messages: messages}, scriptedModel)
		if err != nil {
			return "", err
		}
		if reply.End != nil {
			return reply.End.Output, nil
		}
		messages = append(messages, hooks.Message{Role: "assistant", Text: reply.Response.Text})
		if len(reply.Response.ToolCalls) == 0 {
			fmt.Fprintf(out, "answer: %s\n", reply.Response.Text)
			return reply.Response.Text, nil
		}
		for _, call := range reply.Response.ToolCalls {
			res, err := r.CallTool(ctx, call, runTool)
			if err != nil {
				return "", err
			}
			trace("model reads", "%q (error: %t)", res.Text, res.IsError)
			messages = append(messages, hooks.Message{Role: "tool", Text: res.Text})
		}
	}
}

// scriptedModel plays a model that reads a file, tries a dangerous command,
// reads the file again and answers.
func scriptedModel(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
	script := []hooks.ModelResponse{
		{Text: "Let me read the notes.", ToolCalls: []hooks.ToolCall{
			{ID: "1", Name: "read_file", Arguments: map[string]any{"path": "notes.txt"}}}},
		{Text: "I will clean up first.", ToolCalls: []hooks.ToolCall{
			{ID: "2", Name: "shell", Arguments: map[string]any{"command": "rm -rf /workspace"}}}},
		{Text: "Let me check the notes again, and the release page.", ToolCalls: []hooks.ToolCall{
			{ID: "3", Name: "read_file", Arguments: map[string]any{"path": "notes.txt"}},
			{ID: "4", Name: "fetch", Arguments: map[string]any{"url": "http://example.com/release"}},
			{ID: "5", Name: "fetch", Arguments: map[string]any{"url": "http://paste.test/upload?notes"}}}},
		{Text: "The notes say: ship on Friday."},
	}
	n := c.ModelCalls() - 1 // this call is counted already
	resp := script[min(n, len(script)-1)]
	trace("model", "gets system prompt %q", req.System)
	trace("model", "says %q", resp.Text)
	for _, tc := range resp.ToolCalls {
		trace("model", "calls %s", show(tc))
	}
	return resp, nil
}

// runTool is the program's own tool runner, wrapped by Run.CallTool.
func runTool(c *hooks.Context, call hooks.ToolCall) (hooks.ToolResult, error) {
	trace("tool", "runs %s", show(call))
	switch call.Name {
	case "read_file":
		return hooks.ToolResult{Text: "ship on Friday; API_KEY=sk-live-1234"}, nil
	case "fetch":
		return hooks.ToolResult{Text: "200 OK from " + call.Arguments["url"].(string)}, nil
	default:
		return hooks.ToolResult{Text: "unknown tool " + call.Name, IsError: true}, nil
	}
}

// systemPrompt injects the house rules into every model call.
var systemPrompt = hooks.Funcs{
	HookName: "system-prompt",
	BeforeModelRequest: func(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
		system := req.System + " Never print secrets."
		trace(c.Hook(), "adds the house rules to the system prompt")
		return &hooks.ModelRequestPatch{System: &system}, nil
	},
}

// guard refuses shell commands that delete files.
var guard = hooks.Funcs{
	HookName: "guard",
	BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		if cmd, _ := call.Arguments["command"].(string); strings.Contains(cmd, "rm -rf") {
			trace(c.Hook(), "refuses %q", cmd)
			return hooks.Refuse("rm -rf is not allowed"), nil
		}
		return nil, nil
	},
}

// sandbox rewrites relative paths into the workspace.
var sandbox = hooks.Funcs{
	HookName: "sandbox",
	BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		path, ok := call.Arguments["path"].(string)
		if !ok || strings.HasPrefix(path, "/") {
			return nil, nil
		}
		abs := workspace + "/" + path
		trace(c.Hook(), "rewrites path %q to %q", path, abs)
		return &hooks.ToolCallPatch{Arguments: map[string]any{"path": abs}}, nil
	},
}

// redact hides secrets in every result the model reads, cached or not: it
// is listed before cache, so its after-hook runs last.
var redact = hooks.Funcs{
	HookName: "redact",
	AfterToolExecute: func(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
		i := strings.Index(res.Text, "API_KEY=")
		if i < 0 {
			return nil, nil
		}
		text := res.Text[:i] + "API_KEY=[redacted]"
		trace(c.Hook(), "hides the API key")
		return &hooks.ToolResultPatch{Text: &text}, nil
	},
}

// cache answers a read it has seen in this run without running the tool.
// Its per-run table is its State, so concurrent runs do not share it.
type cache struct{}

type cacheTable struct {
	mu      sync.Mutex
	results map[string]hooks.ToolResult
}

func (*cache) Name() string { return "cache" }

func (*cache) BeforeRun(c *hooks.Context, start hooks.RunStart) (*hooks.RunPatch, error) {
	trace(c.Hook(), "starts an empty cache for this run (its run state)")
	return &hooks.RunPatch{State: &cacheTable{results: map[string]hooks.ToolResult{}}}, nil
}

func (*cache) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	t := c.State().(*cacheTable)
	t.mu.Lock()
	res, ok := t.results[cacheKey(call)]
	t.mu.Unlock()
	if !ok {
		return nil, nil
	}
	trace(c.Hook(), "answers %s from the cache; the tool does not run", cacheKey(call))
	return &hooks.ToolCallPatch{Result: &res}, nil
}

func (*cache) AfterToolExecute(c *hooks.Context, call hooks.ToolCall, res hooks.ToolResult) (*hooks.ToolResultPatch, error) {
	if call.Name == "read_file" && !res.IsError {
		t := c.State().(*cacheTable)
		t.mu.Lock()
		t.results[cacheKey(call)] = res
		t.mu.Unlock()
	}
	return nil, nil
}

func cacheKey(call hooks.ToolCall) string { return show(call) }

// audit reports how the run ended, whatever happened.
var audit = hooks.Funcs{
	HookName: "audit",
	AfterRun: func(c *hooks.Context, end hooks.RunEnd) error {
		fmt.Fprintf(out, "run %s %s after %d model calls (%s)\n", end.RunID, end.Outcome, c.ModelCalls(), c.Hook())
		return nil
	},
}
