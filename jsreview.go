package hooks

import (
	"errors"
	"fmt"

	"github.com/dop251/goja"
	"github.com/rienda/hooks/internal/jsrt"
)

// reviewJS is ctx.review({title, body, call}): it asks a person
// (Context.Review) and returns the verdict as a new object of the hook's
// own, {approved, arguments, message, result}, copied from the host's (a
// change to it changes nothing the host holds, and the host's later
// changes do not reach it). call defaults, in tool points, to the call
// as the model asked for it.
//
// A misuse cannot let a call through: an argument that cannot be read is
// not asked about; it is a rejection (with a diagnostic), and like any
// person's no to the call under review, it stands whatever the hook then
// returns (Context.personsNo). The object has no allow, so testing it as
// confirm's boolean ("if (!ctx.review(…))", an object is always true)
// finds a yes, and the no stands all the same.
func (x *jsCtx) reviewJS(call goja.FunctionCall) goja.Value {
	in, rt, c := x.in, x.in.rt, x.live()
	r, err := in.readReview(c, call.Argument(0))
	var v Verdict
	if err != nil {
		c.diagnose(c.Point(), fmt.Errorf("ctx.review: %w: read as a rejection", err))
		c.noteReview(r, Verdict{}, err)
	} else {
		v, _ = c.Review(r) // a failure is a rejection, already reported
	}
	out, err := jsrt.ToJS(c.base(), rt, verdictJS(v), nil)
	if err != nil {
		panic(rt.NewGoError(err))
	}
	return out
}

// verdictJS is v as the JSON-shaped value a hook reads.
func verdictJS(v Verdict) map[string]any {
	m := map[string]any{"approved": v.Approved, "message": v.Message}
	if v.Arguments != nil {
		m["arguments"] = v.Arguments
	}
	if v.Result != nil {
		res := map[string]any{"text": v.Result.Text, "isError": v.Result.IsError}
		if v.Result.Value != nil {
			res["value"] = v.Result.Value
		}
		m["result"] = res
	}
	return m
}

// readReview reads ctx.review's argument: a title alone, or {title, body,
// call}. The call under review is the one given, or the point's. What
// cannot be read is an error; r then still names the point's call, so
// that the rejection stands for it.
func (in *jsInstance) readReview(c *Context, v goja.Value) (r Review, err error) {
	if orig, ok := c.OriginalCall(); ok {
		r.Call = &orig
	}
	r.Prompt.Title, r.Prompt.Body = in.titleBody(v)
	o, ok := v.(*goja.Object)
	if !ok {
		return r, nil
	}
	cv := o.Get("call")
	if cv == nil || goja.IsUndefined(cv) || goja.IsNull(cv) {
		return r, nil
	}
	exported, err := jsrt.Export(c.base(), in.rt, cv)
	if err != nil {
		return r, fmt.Errorf("call: %w", err)
	}
	m, ok := exported.(map[string]any)
	if !ok {
		return r, errors.New("call: want an object {id, name, arguments}")
	}
	var got ToolCall
	for k, dst := range map[string]*string{"id": &got.ID, "name": &got.Name} {
		switch s := m[k].(type) {
		case nil:
		case string:
			*dst = s
		default:
			return r, fmt.Errorf("call.%s: want a string, got %s", k, clipJSON(s))
		}
	}
	switch a := m["arguments"].(type) {
	case nil:
	case map[string]any:
		got.Arguments = a
	default:
		return r, fmt.Errorf("call.arguments: want an object, got %s", clipJSON(a))
	}
	r.Call = &got
	return r, nil
}
