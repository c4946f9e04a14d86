package temporal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/rienda/hooks"
)

// An Answer travels as JSON three ways: a person's signal or update, the
// answers the workflow records in each step's input (its history), and
// the answers of histories written before verdicts ({"Approved": true}).
// answerJSON is that form. The verdict's Arguments are verdictArgs so
// that an edit to no arguments ({}) survives the history (hooks.Verdict's
// omitempty would drop it, and the call would run with its own) and a
// null is refused rather than read as "no edit".
type answerJSON struct {
	QuestionID string
	Prompt     hooks.Prompt
	Approved   bool
	Reason     string
	By         string
	Verdict    *verdictJSON    `json:",omitempty"`
	Call       *hooks.ToolCall `json:",omitempty"`
}

type verdictJSON struct {
	Approved  bool              `json:"approved"`
	Arguments verdictArgs       `json:"arguments,omitzero"`
	Message   string            `json:"message,omitempty"`
	Result    *hooks.ToolResult `json:"result,omitempty"`
}

// MarshalJSON writes the answer in the form the workflow records.
func (a Answer) MarshalJSON() ([]byte, error) {
	w := answerJSON{QuestionID: a.QuestionID, Prompt: a.Prompt, Approved: a.Approved, Reason: a.Reason, By: a.By, Call: a.Call}
	if v := a.Verdict; v != nil {
		w.Verdict = &verdictJSON{Approved: v.Approved, Message: v.Message, Result: v.Result}
		if v.Arguments != nil {
			w.Verdict.Arguments = verdictArgs{m: v.Arguments, set: true}
		}
	}
	return json.Marshal(w)
}

// verdictArgs are a verdict's edited arguments: set says the key was
// there (an object, maybe empty).
type verdictArgs struct {
	m   map[string]any
	set bool
}

// IsZero says there was no edit (omitzero leaves the key out).
func (a verdictArgs) IsZero() bool { return !a.set }

// MarshalJSON writes the arguments as an object.
func (a verdictArgs) MarshalJSON() ([]byte, error) { return json.Marshal(a.m) }

// UnmarshalJSON reads an object; null or any other value is refused.
func (a *verdictArgs) UnmarshalJSON(data []byte) error {
	var m map[string]any
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return errors.New(`the verdict's "arguments" is null: give the edited arguments as an object, or leave the key out to keep the call's`)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf(`the verdict's "arguments" must be an object: %w`, err)
	}
	a.m, a.set = m, true
	return nil
}

