package prebuilt

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/rienda/hooks"
)

// AuditConfig configures Audit. With neither Handler nor Writer, records
// go to slog's default handler.
type AuditConfig struct {
	Name    string       // "": "audit"
	Handler slog.Handler // records as slog records, at level Info
	Writer  io.Writer    // records as JSON lines, one Write each (Handler wins when both are set)
	// Redactor redacts every text a record carries (arguments, reasons,
	// errors); nil: every built-in detector but url, masked. Results are recorded
	// by size, never by content.
	Redactor *Redactor
}

// Auditor is the audit hook: it records every run start and end, model
// call and tool call (with their duration, result size and outcome), and,
// through Trace, every decision of the chain's hooks that is not "no
// opinion" (a refusal, a change, an answer, an end, an error). Records
// are redacted.
//
// List it first: it then sees every tool call as the model asked for it,
// before any guard. Pass its Trace to the chain (hooks.WithTrace(a.Trace))
// so that refusals, which no after-hook sees, are recorded too. Tool and
// model calls are timed by its wraps, so they are recorded when the host
// lets the library make the calls (Run.CallTool, Run.CallModel, or
// ExecuteTool/ExecuteModel).
type Auditor struct {
	name string
	r    *Redactor
	h    slog.Handler
	mu   sync.Mutex // one line per Write
	w    io.Writer
}

// Audit returns the audit hook for cfg.
func Audit(cfg AuditConfig) *Auditor {
	a := &Auditor{name: orName(cfg.Name, "audit"), r: cfg.Redactor, h: cfg.Handler, w: cfg.Writer}
	if a.r == nil {
		a.r = defaultRedactor
	}
	if a.h == nil && a.w == nil {
		a.h = slog.Default().Handler()
	}
	return a
}

// Name returns the hook's name.
func (a *Auditor) Name() string { return a.name }

// record is one audit record: an event and its fields, in order.
func (a *Auditor) record(ctx context.Context, now time.Time, event string, attrs ...slog.Attr) {
	if a.h != nil {
		if !a.h.Enabled(ctx, slog.LevelInfo) {
			return
		}
		rec := slog.NewRecord(now, slog.LevelInfo, event, 0)
		rec.AddAttrs(attrs...)
		_ = a.h.Handle(ctx, rec) // an audit that cannot write must not fail the run
		return
	}
	a.writeLine(now, event, attrs)
}

// linePool keeps the buffers JSON lines are built in.
var linePool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// writeLine writes one JSON line: time, event, then attrs in order. It is
// built by hand, not through a map and encoding/json: an audit records
// every call, and should cost little beside it.
func (a *Auditor) writeLine(now time.Time, event string, attrs []slog.Attr) {
	bp := linePool.Get().(*[]byte)
	b := append((*bp)[:0], `{"time":"`...)
	b = now.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","event":`...)
	b = appendJSONString(b, event)
	for _, at := range attrs {
		b = append(b, ',')
		b = appendJSONString(b, at.Key)
		b = append(b, ':')
		b = appendJSONValue(b, at.Value)
	}
	b = append(b, '}', '\n')
	a.mu.Lock()
	_, _ = a.w.Write(b) // an audit that cannot write must not fail the run
	a.mu.Unlock()
	*bp = b
	linePool.Put(bp)
}

func appendJSONValue(b []byte, v slog.Value) []byte {
	switch v.Kind() {
	case slog.KindString:
		return appendJSONString(b, v.String())
	case slog.KindInt64:
		return strconv.AppendInt(b, v.Int64(), 10)
	case slog.KindFloat64:
		if f := v.Float64(); !math.IsNaN(f) && !math.IsInf(f, 0) {
			return strconv.AppendFloat(b, f, 'g', -1, 64)
		}
		return append(b, "null"...)
	case slog.KindBool:
		return strconv.AppendBool(b, v.Bool())
	}
	data, err := json.Marshal(v.Any())
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, data...)
}

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes
// U+FFFD, as encoding/json writes it.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// BeforeRun records the run's start.
func (a *Auditor) BeforeRun(c *hooks.Context, start hooks.RunStart) (*hooks.RunPatch, error) {
	a.record(c, c.System.Now(), "run.start", slog.String("run", c.RunID()), slog.Bool("resumed", start.Resumed),
		slog.String("input", a.r.Redact(start.Input)))
	return nil, nil
}

