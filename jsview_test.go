package hooks_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rienda/hooks"
)

// lazyHistory is a conversation with every field a message may carry.
func lazyHistory() []hooks.Message {
	return []hooks.Message{
		{Role: "system", Text: "be brief"},
		{Role: "user", Text: "list the files", ID: "m1"},
		{Role: "assistant", ID: "m2", ToolCalls: []hooks.ToolCall{{ID: "c1", Name: "shell", Arguments: map[string]any{"command": "ls"}}}},
		{Role: "tool", Text: "a.txt", ToolCallID: "c1"},
	}
}

// systemOf runs source's beforeModelRequest on msgs and returns the system
// prompt it left, failing on any diagnostic.
func systemOf(t *testing.T, source string, msgs []hooks.Message) string {
	t.Helper()
	var rec recorder
	run := start(t, &rec, js(t, "view", source))
	step, err := run.BeforeModelRequest(bg, hooks.ModelRequest{System: "s", Messages: msgs})
	require.NoError(t, err)
	require.Empty(t, rec.diagnostics())
	assert.Equal(t, msgs, step.Request.Messages, "the hook cannot change the messages")
	return step.Request.System
}

func TestLazyMessagesReadAsTheirJSON(t *testing.T) {
	msgs := lazyHistory()
	got := systemOf(t, `exports.beforeModelRequest = (ctx, req) => ({ system: JSON.stringify(req.messages) })`, msgs)
	want, err := json.Marshal(msgs)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), got, "{role, text} plus id, toolCalls, toolCallId when set")

	keys := systemOf(t, `exports.beforeModelRequest = (ctx, req) => ({ system: req.messages.map((m) => Object.keys(m).join(",")).join(" | ") })`, msgs)
	assert.Equal(t, "role,text | role,text,id | role,text,id,toolCalls | role,text,toolCallId", keys, "the order of the JSON; empty fields left out")
}

func TestLazyMessagesBehaveAsAnArray(t *testing.T) {
	got := systemOf(t, `exports.beforeModelRequest = (ctx, req) => {
		const m = req.messages, out = [];
		out.push(Array.isArray(m), m.length, m[1].text, m[9] === undefined, m[-1] === undefined);
		let roles = ""; for (const x of m) roles += x.role[0];
		out.push(roles, [...m].length, m.filter((x) => x.role === "tool").length, m.map((x) => x.role).join("+"));
		out.push(m[1] === m[1], m.indexOf(m[2]), m.slice(1, 2)[0].id, [].concat(m).length, Object.keys(m).join(""));
		out.push(Array.from(m).length, m.some((x) => x.toolCallId === "c1"), m[2].toolCalls[0].arguments.command);
		let keys = ""; for (const k in m) keys += k;
		out.push(keys, m.at(-1).text, JSON.stringify(Object.entries(m[0])));
		return { system: out.join(" ") };
	}`, lazyHistory())
	assert.Equal(t, `true 4 list the files true true suat 4 1 system+user+assistant+tool true 2 m1 4 0123 4 true ls 0123 a.txt [["role","system"],["text","be brief"]]`, got)
}

func TestLazyPayloadsAreFrozen(t *testing.T) {
	got := systemOf(t, `exports.beforeModelRequest = (ctx, req) => {
		const m = req.messages;
		return { system: [Object.isFrozen(m), Object.isSealed(m), Object.isExtensible(m), Object.freeze(m) === m,
			Object.isFrozen(m[0]), Object.isFrozen(m[2].toolCalls), Object.isFrozen(m[2].toolCalls[0].arguments),
			Object.isFrozen({}), Object.isExtensible({})].join(" ") };
	}`, lazyHistory())
	assert.Equal(t, "true true false true true true true false true", got, "views read as frozen; other values as before")
}

func TestLazyPayloadWritesChangeNothing(t *testing.T) {
	sloppy := systemOf(t, `exports.beforeModelRequest = (ctx, req) => {
		const m = req.messages;
		m[0] = "x"; m.length = 0; m[0].text = "changed"; delete m[0].role; m[2].toolCalls[0].arguments.command = "rm";
		let pushed = "no throw"; try { m.push({}); } catch (e) { pushed = e.constructor.name; }
		return { system: [m.length, m[0].text, m[0].role, m[2].toolCalls[0].arguments.command, pushed].join(" ") };
	}`, lazyHistory())
	assert.Equal(t, "4 be brief system ls TypeError", sloppy)

	strict := systemOf(t, `"use strict";
	exports.beforeModelRequest = (ctx, req) => {
		const m = req.messages, out = [];
		for (const write of [() => { m[0] = "x"; }, () => { m.length = 0; }, () => { m[0].text = "x"; }, () => { m.pop(); }]) {
			try { write(); out.push("wrote"); } catch (e) { out.push(e instanceof TypeError); }
		}
		return { system: out.join(" ") + " " + m.length };
	}`, lazyHistory())
	assert.Equal(t, "true true true true 4", strict, "strict mode throws, as on a frozen array")
}

