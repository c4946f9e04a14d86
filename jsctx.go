package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/rienda/hooks/internal/jsrt"
)

// maxHTTPBody bounds a response body ctx.http reads into a hook.
const maxHTTPBody = 16 << 20

// newCtx builds the ctx a JavaScript hook gets: the capabilities of the Go
// Context (in.cur). It is one dynamic object whose members are made when
// the hook first reads them, so that a hook pays only for what it uses and
// preparing a runtime stays cheap.
func (in *jsInstance) newCtx() *goja.Object {
	return in.rt.NewDynamicObject(&jsCtx{in: in, c: in.cur})
}

// jsCtx is the handler of ctx.
type jsCtx struct {
	in      *jsInstance
	c       *Context              // the call it is the ctx of
	members map[string]goja.Value // made so far, and what the hook set; nil until then
}

// live returns the Context of x's call, or throws once that call has
// ended: a ctx kept past its call (a Promise job, a closure) acts for
// nobody, and never for the call the runtime serves now.
func (x *jsCtx) live() *Context {
	if x.in.cur != x.c || x.c == nil {
		panic(x.in.rt.NewTypeError("ctx of a hook call that has ended: it acts for nobody"))
	}
	return x.c
}

// keep notes the member key, making the map on the first.
func (x *jsCtx) keep(key string, v goja.Value) {
	if x.members == nil {
		x.members = make(map[string]goja.Value, 4)
	}
	x.members[key] = v
}

var jsCtxKeys = []string{"workdir", "session", "agent", "config", "env", "state", "system",
	"file", "http", "log", "confirm", "review", "notify", "memo", "parentRunId", "depth"}

func (x *jsCtx) Get(key string) goja.Value {
	if v, ok := x.members[key]; ok {
		return v
	}
	v, err := x.make(key)
	if err != nil {
		panic(x.in.rt.NewGoError(err))
	}
	if v != nil {
		x.keep(key, v)
	}
	return v
}

// make builds the member key, or returns nil for a key ctx does not have.
func (x *jsCtx) make(key string) (goja.Value, error) {
	in, rt, c := x.in, x.in.rt, x.live()
	value := func(v any) (goja.Value, error) { return jsrt.ToJS(c.base(), rt, v, nil) }
	switch key {
	case "workdir":
		return value(c.Workdir)
	case "session":
		return value(map[string]any{"id": c.Session.ID})
	case "agent":
		return value(agentJS(c.Agent))
	case "config":
		return value(orEmpty(c.Config))
	case "env":
		return value(orEmpty(c.Env))
	case "state":
		return value(c.State())
	case "system":
		return in.systemJS(c)
	case "file":
		return x.fileJS(), nil
	case "http":
		return x.httpJS(), nil
	case "log":
		return rt.ToValue(func(call goja.FunctionCall) goja.Value {
			c := x.live()
			args := make([]any, len(call.Arguments))
			for i, a := range call.Arguments {
				args[i] = in.logText(a)
			}
			c.Log(args...)
			return goja.Undefined()
		}), nil
	case "confirm":
		return rt.ToValue(func(call goja.FunctionCall) goja.Value {
			title, body := in.titleBody(call.Argument(0))
			return rt.ToValue(x.live().Confirm(Prompt{Title: title, Body: body}))
		}), nil
	case "review":
		return rt.ToValue(x.reviewJS), nil
	case "notify":
		return rt.ToValue(func(call goja.FunctionCall) goja.Value {
			title, body := in.titleBody(call.Argument(0))
			x.live().Notify(Notice{Title: title, Body: body})
			return goja.Undefined()
		}), nil
	case "memo":
		return rt.ToValue(x.memo), nil
	case "parentRunId": // "" in a root run: a hook tells a subagent's calls from it
		return rt.ToValue(c.ParentRunID()), nil
	case "depth":
		return rt.ToValue(c.Depth()), nil
	}
	return nil, nil
}

// Set lets a hook add to its ctx (the ctx of this one call).
func (x *jsCtx) Set(key string, v goja.Value) bool {
	x.keep(key, v)
	return true
}

func (x *jsCtx) Has(key string) bool {
	_, set := x.members[key]
	return set || slices.Contains(jsCtxKeys, key)
}

func (x *jsCtx) Delete(key string) bool {
	delete(x.members, key)
	return true
}

