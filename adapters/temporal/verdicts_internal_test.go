package temporal

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Answers recorded before verdicts (in the histories of runs in flight)
// are a bool and a reason: they read as the verdict they meant.
func TestAnOldAnswerReadsAsAYesOrNo(t *testing.T) {
	for raw, want := range map[string]hooks.Verdict{
		`{"QuestionID":"q","Prompt":{"Title":"Delete?","Body":"b"},"Approved":true,"Reason":"","By":"alice"}`:    {Approved: true},
		`{"QuestionID":"q","Prompt":{"Title":"Delete?","Body":"b"},"Approved":false,"Reason":"not now","By":""}`: {Message: "not now"},
		`{"QuestionID":"q","Approved":false}`: {},
	} {
		var a Answer
		require.NoError(t, json.Unmarshal([]byte(raw), &a), raw)
		assert.Equal(t, want, a.verdict(), raw)
		for _, version := range []int{-1, 1} {
			b, err := decodeAnswer([]byte(raw), version)
			require.NoError(t, err)
			assert.Equal(t, want, b.verdict(), "%s at version %d", raw, version)
		}
	}
}

// A verdict the person gives comes back as given through the history's
// JSON: an edit to no arguments stays an edit (hooks.Verdict's omitempty
// would make it "run the call as it is").
func TestAVerdictSurvivesTheHistory(t *testing.T) {
	call := &hooks.ToolCall{ID: "c1", Name: "delete", Arguments: map[string]any{"path": "/"}}
	for _, v := range []hooks.Verdict{
		{Approved: true},
		{Approved: true, Arguments: map[string]any{}},
		{Approved: true, Arguments: map[string]any{"path": "/tmp/x", "opts": map[string]any{"dry": true}, "n": 2.5}},
		{Approved: false, Message: "use the trash"},
		{Approved: true, Result: &hooks.ToolResult{Text: "nothing there", Value: map[string]any{"files": []any{}}}},
		{Approved: true, Result: &hooks.ToolResult{Text: "", IsError: true}},
	} {
		in := Answer{QuestionID: "q", Verdict: &v, By: "alice", Call: call}
		raw, err := json.Marshal(in)
		require.NoError(t, err)
		var out Answer
		require.NoError(t, json.Unmarshal(raw, &out), string(raw))
		assert.Equal(t, in, out, string(raw))
		assert.Equal(t, v, out.verdict())
		if v.Arguments != nil {
			assert.NotNil(t, out.verdict().Arguments, "an edit stays an edit: %s", raw)
		}
	}
}

// What a person sends is read strictly: a misspelt field, a key twice (in
// any case), a value of the wrong type, trailing JSON, or arguments that
// are not an object is refused, with the thing at fault named, never read
// as a yes or a bare no.
func TestAnAnswerThatCannotBeReadStrictlyIsRefused(t *testing.T) {
	for raw, fault := range map[string]string{
		`{"QuestionID":"q","Verdict":{"aproved":true}}`:                                  "aproved",
		`{"QuestionID":"q","Aproved":true}`:                                              "Aproved",
		`{"QuestionID":"q","Verdict":{"approved":true,"argumnets":{"path":"/x"}}}`:       "argumnets",
		`{"QuestionID":"q","Verdict":{"approved":false,"Approved":true}}`:                "twice",
		`{"QuestionID":"q","Approved":false,"approved":true}`:                            "twice",
		`{"QuestionID":"q","QuestionID":"r"}`:                                            "twice",
		`{"QuestionID":"q","Verdict":{"approved":false,"message":"no","meſſage":"yes"}}`: "twice",
		`{"QuestionID":"q","Verdict":{"approved":true,"arguments":{"p":1,"p":2}}}`:       "twice",
		`{"QuestionID":"q","Verdict":{"approved":"yes"}}`:                                "approved",
		`{"QuestionID":"q","Verdict":{"approved":true,"arguments":["/x"]}}`:              "arguments",
		`{"QuestionID":"q","Verdict":{"approved":true,"arguments":"{\"p\":1}"}}`:         "arguments",
		`{"QuestionID":"q","Verdict":{"approved":true,"arguments":null}}`:                "null",
		`{"QuestionID":"q","Verdict":{"approved":true,"result":{"txt":"x"}}}`:            "txt",
		`{"QuestionID":"q","Verdict":{"approved":true}}{"Verdict":{"approved":false}}`:   "after",
		`{"QuestionID":"q","Verdict":true}`:                                              "Verdict",
		`"yes"`:                                                                          "string",
		`{"QuestionID":"q","Verdict":{"approved":true}`:                                  "end of JSON",
	} {
		_, err := decodeAnswer([]byte(raw), 1)
		require.Error(t, err, raw)
		assert.Contains(t, err.Error(), fault, raw)
	}
	// Executions from before verdicts read what their code read: a field
	// they did not know was ignored (their histories replay the same).
	a, err := decodeAnswer([]byte(`{"QuestionID":"q","Approved":true,"Extra":1}`), -1)
	require.NoError(t, err)
	assert.Equal(t, hooks.Verdict{Approved: true}, a.verdict())
	_, err = decodeAnswer([]byte(`{"QuestionID":"q","Approved":true,"Extra":1}`), 1)
	assert.ErrorContains(t, err, "Extra")
}

