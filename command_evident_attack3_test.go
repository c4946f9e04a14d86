package hooks_test

import (
	"testing"
	"unicode/utf16"

	"github.com/rienda/hooks"
	"github.com/stretchr/testify/assert"
)

// utf16le is s in UTF-16, little endian, with no byte order mark.
func utf16le(s string) []byte {
	var out []byte
	for _, u := range utf16.Encode([]rune(s)) {
		out = append(out, byte(u), byte(u>>8))
	}
	return out
}

// Cursor's decision key, "permission", is a decision key of the root's
// rule, so every guard reads a broken Cursor deny (in another case, a
// typo, a quote that broke its JSON) as a deny; a deny in UTF-16, or
// with NULs in it, is still a deny; "permission" text in a valid allow
// is no deny.
func TestEvidentRefusalReadsPermissionAndUTF16(t *testing.T) {
	for _, out := range [][]byte{
		[]byte(`{"permission":"deny"}`),
		[]byte(`{"Permission":"Deny"}`),
		[]byte(`{"permision":"deny"}`),
		[]byte(`{"permission":"deny","agent_message":"rm "-rf" /"}`),
		[]byte(`{"permission":"allow","permission":"deny"}`),
		append([]byte{0xFF, 0xFE}, utf16le(`{"decision":"block"}`)...),
		utf16le(`{"permission":"deny"}`),
		append([]byte{0xFE, 0xFF}, []byte("\x00{\x00\"\x00d\x00e\x00c\x00i\x00s\x00i\x00o\x00n\x00\"\x00:\x00\"\x00d\x00e\x00n\x00y\x00\"\x00}")...),
		[]byte("{\"decision\":\"blo\x00ck\"}"),
	} {
		_, ok := hooks.EvidentRefusal(out)
		assert.True(t, ok, "%q", out)
	}
	for _, out := range [][]byte{
		[]byte(`{"permission":"allow","agent_message":"permission: deny was asked"}`),
		[]byte(`{"permission":"allow"}`),
		utf16le(`{"permission":"allow"}`),
		[]byte("{\"decision\":\"approve\",\"x\":\"\x00\"}"),
	} {
		what, ok := hooks.EvidentRefusal(out)
		assert.False(t, ok, "%q read as %s", out, what)
	}
}
