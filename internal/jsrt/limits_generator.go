package jsrt

import "github.com/dop251/goja"

// generatorFunction is a generator function expression, whose prototype's
// prototype is %GeneratorPrototype%: no global leads there.
var generatorFunction = goja.MustCompile("limits", "(function* () {})", false)

// boundGenerators counts the generator methods: a generator that delegates
// with yield* calls the inner generator's next (return, throw) from Go,
// once its own frame is gone (goja's func.go, generatorObject.delegate and
// callDelegated), so that `function* g() { yield* g() }` recursed in Go
// without end, as does a recursive traversal of a deep tree with yield*.
//
// It costs a runtime goja's generator machinery, which goja would
// otherwise make at the first generator function (about 9 KB, two thirds
// of this bound's cost). Doing it then instead has no sound trigger: a
// tree whose nodes' Symbol.iterator is a generator method delegates from
// generator to generator without calling anything shared but their next.
func (g *depthGuard) boundGenerators() {
	fn, err := g.rt.RunProgram(generatorFunction)
	if err != nil {
		panic(err) // evaluating a function expression in a fresh runtime cannot fail
	}
	proto := fn.(*goja.Object).Get("prototype").(*goja.Object).Prototype()
	for _, name := range []string{"next", "return", "throw"} {
		g.countMethod(proto, name, "Generator.prototype."+name)
	}
}
