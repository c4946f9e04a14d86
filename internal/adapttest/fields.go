package adapttest

import "github.com/rienda/hooks"

// SetRequest is a wrap hook that changes the request a model call sends:
// an adapter honours the request that reaches it, whichever hook set it.
type SetRequest func(*hooks.ModelRequest)

// Name is the hook's name.
func (SetRequest) Name() string { return "set-request" }

// WrapModel changes req and calls the model with it.
func (s SetRequest) WrapModel(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
	s(&req)
	return next(c, req)
}

// SetReply is a wrap hook that changes the reply a model call returns,
// before the AfterModelResponse hooks.
type SetReply func(*hooks.ModelResponse)

// Name is the hook's name.
func (SetReply) Name() string { return "set-reply" }

// WrapModel calls the model and changes its reply.
func (s SetReply) WrapModel(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
	resp, err := next(c, req)
	s(&resp)
	return resp, err
}

// Seen records the requests the BeforeModelRequest hooks see and the
// replies the AfterModelResponse hooks see. Use one per run.
type Seen struct {
	Requests []hooks.ModelRequest
	Replies  []hooks.ModelResponse
}

// Hook is the hook that records into s.
func (s *Seen) Hook() hooks.Funcs {
	return hooks.Funcs{HookName: "seen",
		BeforeModelRequest: func(_ *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
			s.Requests = append(s.Requests, req)
			return nil, nil
		},
		AfterModelResponse: func(_ *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
			s.Replies = append(s.Replies, resp)
			return nil, nil
		}}
}

// F64 and Int are pointers to v, for settings.
func F64(v float64) *float64 { return &v }

// Int: see F64.
func Int(v int) *int { return &v }
