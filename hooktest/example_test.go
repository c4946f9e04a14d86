package hooktest_test

import (
	"fmt"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
)

// Start runs hooks outside a test; in a test, hooktest.New(t, hooks...)
// does the same and ends the run with the test.
func ExampleStart() {
	guard := hooks.Funcs{HookName: "guard", BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		if !c.Confirm(hooks.Prompt{Title: "run " + call.Name + "?"}) {
			return hooks.Refuse("refused by the user"), nil
		}
		return nil, nil
	}}
	h, err := hooktest.Start(hooktest.Options{Answers: []bool{false, true}}, guard)
	if err != nil {
		panic(err)
	}
	defer h.End(hooks.RunEnd{})
	for range 2 {
		o := h.Tool("deploy", nil)
		fmt.Printf("ran: %t, the model reads %q\n", o.Ran, o.Result.Text)
		fmt.Println(hooktest.Describe(o.Decisions))
	}
	fmt.Println(len(h.Prompts()), "prompts")
	// Output:
	// ran: false, the model reads "refused by the user"
	//   guard beforeToolExecute: refused: refused by the user
	// ran: true, the model reads "ok"
	//   guard beforeToolExecute: no opinion
	// 2 prompts
}
