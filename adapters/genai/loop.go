package genai

import (
	"context"
	"encoding/json"
	"errors"

	sdk "google.golang.org/genai"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/adapt"
)

// Models is what the loop calls the model with: client.Models
// (*genai.Models) is one.
type Models interface {
	GenerateContent(ctx context.Context, model string, contents []*sdk.Content, config *sdk.GenerateContentConfig) (*sdk.GenerateContentResponse, error)
}

// Tool runs one function call. arguments is the JSON of the args the
// model sent, unless a hook rewrote them: then it is the hooks'
// arguments, encoded. ctx is the context given to Loop.Run, carrying the
// run (hooks.RunFromContext).
//
// An error is the result the model reads ({"error": message}), after the
// AfterToolExecute hooks, so that they may redact it; only an error while
// ctx is done stops the loop.
type Tool func(ctx context.Context, arguments json.RawMessage) (hooks.ToolResult, error)

// Call is one function call as a Handler gets it.
type Call struct {
	// ID is the call's ID: the model's, or the one the loop made for a
	// call the model (or a hook's canned answer) sent without one.
	ID        string
	Name      string
	Arguments json.RawMessage // as Tool's arguments are
}

// Handler runs one function call. c is the call's hooks context (a
// context.Context carrying the run: c.RunID, c.OriginalCall, c.Rewritten,
// c.Log); an error is read as Tool's is.
type Handler func(c *hooks.Context, call Call) (hooks.ToolResult, error)

// DefaultMaxTurns bounds a Loop whose MaxTurns is zero.
const DefaultMaxTurns = adapt.DefaultMaxTurns

// ErrMaxTurns is the error of a loop that made MaxTurns model calls
// without a final reply.
var ErrMaxTurns = errors.New("genai: the loop reached its MaxTurns without a final reply")

// idPrefix starts the IDs the loop makes for calls without one.
const idPrefix = "call_hooks_"

// Loop runs a function-calling conversation through a run's hooks: each
// model call goes through Run.CallModel (Run.StreamModel for RunStream),
// each function call through Run.CallTool. It is a value to configure
// once and use for any number of runs.
type Loop struct {
	Models   Models             // required: client.Models
	Tools    map[string]Tool    // by function name
	Handlers map[string]Handler // by function name; a name is in Tools or Handlers, not both
	MaxTurns int                // model calls per Run; 0: DefaultMaxTurns
	// Parallel is how many function calls of one reply run at once; 0 or
	// 1: one after another. Their responses are sent in the reply's order.
	Parallel int
}

// Result is where a loop stopped.
type Result struct {
	// Output is the final reply's text after the hooks, or the output of
	// the End a hook returned.
	Output string
	// Ended reports that a hook ended the run (End).
	Ended bool
	// Contents are params' contents followed by the turns the loop
	// completed: each reply as the hooks left it, function responses and
	// Continue messages. A request a hook changed is not in it.
	Contents []*sdk.Content
	// Turns counts the model calls, those a hook answered included.
	Turns int
}

// Run sends params round the loop until the model gives a final reply
// that no hook continues, a hook ends the run, or an error: a hook's (a
// *hooks.HookError under policy FailRun), the model's, the context's, or
// ErrMaxTurns. The Result is filled as far as the loop went, also on an
// error. Every function params declares must be in Tools or Handlers: Run
// fails naming the one that is not, before any model call.
//
// Run neither starts nor ends run: the caller does, passing the outcome to
// run.End (RunEnd{Output: res.Output, Err: err}).
func (l *Loop) Run(ctx context.Context, run *hooks.Run, params Params) (Result, error) {
	return l.run(ctx, "Run", run, params, nil)
}

func (l *Loop) run(ctx context.Context, method string, run *hooks.Run, params Params, deliver func(hooks.Chunk) error) (Result, error) {
	_, streams := l.Models.(StreamingModels)
	r, err := adapt.Drive(ctx, adapt.Setup{Adapter: "genai", Method: method, Client: "Models", HasClient: l.Models != nil,
		Streams: "GenerateContentStream", CanStream: streams, Deliver: deliver, Tools: adapt.Lookup(l.Tools, l.Handlers),
		Check: l.check(params), MaxTurns: l.MaxTurns, Parallel: l.Parallel, IDPrefix: idPrefix, ErrMaxTurns: ErrMaxTurns},
		provider{l}, run, params)
	return Result{Output: r.Output, Ended: r.Ended, Contents: r.Messages, Turns: r.Turns}, err
}

// check says which function params declares has no Tool or Handler, or
// which name is both.
func (l *Loop) check(params Params) error {
	var offered []string
	if params.Config != nil {
		for _, t := range flatten(params.Config.Tools) {
			if t.decl != nil {
				offered = append(offered, t.decl.Name)
			}
		}
	}
	return adapt.CheckTools("genai", l.Tools, l.Handlers, offered)
}

// provider is GenerateContent as adapt.Run drives it.
type provider struct{ l *Loop }

func (provider) Messages(p Params) []*sdk.Content { return p.Contents }

func (provider) WithMessages(p Params, msgs []*sdk.Content) Params {
	p.Contents = msgs
	return p
}

func (provider) Request(p Params) hooks.ModelRequest { return Request(p) }

func (pr provider) Call(ctx context.Context, params Params, req hooks.ModelRequest) (*sdk.GenerateContentResponse, hooks.ModelResponse, error) {
	sent, err := Build(params, req)
	if err != nil {
		return nil, hooks.ModelResponse{}, err
	}
	r, err := pr.l.Models.GenerateContent(ctx, sent.Model, sent.Contents, sent.Config)
	if err != nil {
		return nil, hooks.ModelResponse{}, err
	}
	fillCallIDs(candidateContent(r))
	resp, err := Response(r)
	return r, resp, err
}

func (provider) Assistant(r *sdk.GenerateContentResponse, resp hooks.ModelResponse) (*sdk.Content, error) {
	return AssistantMessage(r, resp)
}

func (provider) User(text string) *sdk.Content { return sdk.NewContentFromText(text, sdk.RoleUser) }

func (provider) RawArguments(r *sdk.GenerateContentResponse, id string) ([]byte, bool) {
	c := candidateContent(r)
	if c == nil {
		return nil, false
	}
	for _, p := range c.Parts {
		if p != nil && p.FunctionCall != nil && p.FunctionCall.ID == id {
			if p.FunctionCall.Args == nil {
				return []byte("{}"), true
			}
			b, err := json.Marshal(p.FunctionCall.Args)
			return b, err == nil
		}
	}
	return nil, false
}

func (provider) Paused(*sdk.GenerateContentResponse) bool { return false }

// ToolResults is one user content with the calls' functionResponse parts.
func (provider) ToolResults(calls []hooks.ToolCall, results []hooks.ToolResult) ([]*sdk.Content, error) {
	parts, err := adapt.Each(calls, results, FunctionResponsePart)
	return []*sdk.Content{{Role: sdk.RoleUser, Parts: parts}}, err
}

// fillCallIDs gives each function call of c that has none a unique ID:
// Gemini may send calls without one, and the hooks, the tools and the
// responses tell calls apart by ID. The ID is sent back with the call and
// its response.
func fillCallIDs(c *sdk.Content) {
	if c == nil {
		return
	}
	for _, p := range c.Parts {
		if p != nil && p.FunctionCall != nil && p.FunctionCall.ID == "" {
			p.FunctionCall.ID = adapt.NewCallID(idPrefix)
		}
	}
}
