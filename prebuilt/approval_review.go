package prebuilt

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rienda/hooks"
)

// Response is an answer a person may give an Approval (LangChain's
// allowed_decisions).
type Response string

// The answers a person may give.
const (
	Approve Response = "approve" // the call runs as it is
	Edit    Response = "edit"    // the call runs with the person's arguments
	Reject  Response = "reject"  // the call is refused; the model reads the person's message
	Respond Response = "respond" // the person's result stands for the tool's, which does not run
)

// responseSet is a set of Responses as bits.
type responseSet uint8

var responseBits = map[Response]responseSet{Approve: 1, Edit: 2, Reject: 4, Respond: 8}

// everyResponse is the set of a nil list.
const everyResponse responseSet = 15

// responsesOf reads a list of Responses; nil is every one. An empty
// non-nil list is an error: a person must be able to answer something.
func responsesOf(field string, rs []Response) (responseSet, error) {
	if rs == nil {
		return everyResponse, nil
	}
	if len(rs) == 0 {
		return 0, fmt.Errorf("field %s: empty: a person must be able to answer something (nil allows every response)", field)
	}
	var set responseSet
	for i, r := range rs {
		b, ok := responseBits[r]
		if !ok {
			return 0, fmt.Errorf("field %s[%d]: unknown response %q (the responses are approve, edit, reject, respond)", field, i, string(r))
		}
		set |= b
	}
	return set, nil
}

// allows reports whether the set allows r (every set allows a rejection:
// a person may always say no).
func (s responseSet) allows(r Response) bool {
	return s&responseBits[r] != 0 || r == Reject
}

// kindResponse is the Response a verdict's kind is.
var kindResponse = map[string]Response{hooks.ReviewApproved: Approve, hooks.ReviewEdited: Edit,
	hooks.ReviewRejected: Reject, hooks.ReviewAnswered: Respond}

// review asks the person about call, once per call with Remember, and
// returns their verdict. A cancelled context while waiting (a pause) is
// the error, and is not kept.
func (h *approval) review(c *hooks.Context, call hooks.ToolCall) (hooks.Verdict, error) {
	ask := func() (any, error) {
		p := h.defaultPrompt(call)
		if h.prompt != nil {
			p = h.prompt(call)
		}
		v, _ := c.Review(hooks.Review{Prompt: p, Call: &call}) // a failure is a rejection, already reported
		if err := c.Err(); err != nil {
			return nil, err // not an answer: not kept
		}
		return v, nil
	}
	if !h.remember || call.ID == "" {
		v, err := ask()
		if err != nil {
			return hooks.Verdict{}, err
		}
		return v.(hooks.Verdict), nil
	}
	kept, err := c.Memo("approval:"+call.ID+":"+callDigest(call), ask)
	if err != nil {
		return hooks.Verdict{}, err
	}
	return keptVerdict(kept), nil
}

// keptVerdict reads an answer kept by Memo: the Verdict itself in this
// process, its JSON after a resume, or a bool from a snapshot written
// before verdicts (a yes or a no). What cannot be read is a rejection.
func keptVerdict(kept any) hooks.Verdict {
	switch k := kept.(type) {
	case hooks.Verdict:
		return k
	case bool:
		return hooks.Verdict{Approved: k}
	}
	data, err := json.Marshal(kept)
	var v hooks.Verdict
	if err != nil || json.Unmarshal(data, &v) != nil {
		return hooks.Verdict{}
	}
	return v
}

// decide turns the person's verdict into the hook's patch: the response
// must be one the rules taking the call allow, and a rejection without a
// message tells the model that the user said no.
func (h *approval) decide(c *hooks.Context, call hooks.ToolCall, v hooks.Verdict) *hooks.ToolCallPatch {
	kind := v.Kind()
	allowed := h.allowed(call)
	if r := kindResponse[kind]; !allowed.allows(r) {
		c.Diagnose(fmt.Errorf("approval: the person's answer about %q was %q, which this approval does not allow (it allows %s): the call is refused", call.Name, r, allowed))
		return hooks.Refuse(fmt.Sprintf("The user's answer about this call of %q (%s) is not one this approval accepts, so the call is refused. Ask the user how to go on.", call.Name, r))
	}
	if kind == hooks.ReviewRejected && strings.TrimSpace(v.Message) == "" {
		return hooks.Refuse(fmt.Sprintf("The user did not approve this call of %q. Do not retry it unchanged; ask the user or go on another way.", call.Name))
	}
	return c.ApplyVerdict(v) // a kept edit gets the second look a fresh one gets
}

// allowed is what a person may answer about call: the config's responses,
// narrowed by each Require rule that takes the call.
func (h *approval) allowed(call hooks.ToolCall) responseSet {
	set := h.responses
	for _, r := range h.require {
		if r.responses != everyResponse && r.requires(call) {
			set &= r.responses
		}
	}
	return set
}

// String lists the responses of s.
func (s responseSet) String() string {
	var out []string
	for _, r := range []Response{Approve, Edit, Reject, Respond} {
		if s.allows(r) {
			out = append(out, string(r))
		}
	}
	return strings.Join(out, ", ")
}

// responsesIn reads a list of responses from settings (an agent file's
// "responses: [approve, reject]"); nil when the key is absent. Each word
// is checked by responsesOf, when the config is.
func responsesIn(s *settings, key string) []Response {
	l := s.list(key)
	if l == nil {
		return nil
	}
	out := make([]Response, len(l))
	for i, v := range l {
		word, ok := v.(string)
		if !ok {
			s.fail(key, "item %d: want one of approve, edit, reject, respond, got %s", i, describe(v))
			return nil
		}
		out[i] = Response(word)
	}
	return out
}
