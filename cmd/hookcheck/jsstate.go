package main

import (
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/token"
)

// Every call of a JS hook runs in a fresh runtime: the module is evaluated
// again, so what a handler writes at module level (a counter, a cache, a
// global) is gone at the next call. Code that counts on it keeps a count
// that never passes one. lint hints at it; it fails nothing, since writing
// within one call is allowed.

// freshHint ends each hint: where state that lasts belongs.
const freshHint = "every call runs in a fresh runtime, so it starts over at each call; keep what must last in ctx.state (or return {state})"

// mutators are the methods that change the array, Map or Set they are
// called on.
var mutators = map[string]bool{"push": true, "pop": true, "shift": true, "unshift": true, "splice": true, "sort": true,
	"reverse": true, "fill": true, "set": true, "add": true, "delete": true, "clear": true}

// topDeclarations are the names the module declares at its top level.
func topDeclarations(prog *ast.Program) map[string]bool {
	out := map[string]bool{}
	for _, st := range prog.Body {
		switch s := st.(type) {
		case *ast.VariableStatement:
			bindingNames(out, s.List)
		case *ast.LexicalDeclaration:
			bindingNames(out, s.List)
		}
	}
	return out
}

// allDeclarations are the names declared anywhere in the module: in any
// scope, as variables, functions, classes, parameters or catch bindings.
func allDeclarations(prog *ast.Program) map[string]bool {
	out := map[string]bool{"module": true, "exports": true, "require": true}
	walk(prog, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.VariableStatement:
			bindingNames(out, v.List)
		case *ast.LexicalDeclaration:
			bindingNames(out, v.List)
		case *ast.VariableDeclaration:
			bindingNames(out, v.List)
		case *ast.ForIntoVar:
			bindingNames(out, []*ast.Binding{v.Binding})
		case *ast.ForDeclaration:
			patternNames(out, v.Target)
		case *ast.FunctionLiteral:
			if v.Name != nil {
				out[string(v.Name.Name)] = true
			}
			if v.ParameterList != nil {
				bindingNames(out, v.ParameterList.List)
			}
		case *ast.ArrowFunctionLiteral:
			if v.ParameterList != nil {
				bindingNames(out, v.ParameterList.List)
			}
		case *ast.ClassLiteral:
			if v.Name != nil {
				out[string(v.Name.Name)] = true
			}
		case *ast.CatchStatement:
			if v.Parameter != nil {
				patternNames(out, v.Parameter)
			}
		}
		return true
	})
	return out
}

func bindingNames(out map[string]bool, list []*ast.Binding) {
	for _, b := range list {
		if b != nil {
			patternNames(out, b.Target)
		}
	}
}

// patternNames adds the names a binding target declares: a name, or
// every name of a destructuring pattern.
func patternNames(out map[string]bool, target ast.Node) {
	walk(target, func(n ast.Node) bool {
		if id, ok := n.(*ast.Identifier); ok {
			out[string(id.Name)] = true
		}
		return true
	})
}

// state hints at each write, inside a function, to state a fresh runtime
// resets: a module-level variable (assigned, incremented, or changed
// through a member or a mutating method), a property of globalThis or
// global, or a name declared nowhere (sloppy mode makes it a global).
func (l *jsLinter) state(prog *ast.Program) {
	for _, st := range prog.Body {
		walk(st, func(n ast.Node) bool {
			switch v := n.(type) {
			case *ast.FunctionLiteral:
				l.writes(v.Body, declaredIn(v))
				return false
			case *ast.ArrowFunctionLiteral:
				l.writes(v.Body, declaredIn(v))
				return false
			}
			return true
		})
	}
}

// declaredIn are the names a function declares itself (its parameters
// and variables, nested functions' included): they shadow the module's.
func declaredIn(fn ast.Node) map[string]bool {
	out := map[string]bool{}
	walk(fn, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.VariableStatement:
			bindingNames(out, v.List)
		case *ast.LexicalDeclaration:
			bindingNames(out, v.List)
		case *ast.FunctionLiteral:
			if v.ParameterList != nil {
				bindingNames(out, v.ParameterList.List)
			}
		case *ast.ArrowFunctionLiteral:
			if v.ParameterList != nil {
				bindingNames(out, v.ParameterList.List)
			}
		}
		return true
	})
	return out
}

// writes hints at the writes in one function's body.
func (l *jsLinter) writes(body ast.Node, local map[string]bool) {
	walk(body, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.AssignExpression:
			l.target(v.Left, local)
		case *ast.UnaryExpression:
			if v.Operator == token.INCREMENT || v.Operator == token.DECREMENT {
				l.target(v.Operand, local)
			}
		case *ast.CallExpression:
			if d, ok := v.Callee.(*ast.DotExpression); ok && mutators[string(d.Identifier.Name)] {
				if id, idx, ok := rootName(d.Left); ok && l.top[id] && !local[id] {
					l.add(idx, true, "a handler changes module-level %q (.%s): %s", id, d.Identifier.Name, freshHint)
				}
			}
		}
		return true
	})
}

// target hints at a write to e, when it is state a fresh runtime resets.
func (l *jsLinter) target(e ast.Expression, local map[string]bool) {
	if id, ok := e.(*ast.Identifier); ok {
		name := string(id.Name)
		switch {
		case local[name]:
		case l.top[name]:
			l.add(id.Idx, true, "a handler changes module-level %q: %s", name, freshHint)
		case !l.declared[name]:
			l.add(id.Idx, true, "a handler assigns %q, declared nowhere: in sloppy mode that makes a global, and %s", name, freshHint)
		}
		return
	}
	name, idx, ok := rootName(e)
	if !ok {
		return
	}
	switch {
	case (name == "globalThis" || name == "global") && !local[name] && !l.top[name]:
		l.add(idx, true, "a handler writes a property of %s: %s", name, freshHint)
	case l.top[name] && !local[name]:
		l.add(idx, true, "a handler changes module-level %q: %s", name, freshHint)
	}
}

// rootName is the variable a member expression starts from: count in
// count.n, cache[k].v.
func rootName(e ast.Expression) (string, file.Idx, bool) {
	for {
		switch v := e.(type) {
		case *ast.DotExpression:
			e = v.Left
		case *ast.BracketExpression:
			e = v.Left
		case *ast.Identifier:
			return string(v.Name), v.Idx, true
		default:
			return "", 0, false
		}
	}
}
