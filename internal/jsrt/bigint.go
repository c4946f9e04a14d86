package jsrt

import (
	"fmt"
	"math/big"
	"reflect"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
)

// A hook cannot use BigInt. goja computes a BigInt operator with math/big
// inside one VM instruction, with no interrupt check and no size limit:
// 1n << (2n ** 40n) asks Go for 128 GiB at once and kills the process,
// 2n ** (2n ** 40n) never ends, formatting a number of millions of digits
// holds a call for seconds (vm.go, builtin_bigint.go). goja's compiler
// even computes constant BigInt expressions while it compiles (compiler's
// evalConst), and its lexer reads a BigInt literal of a million digits in
// seconds (math/big's SetString is quadratic). None of this can be bounded
// from outside goja, and a patched goja kept in this module's go.mod would
// not reach the hosts that import the module (a replace directive is
// ignored by dependents). Hooks process JSON, which has no BigInt, so they
// are refused instead, everywhere a BigInt can come from:
//
//   - a BigInt literal in a hook's file is a SyntaxError naming the file,
//     line and column, before goja compiles it (ParseJS);
//   - eval and the Function constructors (Function, and those of
//     generator and async functions) check the source they are given the
//     same way, and throw a catchable SyntaxError;
//   - BigInt, BigInt64Array and BigUint64Array are functions that throw a
//     TypeError (BigInt.asUintN and asIntN too), and DataView's
//     getBigInt64, getBigUint64, setBigInt64 and setBigUint64 throw too.
//
// eval is therefore never goja's direct eval: a hook's eval(s) evaluates s
// in the global scope, as (0, eval)(s) does.

// bigIntRefused is the message of everything that refuses BigInt.
const bigIntRefused = "BigInt is not available in a hook (goja cannot bound its arithmetic)"

// longLiteral is the length from which a numeric literal that ends in n
// is refused before parsing: the lexer reads one in quadratic time, before
// the AST could be checked (a million digits: 4 s).
const longLiteral = 256

// longBigInt returns the offset of the first run of letters, digits, _ and
// . that starts with a digit (after a character that cannot precede one
// inside a name), is longLiteral long or more and ends in n; or -1. Such a
// run inside a string or a comment is refused alike: real code has none.
// A hand-written scan: a regular expression with a counted repetition
// costs Go's regexp the count at every character.
func longBigInt(source string) int {
	word := func(c byte) bool {
		return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; i < len(source); {
		if !word(source[i]) {
			i++
			continue
		}
		start := i
		for i < len(source) && word(source[i]) {
			i++
		}
		after := start == 0 || source[start-1] != '$'
		for start < i && source[start] == '.' { // a spread: ...1n
			start++
		}
		if start < i && source[start] >= '0' && source[start] <= '9' && after && i-start >= longLiteral && source[i-1] == 'n' {
			return start
		}
	}
	return -1
}

// ParseJS parses source as goja would compile it, and refuses BigInt: a
// BigInt literal is a parser.ErrorList whose first error is at the first
// such literal.
func ParseJS(name, source string) (*ast.Program, error) {
	if at := longBigInt(source); at >= 0 {
		f := file.NewFile(name, source, 1)
		return nil, parser.ErrorList{{Position: f.Position(at), Message: bigIntRefused + ": a BigInt literal"}}
	}
	prog, err := parser.ParseFile(nil, name, source, 0)
	if err != nil {
		return nil, err
	}
	if lit := findBigInt(prog); lit != nil {
		literal := lit.Literal
		if len(literal) > 20 {
			literal = literal[:17] + "..."
		}
		return nil, parser.ErrorList{{Position: prog.File.Position(int(lit.Idx) - prog.File.Base()), Message: bigIntRefused + ": " + literal}}
	}
	return prog, nil
}

var (
	astPackage = reflect.TypeFor[ast.Program]().PkgPath()
	numberType = reflect.TypeFor[*ast.NumberLiteral]()
)

// findBigInt returns the first BigInt literal of prog in source order, or
// nil. It walks every node by reflection, so that no kind of node can hide
// one, with a list rather than recursion: the parser nests as deep as the
// source does.
func findBigInt(prog *ast.Program) *ast.NumberLiteral {
	var first *ast.NumberLiteral
	todo := []reflect.Value{reflect.ValueOf(prog)}
	for len(todo) > 0 {
		v := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				continue
			}
			if v.Type() == numberType {
				n := v.Interface().(*ast.NumberLiteral)
				if _, ok := n.Value.(*big.Int); ok && (first == nil || n.Idx < first.Idx) {
					first = n
				}
				continue
			}
			todo = append(todo, v.Elem())
		case reflect.Slice:
			for i := v.Len() - 1; i >= 0; i-- {
				todo = append(todo, v.Index(i))
			}
		case reflect.Struct:
			if v.Type().PkgPath() != astPackage {
				continue // file.File, and other types that hold no node
			}
			for i := 0; i < v.NumField(); i++ {
				todo = append(todo, v.Field(i))
			}
		}
	}
	return first
}

