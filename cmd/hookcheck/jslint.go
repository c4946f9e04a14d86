package main

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
	"github.com/dop251/goja/token"

	"github.com/rienda/hooks/internal/suggest"
)

// What lint reads in a JS hook's source, beyond what loading it finds: the
// object literals an export returns, whose keys the runtime matches
// exactly (a key {Allow: false} is ignored there, with a diagnostic, and
// the call is allowed), and state that a fresh runtime per call resets.

// returnFields are the fields of each export's return shape, as package
// hooks reads them (jsreturn.go); every export may return state.
var returnFields = map[string][]string{
	"beforeRun":           {"state"},
	"afterRun":            {"state"},
	"beforeModelRequest":  {"system", "model", "tools", "respond", "end", "output", "messages", "state"},
	"afterModelResponse":  {"text", "end", "output", "continue", "state"},
	"beforeToolExecute":   {"allow", "reason", "block", "arguments", "result", "state"},
	"afterToolExecute":    {"text", "isError", "value", "state"},
	"beforeTrustDecision": {"approve", "state"},
}

// nestedFields are the fields of the objects some fields hold.
var nestedFields = map[string][]string{
	"result":  {"text", "isError", "value"},
	"respond": {"text", "toolCalls"},
	"end":     {"output"},
}

// jsFinding is one thing lint says about a JS source: a problem, or a
// hint that fails nothing.
type jsFinding struct {
	pos  file.Position
	hint bool
	msg  string
}

// lintJS reads the source of a hook's index.js and returns what it finds.
// A source that does not parse yields nothing: loading it reports that.
func lintJS(path string) []jsFinding {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	fs := &file.FileSet{}
	prog, err := parser.ParseFile(fs, path, string(src), 0)
	if err != nil {
		return nil
	}
	l := &jsLinter{fs: fs, seen: map[string]bool{}, top: topDeclarations(prog), declared: allDeclarations(prog)}
	for name, fn := range exportsOf(prog) {
		if fields, ok := returnFields[name]; ok {
			l.returns(name, fields, fn)
		}
	}
	l.state(prog)
	sort.SliceStable(l.out, func(i, j int) bool {
		a, b := l.out[i].pos, l.out[j].pos
		return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
	})
	return l.out
}

type jsLinter struct {
	fs       *file.FileSet
	out      []jsFinding
	seen     map[string]bool               // findings already made, by position and text
	top      map[string]bool               // the module's own top-level names
	declared map[string]bool               // every name declared anywhere in the file
	locals   map[string]*ast.ObjectLiteral // the export's variables holding object literals
}

func (l *jsLinter) add(idx file.Idx, hint bool, format string, args ...any) {
	f := jsFinding{pos: l.fs.Position(idx), hint: hint, msg: fmt.Sprintf(format, args...)}
	key := fmt.Sprintf("%d:%d:%s", f.pos.Line, f.pos.Column, f.msg)
	if !l.seen[key] {
		l.seen[key] = true
		l.out = append(l.out, f)
	}
}

// exportsOf finds the functions a module exports by name: exports.x = fn,
// module.exports.x = fn, module.exports = {x: fn, x() {…}}, where fn may
// be a function's name declared in the module.
func exportsOf(prog *ast.Program) map[string]ast.Node {
	funcs := map[string]ast.Node{}
	for _, st := range prog.Body {
		switch s := st.(type) {
		case *ast.FunctionDeclaration:
			if s.Function.Name != nil {
				funcs[string(s.Function.Name.Name)] = s.Function
			}
		case *ast.VariableStatement:
			bindFuncs(funcs, s.List)
		case *ast.LexicalDeclaration:
			bindFuncs(funcs, s.List)
		}
	}
	resolve := func(e ast.Expression) ast.Node {
		switch v := e.(type) {
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
			return v
		case *ast.Identifier:
			return funcs[string(v.Name)]
		}
		return nil
	}
	out := map[string]ast.Node{}
	for _, st := range prog.Body {
		es, ok := st.(*ast.ExpressionStatement)
		if !ok {
			continue
		}
		as, ok := es.Expression.(*ast.AssignExpression)
		if !ok || as.Operator != token.ASSIGN {
			continue
		}
		if isModuleExports(as.Left) {
			if obj, ok := as.Right.(*ast.ObjectLiteral); ok {
				for _, p := range obj.Value {
					if pk, ok := p.(*ast.PropertyKeyed); ok && !pk.Computed {
						if name, ok := keyName(pk.Key); ok {
							if fn := resolve(pk.Value); fn != nil {
								out[name] = fn
							}
						}
					} else if ps, ok := p.(*ast.PropertyShort); ok {
						if fn := funcs[string(ps.Name.Name)]; fn != nil {
							out[string(ps.Name.Name)] = fn
						}
					}
				}
			}
			continue
		}
		if name, ok := exportName(as.Left); ok {
			if fn := resolve(as.Right); fn != nil {
				out[name] = fn
			}
		}
	}
	return out
}

func bindFuncs(funcs map[string]ast.Node, list []*ast.Binding) {
	for _, b := range list {
		id, ok := b.Target.(*ast.Identifier)
		if !ok {
			continue
		}
		switch v := b.Initializer.(type) {
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
			funcs[string(id.Name)] = v
		}
	}
}

