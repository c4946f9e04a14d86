package hooks

// Funcs is a Hook made of plain functions; a nil field is a point it does
// not handle. A Go type cannot have a field and a method of one name, so
// Funcs implements only Hook and PointHandler, and the chain adapts its
// fields itself. Funcs and *Funcs both work.
type Funcs struct {
	HookName           string
	BeforeRun          func(c *Context, start RunStart) (*RunPatch, error)
	AfterRun           func(c *Context, end RunEnd) error
	BeforeModelRequest func(c *Context, req ModelRequest) (*ModelRequestPatch, error)
	AfterModelResponse func(c *Context, resp ModelResponse) (*ModelResponsePatch, error)
	BeforeToolExecute  func(c *Context, call ToolCall) (*ToolCallPatch, error)
	AfterToolExecute   func(c *Context, call ToolCall, res ToolResult) (*ToolResultPatch, error)
	WrapTool           func(c *Context, call ToolCall, next ToolFunc) (ToolResult, error)        // see WrapToolHook
	WrapModel          func(c *Context, req ModelRequest, next ModelFunc) (ModelResponse, error) // see WrapModelHook
}

// Name returns f.HookName.
func (f Funcs) Name() string { return f.HookName }

// Handles reports whether the field for p is set.
func (f Funcs) Handles(p Point) bool {
	switch p {
	case BeforeRun:
		return f.BeforeRun != nil
	case AfterRun:
		return f.AfterRun != nil
	case BeforeModelRequest:
		return f.BeforeModelRequest != nil
	case AfterModelResponse:
		return f.AfterModelResponse != nil
	case BeforeToolExecute:
		return f.BeforeToolExecute != nil
	case AfterToolExecute:
		return f.AfterToolExecute != nil
	case WrapToolCall:
		return f.WrapTool != nil
	case WrapModelCall:
		return f.WrapModel != nil
	}
	return false
}

// funcsOf returns h as Funcs when it is one.
func funcsOf(h Hook) (Funcs, bool) {
	switch f := h.(type) {
	case Funcs:
		return f, true
	case *Funcs:
		if f != nil {
			return *f, true
		}
	}
	return Funcs{}, false
}

// funcsHook gives Funcs the point methods; only the set fields are used.
type funcsHook struct{ f Funcs }

func (h funcsHook) Name() string { return h.f.HookName }
func (h funcsHook) BeforeRun(c *Context, s RunStart) (*RunPatch, error) {
	return h.f.BeforeRun(c, s)
}
func (h funcsHook) AfterRun(c *Context, e RunEnd) error { return h.f.AfterRun(c, e) }
func (h funcsHook) BeforeModelRequest(c *Context, r ModelRequest) (*ModelRequestPatch, error) {
	return h.f.BeforeModelRequest(c, r)
}
func (h funcsHook) AfterModelResponse(c *Context, r ModelResponse) (*ModelResponsePatch, error) {
	return h.f.AfterModelResponse(c, r)
}
func (h funcsHook) BeforeToolExecute(c *Context, call ToolCall) (*ToolCallPatch, error) {
	return h.f.BeforeToolExecute(c, call)
}
func (h funcsHook) AfterToolExecute(c *Context, call ToolCall, r ToolResult) (*ToolResultPatch, error) {
	return h.f.AfterToolExecute(c, call, r)
}
func (h funcsHook) WrapTool(c *Context, call ToolCall, next ToolFunc) (ToolResult, error) {
	return h.f.WrapTool(c, call, next)
}
func (h funcsHook) WrapModel(c *Context, req ModelRequest, next ModelFunc) (ModelResponse, error) {
	return h.f.WrapModel(c, req, next)
}
