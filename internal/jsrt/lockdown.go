package jsrt

import (
	"github.com/dop251/goja"
)

// A hook's runtime is used for many calls, one at a time, and no call may
// leave anything a later call can read. Lockdown makes that hold for the
// runtime's built-ins (after Hardened JavaScript's lockdown): every object
// reachable from the global object and from the intrinsics no global names
// (the prototypes of generators, iterators, async functions, typed arrays)
// is frozen, the global object too. A call's own objects, its module scope
// included, are new in each call (Program.Evaluate runs the module again),
// so nothing a hook can write outlives its call: a write to a built-in
// throws in strict code and is dropped in sloppy code, and a global the
// global object lacks is written to the call's own table (InstallGlobals).
//
// Freezing a prototype makes an assignment to a property it has fail on
// every object that inherits it (the "override mistake"): this.name = … in
// an Error subclass, o.toString = …, F.prototype.constructor = F. Those
// properties are tamed as SES tames them: each becomes an accessor whose
// getter gives the built-in value and whose setter defines the property on
// the object assigned to, as an assignment would have, and throws only
// when the object is the frozen built-in itself.
//
// What lockdown cannot take back is memory: Symbol.for keeps its keys for
// the runtime's life, and a WeakMap keyed by a built-in keeps its value as
// long as the built-in lives (goja keeps a WeakMap's entries on the key).
// Nothing of either can be read by a later call, and the runtime is
// replaced after a number of calls (the caller's policy) to give it back.

// tamed are the properties of the built-ins that code written for
// unfrozen built-ins assigns on objects that inherit them.
var tamed = [...]string{"constructor", "name", "message", "toString", "valueOf", "toLocaleString", "toJSON", "stack"}

// intrinsics lists what lockdown freezes, reached from the global object
// and from the intrinsics no global names.
var intrinsics = goja.MustCompile("lockdown", `(function () {
	"use strict";
	const getProto = Object.getPrototypeOf, ownKeys = Reflect.ownKeys, gopd = Object.getOwnPropertyDescriptor;
	const roots = [globalThis,
		getProto(function* () {}), getProto(async function () {}),
		getProto((function* () {})()), getProto([][Symbol.iterator]()), getProto(""[Symbol.iterator]()),
		getProto(new Map().entries()), getProto(new Set().entries()), getProto(/a/[Symbol.matchAll]("")),
		getProto(Int8Array), gopd(Function.prototype, "caller"), (function () { "use strict"; return arguments; })()];
	const seen = new Set(), list = [], todo = roots;
	while (todo.length > 0) {
		const o = todo.pop();
		if (o === null || (typeof o !== "object" && typeof o !== "function") || seen.has(o)) continue;
		seen.add(o);
		list.push(o);
		todo.push(getProto(o));
		const keys = ownKeys(o);
		for (let i = 0; i < keys.length; i++) {
			const d = gopd(o, keys[i]);
			if ("value" in d) todo.push(d.value); else todo.push(d.get, d.set);
		}
	}
	return list;
})()`, true)

// Lockdown freezes the built-ins of rt, taming the properties code assigns
// on objects that inherit them. It must run once, after the runtime's
// bounds are installed and before any hook code, inside Guard.
func Lockdown(rt *goja.Runtime) error {
	v, err := rt.RunProgram(intrinsics)
	if err != nil {
		return err
	}
	object := rt.Get("Object").(*goja.Object)
	freeze, _ := goja.AssertFunction(object.Get("freeze"))
	gopd, _ := goja.AssertFunction(object.Get("getOwnPropertyDescriptor"))
	var objects []goja.Value
	if err := rt.ExportTo(v, &objects); err != nil {
		return err
	}
	for _, v := range objects {
		o := v.(*goja.Object)
		for _, name := range tamed {
			accessors, err := tame(rt, gopd, o, name)
			if err != nil {
				return err
			}
			objects = append(objects, accessors...)
		}
	}
	// Frozen once tamed (a frozen property cannot become an accessor), the
	// accessors too.
	for _, o := range objects {
		if _, err := freeze(goja.Undefined(), o); err != nil {
			return err
		}
	}
	return nil
}

// tame replaces o's own writable data property name with an accessor:
// reading gives the value; assigning defines name on the object assigned
// to, unless that is o itself, which is frozen.
func tame(rt *goja.Runtime, gopd goja.Callable, o *goja.Object, name string) ([]goja.Value, error) {
	dv, err := gopd(goja.Undefined(), o, rt.ToValue(name))
	if err != nil {
		return nil, err
	}
	d, ok := dv.(*goja.Object)
	if !ok || d.Get("value") == nil || !d.Get("writable").ToBoolean() || !d.Get("configurable").ToBoolean() {
		return nil, nil // absent, an accessor, or fixed already
	}
	value := d.Get("value")
	get := rt.ToValue(func(goja.FunctionCall) goja.Value { return value }).(*goja.Object)
	set := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		this, ok := call.This.(*goja.Object)
		if !ok || this == o {
			panic(rt.NewTypeError("Cannot assign to read only property '%s' of a frozen built-in", name))
		}
		if err := this.DefineDataProperty(name, call.Argument(0), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
			panic(rt.NewTypeError("Cannot assign to property '%s': %v", name, err))
		}
		return goja.Undefined()
	}).(*goja.Object)
	flag := goja.FLAG_FALSE
	if d.Get("enumerable").ToBoolean() {
		flag = goja.FLAG_TRUE
	}
	if err := o.DefineAccessorProperty(name, get, set, goja.FLAG_FALSE, flag); err != nil {
		return nil, err
	}
	return []goja.Value{get, set}, nil
}