// isModuleExports reports whether e is module.exports.
func isModuleExports(e ast.Expression) bool {
	d, ok := e.(*ast.DotExpression)
	if !ok || d.Identifier.Name != "exports" {
		return false
	}
	id, ok := d.Left.(*ast.Identifier)
	return ok && id.Name == "module"
}

// exportName reads exports.x, exports["x"], module.exports.x.
func exportName(e ast.Expression) (string, bool) {
	var left ast.Expression
	var name string
	switch v := e.(type) {
	case *ast.DotExpression:
		left, name = v.Left, string(v.Identifier.Name)
	case *ast.BracketExpression:
		s, ok := v.Member.(*ast.StringLiteral)
		if !ok {
			return "", false
		}
		left, name = v.Left, string(s.Value)
	default:
		return "", false
	}
	if id, ok := left.(*ast.Identifier); ok && id.Name == "exports" {
		return name, true
	}
	return name, isModuleExports(left)
}

// keyName is an object literal key written as a name or a string.
func keyName(e ast.Expression) (string, bool) {
	switch k := e.(type) {
	case *ast.StringLiteral:
		return string(k.Value), true
	case *ast.Identifier:
		return string(k.Name), true
	}
	return "", false
}

// returns checks the object literals export name's function returns.
func (l *jsLinter) returns(name string, fields []string, fn ast.Node) {
	var body ast.Node
	switch f := fn.(type) {
	case *ast.FunctionLiteral:
		body = f.Body
	case *ast.ArrowFunctionLiteral:
		if eb, ok := f.Body.(*ast.ExpressionBody); ok {
			l.returned(name, fields, eb.Expression)
			return
		}
		body = f.Body
	}
	// An object literal a variable of the function holds, returned by
	// name (const r = {Allow: false}; return r), is checked too.
	l.locals = map[string]*ast.ObjectLiteral{}
	walk(body, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral, *ast.ClassLiteral:
			return false
		case *ast.Binding:
			if id, ok := v.Target.(*ast.Identifier); ok {
				if obj, ok := v.Initializer.(*ast.ObjectLiteral); ok {
					l.locals[string(id.Name)] = obj
				}
			}
		}
		return true
	})
	walk(body, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral, *ast.ClassLiteral:
			return false // a nested function's returns are its own
		case *ast.ReturnStatement:
			if v.Argument != nil {
				l.returned(name, fields, v.Argument)
			}
		}
		return true
	})
	l.locals = nil
}

// returned checks a returned value: an object literal, or the branches
// of a conditional or a logical expression that may be one.
func (l *jsLinter) returned(export string, fields []string, e ast.Expression) {
	switch v := e.(type) {
	case *ast.ObjectLiteral:
		l.object(export, "", fields, v)
	case *ast.ConditionalExpression:
		l.returned(export, fields, v.Consequent)
		l.returned(export, fields, v.Alternate)
	case *ast.BinaryExpression:
		if v.Operator == token.LOGICAL_AND || v.Operator == token.LOGICAL_OR || v.Operator == token.COALESCE {
			l.returned(export, fields, v.Right)
		}
	case *ast.AwaitExpression:
		l.returned(export, fields, v.Argument)
	case *ast.Identifier:
		if obj := l.locals[string(v.Name)]; obj != nil {
			l.object(export, "", fields, obj)
		}
	}
}

// object checks one object literal's keys against fields; at is where it
// is in the returned value ("", "result.").
func (l *jsLinter) object(export, at string, fields []string, obj *ast.ObjectLiteral) {
	for _, p := range obj.Value {
		var key string
		var value ast.Expression
		var idx file.Idx
		switch v := p.(type) {
		case *ast.PropertyKeyed:
			name, ok := keyName(v.Key)
			if v.Computed || !ok {
				continue
			}
			key, value, idx = name, v.Value, v.Key.Idx0()
		case *ast.PropertyShort:
			key, idx = string(v.Name.Name), v.Name.Idx
		default:
			continue
		}
		if !slices.Contains(fields, key) {
			hint := ""
			if like, ok := suggest.Closest(key, fields); ok {
				hint = fmt.Sprintf(" (did you mean %q? names match exactly)", like)
			}
			l.add(idx, false, "export %s returns %q, which is not a field: it is ignored%s; the fields are %s",
				export, at+key, hint, strings.Join(fields, ", "))
			continue
		}
		if inner, ok := value.(*ast.ObjectLiteral); ok && nestedFields[key] != nil {
			l.object(export, at+key+".", nestedFields[key], inner)
		}
	}
}

// walk calls visit on every node under n, depth first; visit returning
// false skips a node's children. It reads the AST by reflection, so every
// node type is reached. DeclarationList repeats declarations the body
// holds, and is skipped.
func walk(n any, visit func(ast.Node) bool) {
	walkValue(reflect.ValueOf(n), visit)
}

var nodeType = reflect.TypeFor[ast.Node]()

func walkValue(v reflect.Value, visit func(ast.Node) bool) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			walkValue(v.Elem(), visit)
		}
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type().Implements(nodeType) && !visit(v.Interface().(ast.Node)) {
			return
		}
		walkValue(v.Elem(), visit)
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if f := t.Field(i); f.IsExported() && f.Name != "DeclarationList" {
				walkValue(v.Field(i), visit)
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			walkValue(v.Index(i), visit)
		}
	}
}
