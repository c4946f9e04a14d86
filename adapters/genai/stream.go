package genai

import (
	"context"
	"encoding/json"
	"errors"
	"iter"

	sdk "google.golang.org/genai"

	"github.com/rienda/hooks"
)

// StreamingModels is what a streamed call is made with: client.Models
// (*genai.Models) is one.
type StreamingModels interface {
	GenerateContentStream(ctx context.Context, model string, contents []*sdk.Content, config *sdk.GenerateContentConfig) iter.Seq2[*sdk.GenerateContentResponse, error]
}

// StreamModel makes one streamed GenerateContent call through run's hooks
// (hooks.Run.StreamModel): BeforeModelRequest runs on Request(params)
// before the stream opens, text reaches deliver through the stream hooks
// as it comes and each function call as one delta (Gemini sends a call
// whole), and the wraps and AfterModelResponse run on the response the
// chunks make together. That response is returned for AssistantMessage
// (nil when a hook answered or ended the run, or the call failed).
// Thought parts (includeThoughts) are delivered as Chunk.Reasoning.
func StreamModel(ctx context.Context, run *hooks.Run, models StreamingModels, params Params,
	deliver func(hooks.Chunk) error) (hooks.ModelReply, *sdk.GenerateContentResponse, error) {
	if models == nil || run == nil {
		return hooks.ModelReply{}, nil, errors.New("genai: StreamModel needs models and a run")
	}
	var got *sdk.GenerateContentResponse
	reply, err := run.StreamModel(ctx, Request(params), func(c *hooks.Context, req hooks.ModelRequest, yield func(hooks.Chunk) error) (hooks.ModelResponse, error) {
		var resp hooks.ModelResponse
		var err error
		got, resp, err = streamCall(c.Context, models, params, req, yield)
		return resp, err
	}, deliver)
	if err != nil || reply.End != nil {
		return reply, nil, err
	}
	return reply, got, nil
}

// RunStream is Run with every model call streamed (hooks.Run.StreamModel):
// the replies' chunks reach deliver as they come, through the stream
// hooks, while the loop, its tools and its Result are Run's.
// Loop.Models must also be a StreamingModels (client.Models is).
func (l *Loop) RunStream(ctx context.Context, run *hooks.Run, params Params, deliver func(hooks.Chunk) error) (Result, error) {
	return l.run(ctx, "RunStream", run, params, deliver)
}

// Stream is Call, streamed: the loop's provider is an adapt.Streamer.
func (pr provider) Stream(c *hooks.Context, params Params, req hooks.ModelRequest, yield func(hooks.Chunk) error) (*sdk.GenerateContentResponse, hooks.ModelResponse, error) {
	// c.Context, never c: the SDK may keep its context past this call.
	return streamCall(c.Context, pr.l.Models.(StreamingModels), params, req, yield)
}

// streamCall sends params carrying req as a stream, yielding its text and
// function calls, and returns the response the chunks make together.
func streamCall(ctx context.Context, models StreamingModels, params Params, req hooks.ModelRequest,
	yield func(hooks.Chunk) error) (*sdk.GenerateContentResponse, hooks.ModelResponse, error) {
	sent, err := Build(params, req)
	if err != nil {
		return nil, hooks.ModelResponse{}, err
	}
	acc := accumulator{yield: yield}
	for chunk, err := range models.GenerateContentStream(ctx, sent.Model, sent.Contents, sent.Config) {
		if err != nil {
			return nil, hooks.ModelResponse{}, err
		}
		if err := acc.add(chunk); err != nil {
			return nil, hooks.ModelResponse{}, err // leaving the range closes the stream
		}
	}
	r := acc.response()
	resp, err := Response(r)
	return r, resp, err
}

// accumulator makes one response of a stream's chunks, yielding each
// piece as it comes.
type accumulator struct {
	yield    func(hooks.Chunk) error
	parts    []*sdk.Part
	calls    int
	finish   sdk.FinishReason
	usage    *sdk.GenerateContentResponseUsageMetadata
	feedback *sdk.GenerateContentResponsePromptFeedback
	version  string
	id       string
}

func (a *accumulator) add(r *sdk.GenerateContentResponse) error {
	if r == nil {
		return nil
	}
	a.usage = cmpOr(r.UsageMetadata, a.usage)
	a.feedback = cmpOr(r.PromptFeedback, a.feedback)
	a.version, a.id = cmpOr(r.ModelVersion, a.version), cmpOr(r.ResponseID, a.id)
	if len(r.Candidates) == 0 || r.Candidates[0] == nil {
		return nil
	}
	cand := r.Candidates[0]
	a.finish = cmpOr(cand.FinishReason, a.finish)
	if cand.Content == nil {
		return nil
	}
	for _, p := range cand.Content.Parts {
		if err := a.part(p); err != nil {
			return err
		}
	}
	return nil
}

// part adds one part: text joins the text before it, a function call gets
// an ID if it has none and is yielded whole.
func (a *accumulator) part(p *sdk.Part) error {
	if p == nil {
		return nil
	}
	switch {
	case isText(p):
		if p.Text == "" && p.ThoughtSignature == nil {
			return nil
		}
		if n := len(a.parts); n > 0 && plainText(a.parts[n-1]) && plainText(p) {
			joined := *a.parts[n-1]
			joined.Text += p.Text
			a.parts[n-1] = &joined
		} else {
			a.parts = append(a.parts, p)
		}
		if p.Text != "" {
			return a.yield(hooks.Chunk{Text: p.Text})
		}
	case p.FunctionCall != nil:
		fillCallIDs(&sdk.Content{Parts: []*sdk.Part{p}})
		a.parts = append(a.parts, p)
		args, err := json.Marshal(p.FunctionCall.Args)
		if err != nil || p.FunctionCall.Args == nil {
			args = []byte("{}")
		}
		a.calls++
		return a.yield(hooks.Chunk{ToolCall: &hooks.ToolCallDelta{Index: a.calls - 1, ID: p.FunctionCall.ID,
			Name: p.FunctionCall.Name, Arguments: string(args)}})
	case p.Thought && p.Text != "":
		if n := len(a.parts); n > 0 && plainThought(a.parts[n-1]) && plainThought(p) {
			joined := *a.parts[n-1]
			joined.Text += p.Text
			a.parts[n-1] = &joined
		} else {
			a.parts = append(a.parts, p)
		}
		return a.yield(hooks.Chunk{Reasoning: p.Text})
	default:
		a.parts = append(a.parts, p) // the rest: kept, not shown
	}
	return nil
}

// plainThought is a thought's text part with nothing else to keep apart.
func plainThought(p *sdk.Part) bool {
	return p.Thought && p.ThoughtSignature == nil && p.FunctionCall == nil && p.InlineData == nil && p.PartMetadata == nil
}

// plainText is a text part with nothing else to keep apart.
func plainText(p *sdk.Part) bool {
	return isText(p) && p.ThoughtSignature == nil && p.VideoMetadata == nil && p.PartMetadata == nil
}

func (a *accumulator) response() *sdk.GenerateContentResponse {
	r := &sdk.GenerateContentResponse{UsageMetadata: a.usage, PromptFeedback: a.feedback, ModelVersion: a.version, ResponseID: a.id}
	if len(a.parts) > 0 || a.finish != "" {
		r.Candidates = []*sdk.Candidate{{Content: &sdk.Content{Role: sdk.RoleModel, Parts: a.parts}, FinishReason: a.finish}}
	}
	return r
}

// cmpOr is v unless it is the zero value, then def.
func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}