// A verdict a question cannot take is refused: an edit or an answer for
// the tool to a question that is not about a call, an answer that says two
// things.
func TestAVerdictTheQuestionCannotTakeIsRefused(t *testing.T) {
	onCall := &Question{ID: "q", Call: &hooks.ToolCall{ID: "c1", Name: "delete"}}
	noCall := &Question{ID: "q"}
	args := map[string]any{"path": "/x"}
	result := &hooks.ToolResult{Text: "done"}
	for name, c := range map[string]struct {
		q     *Question
		a     Answer
		fault string
	}{
		"an edit of no call":                  {noCall, Answer{Verdict: &hooks.Verdict{Approved: true, Arguments: args}}, "not about a tool call"},
		"an edit to nothing of no call":       {noCall, Answer{Verdict: &hooks.Verdict{Approved: true, Arguments: map[string]any{}}}, "not about a tool call"},
		"a tool's answer to no call":          {noCall, Answer{Verdict: &hooks.Verdict{Approved: true, Result: result}}, "not about a tool call"},
		"a rejection that edits":              {onCall, Answer{Verdict: &hooks.Verdict{Arguments: args}}, "an edit is an approval"},
		"an edit that also answers":           {onCall, Answer{Verdict: &hooks.Verdict{Approved: true, Arguments: args, Result: result}}, "give one"},
		"a yes beside a verdict's no":         {onCall, Answer{Approved: true, Verdict: &hooks.Verdict{}}, "Approved"},
		"a reason beside a different message": {onCall, Answer{Reason: "a", Verdict: &hooks.Verdict{Message: "b"}}, "Reason"},
	} {
		assert.ErrorContains(t, c.a.check(c.q), c.fault, name)
	}
	for name, c := range map[string]struct {
		q *Question
		a Answer
	}{
		"a bare yes":                  {noCall, Answer{Approved: true}},
		"a verdict's no with words":   {noCall, Answer{Verdict: &hooks.Verdict{Message: "no"}}},
		"an edit":                     {onCall, Answer{Verdict: &hooks.Verdict{Approved: true, Arguments: args}}},
		"an answer for the tool":      {onCall, Answer{Verdict: &hooks.Verdict{Approved: true, Result: result}}},
		"a reason equal to the words": {onCall, Answer{Reason: "no", Verdict: &hooks.Verdict{Message: "no"}}},
	} {
		assert.NoError(t, c.a.check(c.q), name)
	}
}