// UnmarshalJSON reads an answer strictly: a field it does not know, a key
// given twice (also in another case: encoding/json would take the last),
// a value of the wrong type or anything after the answer is an error, so
// a misspelt verdict is refused rather than read as a bare "no" or "yes".
func (a *Answer) UnmarshalJSON(data []byte) error {
	if err := uniqueKeys(data); err != nil {
		return fmt.Errorf("temporal: answer: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var w answerJSON
	if err := dec.Decode(&w); err != nil {
		return fmt.Errorf("temporal: answer: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("temporal: answer: more JSON after the answer")
	}
	*a = Answer{QuestionID: w.QuestionID, Prompt: w.Prompt, Approved: w.Approved, Reason: w.Reason, By: w.By, Call: w.Call}
	if v := w.Verdict; v != nil {
		a.Verdict = &hooks.Verdict{Approved: v.Approved, Message: v.Message, Result: v.Result}
		if v.Arguments.set {
			a.Verdict.Arguments = v.Arguments.m
		}
	}
	return nil
}

// decodeAnswer reads the answer a person sent. Executions started before
// verdicts (version < 1) read what their code read, unknown fields
// ignored, when the strict reading fails: they replay the answers they
// took that way.
func decodeAnswer(data []byte, version int) (Answer, error) {
	var a Answer
	err := json.Unmarshal(data, &a)
	if err == nil || version >= 1 {
		return a, err
	}
	var old struct {
		QuestionID string
		Prompt     hooks.Prompt
		Approved   bool
		Reason, By string
	}
	if json.Unmarshal(data, &old) != nil {
		return Answer{}, err
	}
	return Answer{QuestionID: old.QuestionID, Prompt: old.Prompt, Approved: old.Approved, Reason: old.Reason, By: old.By}, nil
}

// foldKey is k with each letter the least of its case folds: two keys
// encoding/json would take for the same field (bytes.EqualFold: "Approved"
// and "approved", "message" and "meſſage") fold to the same string.
func foldKey(k string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, k)
}

// uniqueKeys says which key of an object in data, at any depth, is given
// twice, compared without case as encoding/json matches fields.
func uniqueKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var walk func() error
	walk = func() error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key := foldKey(k.(string))
				if seen[key] {
					return fmt.Errorf("the key %q is given twice", k)
				}
				seen[key] = true
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			for dec.More() {
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		return nil
	}
	return walk()
}

// verdict is the decision the answer carries: its Verdict, or its yes or
// no with Reason as the message. A copy: a hook may change what it got.
func (a Answer) verdict() hooks.Verdict {
	if a.Verdict == nil {
		return hooks.Verdict{Approved: a.Approved, Message: a.Reason}
	}
	v := *a.Verdict
	v.Arguments = cloneJSON(v.Arguments)
	if v.Result != nil {
		r := *v.Result
		r.Value = cloneJSON(r.Value)
		v.Result = &r
	}
	return v
}

// cloneJSON deep-copies a value decoded from JSON (maps, slices, scalars).
func cloneJSON[T any](v T) T {
	switch x := any(v).(type) {
	case map[string]any:
		if x == nil {
			return v
		}
		c := make(map[string]any, len(x))
		for k, e := range x {
			c[k] = cloneJSON(e)
		}
		return any(c).(T)
	case []any:
		if x == nil {
			return v
		}
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = cloneJSON(e)
		}
		return any(c).(T)
	}
	return v
}

// check says what is wrong with an answer to q, a question that waits:
// an answer that says two things, or a verdict that does what q cannot
// be answered with.
func (a Answer) check(q *Question) error {
	v := a.Verdict
	if v == nil {
		return nil
	}
	switch {
	case a.Approved && !v.Approved:
		return fmt.Errorf("temporal: the answer to question %q says Approved, and its verdict does not: give the decision once, in the verdict", a.QuestionID)
	case a.Reason != "" && a.Reason != v.Message:
		return fmt.Errorf("temporal: the answer to question %q gives a Reason and a different verdict message: give the message once, in the verdict", a.QuestionID)
	case q.Call == nil && v.Arguments != nil:
		return fmt.Errorf("temporal: question %q is not about a tool call: its verdict cannot edit arguments (approve or reject, with a message)", a.QuestionID)
	case q.Call == nil && v.Result != nil:
		return fmt.Errorf("temporal: question %q is not about a tool call: its verdict cannot answer for a tool (approve or reject, with a message)", a.QuestionID)
	case v.Arguments != nil && v.Result != nil:
		return fmt.Errorf("temporal: the verdict on question %q both edits the call and answers for the tool: give one", a.QuestionID)
	case v.Arguments != nil && !v.Approved:
		return fmt.Errorf("temporal: the verdict on question %q rejects the call and edits its arguments: an edit is an approval", a.QuestionID)
	}
	return nil
}

// answers says whether a, recorded for a question of this step, answers
// the review r: the same prompt, about the same call (compared as JSON,
// as the history holds it). An answer recorded without a call answers a
// review without one only, so a yes to a prompt never passes for a
// verdict on a call nobody showed the person.
func (a Answer) answers(r hooks.Review) bool {
	if a.Prompt != r.Prompt || (a.Call == nil) != (r.Call == nil) {
		return false
	}
	if a.Call == nil {
		return true
	}
	x, err1 := json.Marshal(a.Call)
	y, err2 := json.Marshal(r.Call)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