// AfterRun records the run's end.
func (a *Auditor) AfterRun(c *hooks.Context, end hooks.RunEnd) error {
	a.record(c, c.System.Now(), "run.end", slog.String("run", c.RunID()), slog.String("outcome", string(end.Outcome)),
		slog.String("reason", a.r.Redact(end.Reason)), slog.Int("modelCalls", c.ModelCalls()))
	return nil
}

// BeforeToolExecute records the call as the model asked for it.
func (a *Auditor) BeforeToolExecute(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
	a.record(c, c.System.Now(), "tool.request", slog.String("run", c.RunID()), slog.String("tool", call.Name),
		slog.String("callId", call.ID), slog.String("arguments", a.args(call.Arguments)))
	return nil, nil
}

// WrapTool times the tool call and records its outcome.
func (a *Auditor) WrapTool(c *hooks.Context, call hooks.ToolCall, next hooks.ToolFunc) (hooks.ToolResult, error) {
	t0 := time.Now()
	res, err := next(c, call)
	attrs := []slog.Attr{slog.String("run", c.RunID()), slog.String("tool", call.Name), slog.String("callId", call.ID),
		slog.Float64("durationMs", ms(time.Since(t0))), slog.Int("resultBytes", resultSize(res)), slog.Bool("isError", res.IsError)}
	if c.Rewritten() {
		attrs = append(attrs, slog.String("arguments", a.args(call.Arguments)))
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", a.r.Redact(err.Error())))
	}
	a.record(c, c.System.Now(), "tool.call", attrs...)
	return res, err
}

// WrapModel times the model call and records its outcome.
func (a *Auditor) WrapModel(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
	t0 := time.Now()
	resp, err := next(c, req)
	attrs := []slog.Attr{slog.String("run", c.RunID()), slog.String("model", req.Model), slog.Int("messages", len(req.Messages)),
		slog.Float64("durationMs", ms(time.Since(t0))), slog.Int64("inputTokens", resp.Usage.InputTokens),
		slog.Int64("outputTokens", resp.Usage.OutputTokens), slog.String("stopReason", string(resp.StopReason)),
		slog.Int("toolCalls", len(resp.ToolCalls)), slog.Int("replyBytes", len(resp.Text))}
	if err != nil {
		attrs = append(attrs, slog.String("error", a.r.Redact(err.Error())))
	}
	a.record(c, c.System.Now(), "model.call", attrs...)
	return resp, err
}

// Trace records one hook decision; pass it to the chain with
// hooks.WithTrace. "No opinion" is not recorded.
func (a *Auditor) Trace(e hooks.TraceEvent) {
	if e.Decision == hooks.DecisionNoOpinion {
		return
	}
	attrs := []slog.Attr{slog.String("run", e.RunID), slog.String("hook", e.Hook), slog.String("point", string(e.Point)),
		slog.String("decision", string(e.Decision))}
	if e.CallID != "" {
		attrs = append(attrs, slog.String("callId", e.CallID))
	}
	if len(e.Changed) > 0 {
		attrs = append(attrs, slog.Any("changed", e.Changed))
	}
	if e.Reason != "" {
		attrs = append(attrs, slog.String("reason", a.r.Redact(e.Reason)))
	}
	if e.Err != nil {
		attrs = append(attrs, slog.String("error", a.r.Redact(e.Err.Error())), slog.String("policy", e.Policy.String()))
	}
	a.record(context.Background(), time.Now(), "decision", attrs...)
}

// args is a call's arguments as redacted JSON. The values are redacted
// before they are encoded: in the encoding a quote is \", which a
// detector reading KEY="value" would not see as one. The encoding is
// redacted again, for a secret its field name gives away.
func (a *Auditor) args(args map[string]any) string {
	var v any = args
	if p := hooks.RewriteFields(hooks.ToolResult{Value: args}, a.r.RedactField); p != nil && p.Value != nil {
		v = p.Value
	}
	data, err := json.Marshal(v)
	if err != nil {
		return "(arguments that do not encode as JSON)"
	}
	return a.r.Redact(string(data))
}

// resultSize is what the model would read, in bytes: the text and the
// value's JSON.
func resultSize(res hooks.ToolResult) int {
	n := len(res.Text)
	if res.Value != nil {
		if data, err := json.Marshal(res.Value); err == nil {
			n += len(data)
		}
	}
	return n
}

// ms is d in milliseconds, as records carry durations.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
