package hooks_test

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
)

type cents int64

func TestToolCallNumber(t *testing.T) {
	for name, tc := range map[string]struct {
		value any
		want  float64
		ok    bool
	}{
		"float64":                  {600.0, 600, true},
		"float32":                  {float32(0.5), 0.5, true},
		"int":                      {600, 600, true},
		"int8":                     {int8(-8), -8, true},
		"int16":                    {int16(16), 16, true},
		"int32":                    {int32(32), 32, true},
		"int64":                    {int64(-64), -64, true},
		"uint":                     {uint(1), 1, true},
		"uint8":                    {uint8(8), 8, true},
		"uint16":                   {uint16(16), 16, true},
		"uint32":                   {uint32(32), 32, true},
		"uint64":                   {uint64(1 << 53), 1 << 53, true},
		"uintptr":                  {uintptr(7), 7, true},
		"a named type":             {cents(250), 250, true},
		"json.Number":              {json.Number("12.5"), 12.5, true},
		"json.Number too big":      {json.Number("1e400"), 0, false},
		"json.Number not a number": {json.Number("x"), 0, false},
		"a quoted number":          {"600", 0, false},
		"a bool":                   {true, 0, false},
		"a pointer":                {new(int), 0, false},
		"null":                     {nil, 0, false},
	} {
		t.Run(name, func(t *testing.T) {
			got, ok := hooks.ToolCall{Arguments: map[string]any{"n": tc.value}}.Number("n")
			assert.Equal(t, tc.ok, ok)
			if tc.ok {
				assert.Equal(t, tc.want, got)
			}
		})
	}
	_, ok := hooks.ToolCall{Arguments: map[string]any{"n": 1}}.Number("missing")
	assert.False(t, ok, "a missing key")
	_, ok = hooks.ToolCall{}.Number("n")
	assert.False(t, ok, "no arguments at all")
	nan, ok := hooks.ToolCall{Arguments: map[string]any{"n": math.NaN()}}.Number("n")
	assert.True(t, ok && math.IsNaN(nan), "NaN is a float64; a guard compares it as it compares any")
}

// A payment limit reads the amount with Number, so it holds whether the
// amount came from a model (JSON: float64), from Go code (int) or from a
// decoder with UseNumber (json.Number), and refuses an amount it cannot
// read rather than letting it through.
func ExampleToolCall_Number() {
	limit := func(call hooks.ToolCall) string {
		amount, ok := call.Number("amount")
		switch {
		case !ok:
			return "refused: amount is not a number"
		case amount > 500:
			return fmt.Sprintf("refused: %g is over the limit", amount)
		}
		return "allowed"
	}

	var fromModel hooks.ToolCall
	_ = json.Unmarshal([]byte(`{"name": "pay", "arguments": {"amount": 600}}`), &fromModel)
	fmt.Printf("%T from a model: %s\n", fromModel.Arguments["amount"], limit(fromModel))

	fromGo := hooks.ToolCall{Name: "pay", Arguments: map[string]any{"amount": 600}}
	fmt.Printf("%T from Go: %s\n", fromGo.Arguments["amount"], limit(fromGo))

	fmt.Println(limit(hooks.ToolCall{Name: "pay", Arguments: map[string]any{"amount": json.Number("20")}}))
	fmt.Println(limit(hooks.ToolCall{Name: "pay", Arguments: map[string]any{"amount": "600"}}))
	// Output:
	// float64 from a model: refused: 600 is over the limit
	// int from Go: refused: 600 is over the limit
	// allowed
	// refused: amount is not a number
}
