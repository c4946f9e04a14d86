package strictjson

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

type inner struct {
	Refused *bool           `json:"refused"`
	Schema  json.RawMessage `json:"schema"`
	Blob    []byte          `json:"blob"`
	Any     map[string]any  `json:"any"`
}

type outer struct {
	Expect inner   `json:"expect"`
	List   []inner `json:"list"`
}

var outerShape = ShapeOf(reflect.TypeFor[outer]())

// What encoding/json takes silently (another case, a repeated key) is an
// error naming the key, the valid ones and the line; what a field holds
// as a raw value (a schema, a map) may be anything.
func TestCheckTakesKeysExactly(t *testing.T) {
	for text, want := range map[string]string{
		`{"expect": {"Refused": true}}`:                           `expect.Refused: unknown field "Refused"; the fields are refused, schema, blob, any (line 1)`,
		"{\n\"expect\": {\"refused\": true, \"refused\": false}}": `expect.refused: given twice: the first would be lost (line 2)`,
		`{"list": [{"refsed": true}]}`:                            `list[0].refsed: unknown field "refsed"; the fields are refused, schema, blob, any (line 1)`,
		`{"expect": []}`:                                          `expect: want an object with refused, schema, blob, any, not an array (line 1)`,
		`{} {}`:                                                   `more than one JSON value (line 1)`,
	} {
		err := Check([]byte(text), outerShape)
		if assert.Error(t, err, text) {
			assert.Contains(t, err.Error(), want, text)
		}
	}
	assert.NoError(t, Check([]byte(`{"expect": {"refused": true, "schema": {"type": "object", "Type": [1]}, "blob": "AAE=", "any": {"X": null}}}`), outerShape))
}