func TestLazyPayloadCannotChangeWhatTheNextHookOrTheModelSees(t *testing.T) {
	var rec recorder
	first := js(t, "first", `exports.beforeModelRequest = (ctx, req) => {
		req.messages[1].text = "changed"; req.messages.length = 1;
		req.messages = []; // the hook's own field, from now on
		return { system: req.system + " first(" + req.messages.length + ")" };
	};
	exports.afterModelResponse = (ctx, resp) => { resp.toolCalls[0].name = "rm"; resp.toolCalls.length = 0; resp.toolCalls = null; };`)
	second := js(t, "second", `exports.beforeModelRequest = (ctx, req) => ({ system: req.system + " second(" + JSON.stringify(req.messages.map((m) => m.text)) + ")" });
	exports.afterModelResponse = (ctx, resp) => ({ text: resp.toolCalls.map((c) => c.name + ":" + c.arguments.command).join() });`)
	run := start(t, &rec, first, second)
	msgs := lazyHistory()
	call := hooks.ToolCall{ID: "c9", Name: "shell", Arguments: map[string]any{"command": "ls"}}
	var seen hooks.ModelRequest
	reply, err := run.CallModel(bg, hooks.ModelRequest{System: "s", Messages: msgs}, func(c *hooks.Context, req hooks.ModelRequest) (hooks.ModelResponse, error) {
		seen = req
		return hooks.ModelResponse{ToolCalls: []hooks.ToolCall{call}}, nil
	})
	require.NoError(t, err)
	assert.Empty(t, rec.diagnostics())
	assert.Equal(t, `s first(0) second(["be brief","list the files","","a.txt"])`, seen.System)
	assert.Equal(t, lazyHistory(), seen.Messages, "the model gets the messages as they were")
	assert.Equal(t, "shell:ls", reply.Response.Text)
	assert.Equal(t, []hooks.ToolCall{call}, reply.Response.ToolCalls)
}

// TestLazyMessagesAreMadeOnlyWhenRead: a message that cannot be converted
// (its tool call's arguments hold a cycle) costs a hook that does not read
// it nothing, and throws, catchably, where a hook reads it.
func TestLazyMessagesAreMadeOnlyWhenRead(t *testing.T) {
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	msgs := append(lazyHistory(), hooks.Message{Role: "assistant", ToolCalls: []hooks.ToolCall{{Name: "loop", Arguments: cyclic}}})
	defer func() { delete(cyclic, "self") }() // for assert's printing of msgs

	assert.Equal(t, "s!", systemOf(t, `exports.beforeModelRequest = (ctx, req) => ({ system: req.system + "!" })`, msgs))
	assert.Equal(t, "5 tool", systemOf(t, `exports.beforeModelRequest = (ctx, req) => ({ system: req.messages.length + " " + req.messages[3].role })`, msgs))
	got := systemOf(t, `exports.beforeModelRequest = (ctx, req) => {
		try { req.messages[4]; } catch (e) { return { system: "threw: " + e.message }; }
	}`, msgs)
	assert.Contains(t, got, "threw: [4]: toolCalls: ")
	assert.Contains(t, got, "contains itself")
}

func TestLazyMessagesFieldIsAPlainFieldOnceRead(t *testing.T) {
	got := systemOf(t, `exports.beforeModelRequest = (ctx, req) => {
		const before = Object.keys(req).join(",");
		const first = req.messages;
		const d = Object.getOwnPropertyDescriptor(req, "messages");
		return { system: [before, first === req.messages, "value" in d, d.writable, d.enumerable, JSON.stringify(Object.keys({ ...req }))].join(" ") };
	}`, lazyHistory())
	assert.Equal(t, `system,messages,model,tools,toolChoice,settings true true true true ["system","messages","model","tools","toolChoice","settings"]`, got)
}

func TestLazyToolCallsAndLongResultText(t *testing.T) {
	var rec recorder
	long := strings.Repeat("x", 10<<10)
	run := start(t, &rec, js(t, "view", `
		exports.afterModelResponse = (ctx, resp) => ({ text: [Array.isArray(resp.toolCalls), Object.isFrozen(resp.toolCalls),
			resp.toolCalls.length, JSON.stringify(resp.toolCalls)].join(" ") });
		exports.afterToolExecute = (ctx, call, result) => {
			const keys = Object.keys(result).join(",");
			if (call.name === "skip") return { isError: true };
			const n = result.text.length;
			result.text = "mine";
			return { text: [keys, n, result.text, JSON.stringify(result).length].join(" ") };
		};`))
	calls := []hooks.ToolCall{{ID: "a", Name: "x", Arguments: map[string]any{"k": 1.0}}}
	reply, err := run.CallModel(bg, hooks.ModelRequest{}, func(*hooks.Context, hooks.ModelRequest) (hooks.ModelResponse, error) {
		return hooks.ModelResponse{ToolCalls: calls}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, `true true 1 [{"arguments":{"k":1},"id":"a","name":"x"}]`, reply.Response.Text)

	tool := func(*hooks.Context, hooks.ToolCall) (hooks.ToolResult, error) {
		return hooks.ToolResult{Text: long}, nil
	}
	res, err := run.CallTool(bg, hooks.ToolCall{Name: "read"}, tool)
	require.NoError(t, err)
	assert.Equal(t, `isError,text,value 10240 mine 44`, res.Text)
	res, err = run.CallTool(bg, hooks.ToolCall{Name: "skip"}, tool)
	require.NoError(t, err)
	assert.Equal(t, long, res.Text, "a hook that does not read the text keeps it")
	assert.True(t, res.IsError)
	assert.Empty(t, rec.diagnostics())
}

func TestLazyMessagesCanBeKeptInState(t *testing.T) {
	var rec recorder
	run := start(t, &rec, js(t, "view", `exports.beforeModelRequest = (ctx, req) => ({ state: { kept: req.messages.slice(0, 1), all: req.messages } })`))
	_, err := run.BeforeModelRequest(bg, hooks.ModelRequest{Messages: lazyHistory()[:2]})
	require.NoError(t, err)
	assert.Empty(t, rec.diagnostics())
	snap, err := run.Snapshot()
	require.NoError(t, err)
	var doc struct{ States map[string]json.RawMessage }
	require.NoError(t, json.Unmarshal(snap, &doc))
	assert.JSONEq(t, `{"kept":[{"role":"system","text":"be brief"}],"all":[{"role":"system","text":"be brief"},{"role":"user","text":"list the files","id":"m1"}]}`, string(doc.States["view"]))
}