func (x *jsCtx) Keys() []string {
	keys := append([]string(nil), jsCtxKeys...)
	for k := range x.members {
		if !slices.Contains(jsCtxKeys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

func orEmpty[M ~map[string]V, V any](m M) M {
	if m == nil {
		return M{}
	}
	return m
}

func agentJS(a *Agent) any {
	if a == nil {
		return nil
	}
	return map[string]any{"name": a.Name, "description": a.Description, "model": a.Model,
		"tools": orNone(a.Tools), "hooks": orNone(a.Hooks)}
}

func orNone(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// systemJS is ctx.system: {os, arch, hostname, now()}; now() is a Date
// from the host's clock.
func (in *jsInstance) systemJS(c *Context) (goja.Value, error) {
	rt := in.rt
	o := rt.NewObject()
	_ = o.Set("os", c.System.OS)
	_ = o.Set("arch", c.System.Arch)
	_ = o.Set("hostname", c.System.Hostname)
	_ = o.Set("now", func(goja.FunctionCall) goja.Value {
		v, err := rt.New(rt.Get("Date"), rt.ToValue(c.System.Now().UnixMilli()))
		if err != nil {
			panic(err)
		}
		return v
	})
	return o, nil
}

// fileJS is ctx.file: read, write, append, exists, on the Context's Files.
// Text goes in and out as strings (UTF-8); errors throw.
func (x *jsCtx) fileJS() *goja.Object {
	o := x.in.rt.NewObject()
	files := func() Files {
		c := x.live()
		if c.Files == nil {
			return DirFiles(c.Workdir)
		}
		return c.Files
	}
	_ = o.Set("read", func(name string) (string, error) {
		var b []byte
		var err error
		if r, ok := files().(ContextReader); ok { // stops with the call
			b, err = r.ReadContext(x.live().base(), name)
		} else {
			b, err = files().Read(name)
		}
		return string(b), err
	})
	_ = o.Set("write", func(name, data string) error { return files().Write(name, []byte(data)) })
	_ = o.Set("append", func(name, data string) error { return files().Append(name, []byte(data)) })
	_ = o.Set("exists", func(name string) (bool, error) { return files().Exists(name) })
	return o
}

// jsHTTPRequest is what ctx.http.request takes.
type jsHTTPRequest struct {
	Method    string            `json:"method"`
	URL       string            `json:"url"`
	Headers   map[string]string `json:"headers"`
	Body      json.RawMessage   `json:"body"` // a string is sent as is; anything else as JSON
	TimeoutMs int               `json:"timeoutMs"`
}

// httpJS is ctx.http: a synchronous request({method, url, headers, body,
// timeoutMs}) → {status, headers, body}, and get(url, options) and
// post(url, body, options) on top of it. It uses the Context's HTTP client
// and honours the call's context; a network error throws, an HTTP error
// status does not.
func (x *jsCtx) httpJS() *goja.Object {
	in, rt := x.in, x.in.rt
	o := rt.NewObject()
	request := func(opts goja.Value, method, url string, body goja.Value) goja.Value {
		c := x.live()
		var req jsHTTPRequest
		data, err := in.json(opts)
		if err == nil && data != nil {
			err = json.Unmarshal(data, &req)
		}
		if err != nil {
			panic(rt.NewTypeError("http: bad request options: %v", err))
		}
		if method != "" {
			req.Method, req.URL = method, url
		}
		if body != nil && !goja.IsUndefined(body) {
			if req.Body, err = in.json(body); err != nil {
				panic(rt.NewGoError(err))
			}
		}
		res, err := do(c, req)
		if err != nil {
			panic(rt.NewGoError(err))
		}
		v, err := jsrt.ToJS(c.base(), rt, res, nil)
		if err != nil {
			panic(rt.NewGoError(err))
		}
		return v
	}
	_ = o.Set("request", func(call goja.FunctionCall) goja.Value {
		return request(call.Argument(0), "", "", nil)
	})
	_ = o.Set("get", func(call goja.FunctionCall) goja.Value {
		return request(call.Argument(1), http.MethodGet, call.Argument(0).String(), nil)
	})
	_ = o.Set("post", func(call goja.FunctionCall) goja.Value {
		return request(call.Argument(2), http.MethodPost, call.Argument(0).String(), call.Argument(1))
	})
	return o
}

// do sends one ctx.http request.
func do(c *Context, r jsHTTPRequest) (map[string]any, error) {
	if r.URL == "" {
		return nil, errors.New("http: no url")
	}
	if r.Method == "" {
		r.Method = http.MethodGet
	}
	ctx := c.base() // not c: the transport may look at it after the call
	if r.TimeoutMs > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(r.TimeoutMs)*time.Millisecond)
		defer cancel()
	}
	var body io.Reader
	isJSON := false
	if len(r.Body) > 0 && string(r.Body) != "null" {
		var s string
		if json.Unmarshal(r.Body, &s) == nil {
			body = strings.NewReader(s)
		} else {
			body, isJSON = bytes.NewReader(r.Body), true
		}
	}
	req, err := http.NewRequestWithContext(ctx, strings.ToUpper(r.Method), r.URL, body)
	if err != nil {
		return nil, fmt.Errorf("http: %w", err)
	}
	for k, v := range r.Headers {
		req.Header.Set(k, v)
	}
	if isJSON && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	client := c.HTTP
	if client == nil {
		client = defaultHTTP
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("http: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxHTTPBody+1))
	if err != nil {
		return nil, fmt.Errorf("http: reading the body of %s: %w", r.URL, err)
	}
	if len(data) > maxHTTPBody {
		return nil, fmt.Errorf("http: the body of %s is larger than %d bytes", r.URL, maxHTTPBody)
	}
	headers := map[string]any{}
	for k, vs := range resp.Header {
		headers[strings.ToLower(k)] = strings.Join(vs, ", ")
	}
	return map[string]any{"status": resp.StatusCode, "headers": headers, "body": string(data)}, nil
}

// memo is ctx.memo(key, fn): Context.Memo with a synchronous JavaScript fn,
// whose result must be JSON (it is kept in snapshots).
func (x *jsCtx) memo(call goja.FunctionCall) goja.Value {
	rt, c := x.in.rt, x.live()
	key := call.Argument(0).String()
	fn, ok := goja.AssertFunction(call.Argument(1))
	if !ok {
		panic(rt.NewTypeError("memo(key, fn): fn must be a function"))
	}
	v, err := c.Memo(key, func() (any, error) {
		r, err := fn(goja.Undefined())
		if err != nil {
			return nil, err
		}
		if _, ok := jsrt.AsPromise(r); ok {
			return nil, errors.New("memo: fn returned a Promise; memo takes a synchronous function")
		}
		return jsrt.Export(x.live().base(), rt, r)
	})
	if err != nil {
		var interrupted *goja.InterruptedError
		var ex *goja.Exception
		switch {
		case errors.As(err, &interrupted):
			panic(interrupted) // uncatchable: the call ends
		case errors.As(err, &ex):
			panic(ex) // fn's own throw, as it was
		}
		panic(rt.NewGoError(err))
	}
	jv, err := jsrt.ToJS(c.base(), rt, v, nil)
	if err != nil {
		panic(rt.NewGoError(err))
	}
	return jv
}

// logText is one argument of ctx.log: a string as is, an object as JSON,
// anything else as String() gives it.
func (in *jsInstance) logText(v goja.Value) string {
	if o, ok := v.(*goja.Object); ok {
		if _, isFn := goja.AssertFunction(o); !isFn {
			if data, err := in.json(o); err == nil && data != nil {
				return string(data)
			}
		}
	}
	return v.String()
}

// json is v as JSON.stringify writes it (nil for undefined), read with
// jsrt.Export: bounded by the call's context and the value limits.
func (in *jsInstance) json(v goja.Value) ([]byte, error) {
	out, err := jsrt.Export(in.cur.base(), in.rt, v)
	if err != nil || out == nil && (v == nil || goja.IsUndefined(v)) {
		return nil, err
	}
	return json.Marshal(out)
}

// titleBody reads {title, body} for confirm and notify.
func (in *jsInstance) titleBody(v goja.Value) (title, body string) {
	o, ok := v.(*goja.Object)
	if !ok {
		return v.String(), ""
	}
	get := func(k string) string {
		if f := o.Get(k); f != nil && !goja.IsUndefined(f) && !goja.IsNull(f) {
			return f.String()
		}
		return ""
	}
	return get("title"), get("body")
}