// refuseBigInt replaces what makes or reads a BigInt with functions that
// throw, and the functions that compile source with ones that check it
// first. It runs once, after the other bounds, before any hook code.
func (a *allocGuard) refuseBigInt() {
	rt := a.rt
	global := rt.GlobalObject()
	refuse := func(name string) *goja.Object {
		fn := rt.ToValue(func(goja.ConstructorCall) *goja.Object {
			panic(rt.NewTypeError("%s: %s", name, bigIntRefused))
		}).(*goja.Object)
		_ = fn.DefineDataProperty("name", rt.ToValue(name[strings.LastIndex(name, ".")+1:]), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		return fn
	}
	for _, name := range []string{"BigInt", "BigInt64Array", "BigUint64Array"} {
		orig, ok := global.Get(name).(*goja.Object)
		if !ok {
			continue
		}
		stub := refuse(name)
		if proto, ok := orig.Get("prototype").(*goja.Object); ok {
			_ = stub.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
			_ = proto.DefineDataProperty("constructor", stub, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		}
		if name == "BigInt" {
			for _, m := range []string{"asUintN", "asIntN"} {
				_ = stub.DefineDataProperty(m, refuse("BigInt."+m), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			}
		}
		_ = global.DefineDataProperty(name, stub, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	if dv, ok := global.Get("DataView").(*goja.Object); ok {
		proto := dv.Get("prototype").(*goja.Object)
		for _, m := range []string{"getBigInt64", "getBigUint64", "setBigInt64", "setBigUint64"} {
			_ = proto.DefineDataProperty(m, refuse("DataView.prototype."+m), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		}
	}
	a.checkEval()
	a.checkFunctionConstructors()
}

// checkSource throws a SyntaxError when source holds a BigInt literal;
// source that does not parse is left to goja, which throws its own.
func (a *allocGuard) checkSource(what, source string) {
	_, err := ParseJS(what, source)
	list, ok := err.(parser.ErrorList)
	if !ok || len(list) == 0 || !strings.HasPrefix(list[0].Message, bigIntRefused) {
		return
	}
	pos := list[0].Position
	panic(a.syntaxError(fmt.Sprintf("%s (%s:%d:%d)", list[0].Message, what, pos.Line, pos.Column)))
}

// syntaxError is a SyntaxError of the runtime, as a value to panic with.
func (a *allocGuard) syntaxError(message string) any {
	if ex, err := a.rt.New(a.rt.Get("SyntaxError"), a.rt.ToValue(message)); err == nil {
		return ex
	}
	return a.rt.NewTypeError(message)
}

// checkEval replaces the global eval with one that checks its source and
// then evaluates it as goja's eval does when called indirectly.
func (a *allocGuard) checkEval() {
	global := a.rt.GlobalObject()
	orig, length := original(global, "eval")
	fn := a.function("eval", length, func(call goja.FunctionCall) goja.Value {
		if arg := call.Argument(0); isStringPrimitive(arg) {
			a.checkSource("eval", arg.String())
		}
		return orig(goja.FunctionCall{This: goja.Undefined(), Arguments: call.Arguments})
	})
	_ = global.DefineDataProperty("eval", fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// isStringPrimitive reports whether v is a string, not a String object
// (eval returns a String object as it is).
func isStringPrimitive(v goja.Value) bool {
	_, isObject := v.(*goja.Object)
	return !isObject && v.ExportType() == stringType
}

var stringType = reflect.TypeFor[string]()

// functionConstructors are the kinds of function goja's constructors
// compile, with how goja's functionCtor starts the source it builds.
var functionConstructors = goja.MustCompile("bigint", `[Function,
	Object.getPrototypeOf(function* () {}).constructor,
	Object.getPrototypeOf(async function () {}).constructor]`, true)

var functionHeads = [...]string{"(function anonymous(", "(function* anonymous(", "(async function anonymous("}

// checkFunctionConstructors replaces Function and the constructors of
// generator and async functions (each prototype's constructor, and the
// global Function) with constructors that convert their arguments to
// strings once, check the source goja would build from them, and then
// construct with the original, for the same new.target.
func (a *allocGuard) checkFunctionConstructors() {
	rt := a.rt
	v, err := rt.RunProgram(functionConstructors)
	if err != nil {
		panic(err) // function expressions in a fresh runtime cannot fail
	}
	ctors := v.(*goja.Object)
	for i, head := range functionHeads {
		orig := ctors.Get(fmt.Sprint(i)).(*goja.Object)
		construct, _ := goja.AssertConstructor(orig)
		name := orig.Get("name").String()
		var fn *goja.Object
		fn = rt.ToValue(func(c goja.ConstructorCall) *goja.Object {
			target := c.NewTarget
			if target == nil {
				target = fn
			}
			args := make([]goja.Value, len(c.Arguments))
			texts := make([]string, len(c.Arguments))
			for i, arg := range c.Arguments {
				texts[i] = arg.String()
				args[i] = rt.ToValue(texts[i])
			}
			var src strings.Builder
			src.WriteString(head)
			if len(texts) > 1 {
				src.WriteString(strings.Join(texts[:len(texts)-1], ","))
			}
			src.WriteString("\n) {\n")
			if len(texts) > 0 {
				src.WriteString(texts[len(texts)-1])
			}
			src.WriteString("\n})")
			a.checkSource(name, src.String())
			o, err := construct(target, args...)
			if err != nil {
				panic(err)
			}
			return o
		}).(*goja.Object)
		_ = fn.DefineDataProperty("name", rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = fn.DefineDataProperty("length", orig.Get("length"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		proto := orig.Get("prototype").(*goja.Object)
		_ = fn.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
		_ = fn.SetPrototype(orig.Prototype())
		_ = proto.DefineDataProperty("constructor", fn, goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		if i == 0 {
			_ = rt.GlobalObject().DefineDataProperty("Function", fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		}
	}
}
