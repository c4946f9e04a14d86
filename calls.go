package hooks

import "context"

// ToolFunc runs a tool. c carries the run's capabilities (c.Hook() is "").
//
// c is the call's own and never reused: kept past the call (a goroutine,
// a client that finishes later) it reports the call's end, as a cancelled
// context (see Context). Work meant to outlive the call should get
// c.Context, the context the host passed in, or one derived from it.
type ToolFunc func(c *Context, call ToolCall) (ToolResult, error)

// ModelFunc calls a model. c carries the run's capabilities (c.Hook() is "").
//
// c is the call's own and never reused: kept past the call (an HTTP
// client's streaming body, a goroutine) it reports the call's end, as a
// cancelled context (see Context), so a body read after the call returned
// stops. Work meant to outlive the call should get c.Context, the context
// the host passed in, or one derived from it.
type ModelFunc func(c *Context, req ModelRequest) (ModelResponse, error)

// CallModel runs one model call through the chain: BeforeModelRequest,
// then model inside the wrap hooks (unless a hook answered or ended the
// run), then AfterModelResponse on the entered hooks. A model error is
// returned as is, and no after-hook runs.
func (r *Run) CallModel(ctx context.Context, req ModelRequest, model ModelFunc) (ModelReply, error) {
	step, err := r.BeforeModelRequest(ctx, req)
	if err != nil {
		return ModelReply{}, err
	}
	if step.End != nil {
		return ModelReply{End: step.End}, nil
	}
	resp, err := r.ExecuteModel(ctx, step, model)
	if err != nil {
		r.wraps[1].skipAfter(len(r.chain.wrapModel) > 0 && step.Response == nil)
		return ModelReply{Response: resp}, err
	}
	return r.AfterModelResponse(ctx, step, resp)
}

// CallTool runs one tool call through the chain: BeforeToolExecute, then
// tool inside the wrap hooks (unless a hook refused or answered), then
// AfterToolExecute on the entered hooks. A refusal is returned as the error
// result the model reads, with a nil error. A tool error is returned as
// is, and no after-hook runs.
func (r *Run) CallTool(ctx context.Context, call ToolCall, tool ToolFunc) (ToolResult, error) {
	step, err := r.BeforeToolExecute(ctx, call)
	if err != nil {
		return ToolResult{}, err
	}
	if step.Refused {
		res, _ := step.answer()
		return res, nil
	}
	res, err := r.ExecuteTool(ctx, step, tool)
	if err != nil {
		r.wraps[0].skipAfter(len(r.chain.wrapTool) > 0 && step.Result == nil)
		return res, err
	}
	return r.AfterToolExecute(ctx, step, res)
}
