package jsrt

import (
	"regexp"
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// goja sets a built-in up the first time a runtime uses it: a RegExp
// prototype costs more than the whole call of a small hook. A runtime
// prepared ahead sets up, off the hot path, the built-ins its hook's source
// names, and only those: each costs memory (the String prototype alone is
// about 27 KB) and garbage to collect once the runtime is thrown away, which
// a call pays for too. A name in a comment or a string only costs that; a
// built-in the scan misses is set up in the call, as without a warm-up.

// builtin is one built-in a runtime can set up ahead.
type builtin struct {
	words string // names that call for it in a hook's source
	code  string // sets it up; leaves nothing a hook could see
}

var builtins = [...]builtin{
	// Always: what an export returns is read with JSON.stringify, and the
	// model points' payloads are frozen with Object.freeze.
	{"", `JSON.stringify(JSON.parse("{}")); Object.freeze({});`},
	{"RegExp test exec", `/a/.test("a"); /a/g.exec("a");`},
	{"String startsWith endsWith includes indexOf lastIndexOf slice substring substr trim trimStart trimEnd " +
		"toUpperCase toLowerCase padStart padEnd repeat charAt charCodeAt codePointAt split replace replaceAll " +
		"match matchAll search concat at localeCompare normalize",
		`"a".toUpperCase().toLowerCase().trim().split(",").includes("B"); "a".startsWith("a"); "a".endsWith("a");
		"a".indexOf("a"); "a".slice(0); "a".substring(0); "a".padStart(2); "a".replace("a", "b");`},
	{"Array map filter join forEach some every find findIndex reduce push pop shift unshift concat includes " +
		"indexOf slice splice sort reverse flat flatMap fill from isArray",
		`[1].map(function (x) { return x; }).filter(Boolean).join(","); [].concat([]).indexOf(1); Array.isArray([]);
		[1].forEach(function () {}); [1].some(Boolean); [2, 1].sort();`},
	{"Object", `Object.keys({}); Object.assign({}, {}); Object.entries({}); Object.values({}); Object.isFrozen({});`},
	{"Promise async await then catch finally", `Promise.resolve().then(function () {}); (async function () { await 0; })();`},
	{"Date", `new Date(0).toISOString(); Date.now();`},
	{"Math Number parseInt parseFloat isNaN isFinite toFixed encodeURIComponent decodeURIComponent encodeURI decodeURI",
		`Math.max(1, 2); Number("1"); (1).toFixed(1); parseInt("1"); encodeURIComponent("a"); decodeURIComponent("a");`},
	{"Error TypeError RangeError throw", `new Error("warm-up"); new TypeError("warm-up");`},
	// Sets nothing up: its bit says the source names the built-ins that
	// freeze or ask whether a value is frozen (AsksFrozen).
	{"isFrozen isSealed isExtensible freeze seal preventExtensions", ""},
}

// asksFrozen is the bit of the last builtin.
const asksFrozen builtinSet = 1 << (len(builtins) - 1)

// AsksFrozen reports whether the program's source names a built-in that
// freezes or asks whether a value is frozen (Object.isFrozen, freeze…), so
// that a runtime prepares for it only when it can be asked.
func (p *Program) AsksFrozen() bool { return p.builtins&asksFrozen != 0 }

// builtinSet is a set of builtins, by index.
type builtinSet uint16

var (
	identifier = regexp.MustCompile(`[A-Za-z_$][A-Za-z0-9_$]*`)
	// regexpLiteral matches a slash where an expression starts, after
	// punctuation that cannot end one (after which a slash divides), and not
	// opening a comment.
	regexpLiteral = regexp.MustCompile(`(?:[=(,:!&|?;{}\[]|\breturn)\s*/[^/*\s]`)
	// alwaysBuiltins are those without words; wordBuiltins, by name, the rest.
	alwaysBuiltins, wordBuiltins = func() (builtinSet, map[string]builtinSet) {
		var always builtinSet
		m := map[string]builtinSet{}
		for i, b := range builtins {
			if b.words == "" {
				always |= 1 << i
			}
			for w := range strings.FieldsSeq(b.words) {
				m[w] |= 1 << i
			}
		}
		return always, m
	}()
)

// builtinsOf returns the built-ins source calls for. A regular expression
// literal calls for RegExp, named or not.
func builtinsOf(source string) builtinSet {
	set := alwaysBuiltins
	for _, w := range identifier.FindAllString(source, -1) {
		set |= wordBuiltins[w]
	}
	if regexpLiteral.MatchString(source) {
		set |= wordBuiltins["RegExp"]
	}
	return set
}

// warmUps holds the compiled warm-up of each set of built-ins asked for.
var warmUps sync.Map // builtinSet → *goja.Program

// warmUp returns the program that sets up set.
func warmUp(set builtinSet) *goja.Program {
	if p, ok := warmUps.Load(set); ok {
		return p.(*goja.Program)
	}
	var code strings.Builder
	code.WriteString("(function () {\n")
	for i, b := range builtins {
		if set&(1<<i) != 0 && b.code != "" {
			code.WriteString(b.code + "\n")
		}
	}
	code.WriteString("})()")
	p, _ := warmUps.LoadOrStore(set, goja.MustCompile("warm-up", code.String(), false))
	return p.(*goja.Program)
}

// WarmUp sets up in rt the built-ins the program's source names.
func (p *Program) WarmUp(rt *goja.Runtime) error {
	_, err := rt.RunProgram(warmUp(p.builtins))
	return err
}
