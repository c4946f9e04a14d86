package hooks

import (
	"fmt"
	"log/slog"
)

// Diagnostic reports a hook's problem that did not fail the run: an error
// under Report or Block, an AfterRun error, or a broken hook at load time.
type Diagnostic struct {
	Hook  string
	Point Point // "" at load time
	Err   error
}

// String names the hook, the point (unless at load time) and the cause.
func (d Diagnostic) String() string {
	switch {
	case d.Hook == "" && d.Point == "": // about no hook: an agent file, say
		return fmt.Sprint(d.Err)
	case d.Hook == "":
		return fmt.Sprintf("at %s: %v", d.Point, d.Err)
	}
	if d.Point == "" {
		return fmt.Sprintf("hook %q: %v", d.Hook, d.Err)
	}
	return fmt.Sprintf("hook %q at %s: %v", d.Hook, d.Point, d.Err)
}

// diagnose reports d to the chain's diagnostics function, or to slog.
func (c *Chain) diagnose(d Diagnostic) {
	if c.opts.diagnostics != nil {
		c.opts.diagnostics(d)
		return
	}
	attrs := []any{"hook", d.Hook, "err", d.Err}
	if d.Point != "" {
		attrs = append(attrs, "point", string(d.Point))
	}
	if pe, ok := d.Err.(*PanicError); ok {
		attrs = append(attrs, "stack", string(pe.Stack))
	}
	slog.Warn("hook diagnostic", attrs...)
}