// The durable host answers a review with the verdict recorded for it (the
// same prompt about the same call) and suspends the step on any other: a
// verdict on one call never answers a review of another, and a yes to a
// prompt alone never passes for a verdict on a call.
func TestTheDurableHostAnswersAReviewOnlyWithItsOwnVerdict(t *testing.T) {
	a := &activities{agent: &Agent{Host: hooks.Host{Confirm: func(context.Context, hooks.Prompt) (bool, error) { return true, nil }}}}
	p := hooks.Prompt{Title: "Delete?", Body: "delete /"}
	call := hooks.ToolCall{ID: "c1", Name: "delete", Arguments: map[string]any{"path": "/", "n": 1.0}}
	edited := hooks.Verdict{Approved: true, Arguments: map[string]any{"path": "/tmp"}}
	answers := []Answer{
		{QuestionID: "q1", Prompt: p, Call: &call, Verdict: &edited},
		{QuestionID: "q2", Prompt: hooks.Prompt{Title: "Go on?"}, Approved: true}, // recorded before verdicts
	}
	asked := make(chan hooks.Review, 1)
	host := a.host(answers, asked, nil)
	assert.Nil(t, host.Confirm, "the Agent's Confirm is not asked: Review answers it")

	same := call
	same.Arguments = map[string]any{"n": 1, "path": "/"} // an int where the history has a float: the same call
	v, err := host.Review(context.Background(), hooks.Review{Prompt: p, Call: &same})
	require.NoError(t, err)
	assert.Equal(t, edited, v)
	v.Arguments["path"] = "/changed by a hook"
	v, _ = host.Review(context.Background(), hooks.Review{Prompt: p, Call: &same})
	assert.Equal(t, edited, v, "each review gets its own copy of the verdict")

	v, err = host.Review(context.Background(), hooks.Review{Prompt: hooks.Prompt{Title: "Go on?"}})
	require.NoError(t, err)
	assert.Equal(t, hooks.Verdict{Approved: true}, v, "an old yes answers its prompt")

	for name, r := range map[string]hooks.Review{
		"another call":                   {Prompt: p, Call: &hooks.ToolCall{ID: "c2", Name: "delete", Arguments: map[string]any{"path": "/", "n": 1.0}}},
		"other arguments":                {Prompt: p, Call: &hooks.ToolCall{ID: "c1", Name: "delete", Arguments: map[string]any{"path": "/etc", "n": 1.0}}},
		"the prompt without the call":    {Prompt: p},
		"a call the old yes did not see": {Prompt: hooks.Prompt{Title: "Go on?"}, Call: &call},
	} {
		_, err := host.Review(context.Background(), r)
		assert.ErrorIs(t, err, errSuspended, name)
		got := <-asked
		assert.Equal(t, r, got, name)
	}
}

// A person's words with a rejection reach the model once: added to a
// refusal that does not end with them, not repeated after one that does
// (a hook that refused with them), and never matched inside a word.
func TestARejectionsWordsReachTheModelOnce(t *testing.T) {
	no := func(msg string) []Answer { return []Answer{{Verdict: &hooks.Verdict{Message: msg}}} }
	for _, c := range []struct{ reason, msg, want string }{
		{"not approved", "no", "not approved: no"},
		{"rejected: use the trash", "use the trash", "rejected: use the trash"},
		{"use the trash", "use the trash", "use the trash"},
		{"refused by the user", "user", "refused by the user"},
		{"refused by the users", "user", "refused by the users: user"},
		{"refused", "!", "refused: !"},
		{"not approved", "", "not approved"},
	} {
		assert.Equal(t, c.want, withPersonsReason(c.reason, no(c.msg)), "%q + %q", c.reason, c.msg)
	}
	assert.Equal(t, "not approved: old reason", withPersonsReason("not approved", []Answer{{Reason: "old reason"}}), "an answer from before verdicts")
	assert.Equal(t, "not approved", withPersonsReason("not approved", []Answer{{Approved: true, Reason: "fine"}}), "a yes adds nothing")
}
