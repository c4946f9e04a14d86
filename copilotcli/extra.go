package copilotcli

import (
	"fmt"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/dialect"
)

// errorHook runs errorOccurred entries when a run fails: an event the
// kit's table has no moment for (RunEnd fires for every outcome). Their
// output is ignored, as in Copilot CLI.
type errorHook struct {
	name     string
	pascal   bool
	handlers []*dialect.Handler
}

// Name is "<prefix>errorOccurred".
func (h *errorHook) Name() string { return h.name }

// DefaultPolicy is Report: a failure is a diagnostic.
func (h *errorHook) DefaultPolicy() hooks.Policy { return hooks.Report }

// AfterRun runs the entries for a failed run.
func (h *errorHook) AfterRun(c *hooks.Context, end hooks.RunEnd) error {
	if end.Outcome != hooks.Failed {
		return nil
	}
	msg := end.Reason
	if end.Err != nil {
		msg = end.Err.Error()
	}
	now := time.Now()
	in := map[string]any{"sessionId": c.Session.ID, "timestamp": now.UnixMilli(), "cwd": dialect.Workdir(c),
		"error": map[string]any{"message": msg, "name": "Error"}, "errorContext": "system", "recoverable": false}
	if h.pascal {
		in = map[string]any{"hook_event_name": "ErrorOccurred", "session_id": c.Session.ID,
			"timestamp": now.UTC().Format("2006-01-02T15:04:05.000Z"), "cwd": dialect.Workdir(c),
			"error": map[string]any{"message": msg, "name": "Error"}, "error_context": "system", "recoverable": false}
	}
	stdin, err := dialect.EncodeJSON(in)
	if err != nil {
		return err
	}
	for _, hd := range h.handlers {
		out, err := dialect.Exec(c, dialect.Command{Argv: hd.Argv, Dir: hd.Dir, Env: dialect.Environ(c, hd.Env),
			Stdin: stdin, Timeout: hd.Timeout, MaxOutput: hd.MaxOutput})
		if err != nil {
			return err
		}
		switch {
		case out.Err != nil:
			c.Diagnose(fmt.Errorf("copilotcli: Copilot CLI hook %s failed: %w", hd.Where, out.Err))
		case out.ExitCode != 0:
			c.Diagnose(fmt.Errorf("copilotcli: Copilot CLI hook %s exited %d: %s", hd.Where, out.ExitCode, orDefault(out.Stderr, "no stderr")))
		}
	}
	return nil
}

// unrunnableHook refuses the calls that guard entries with only a
// powershell command match, off Windows: the guard cannot run, and is
// never run as something else.
type unrunnableHook struct {
	name    string
	entries []unrunnable
	tools   dialect.ToolMap
}

// Name is "<prefix><event>(powershell)".
func (h *unrunnableHook) Name() string { return h.name }

// DefaultPolicy is Report.
func (h *unrunnableHook) DefaultPolicy() hooks.Policy { return hooks.Report }

// BeforeToolExecute refuses a call an unrunnable guard matches.
func (h *unrunnableHook) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	name := h.tools.Dialect(call.Name)
	for _, u := range h.entries {
		if u.matcher.Match(name) || u.matcher.Match(call.Name) {
			return hooks.Refuse(fmt.Sprintf("Copilot CLI hook %s cannot run here: it has only a powershell command", u.where)), nil
		}
	}
	return nil, nil
}
