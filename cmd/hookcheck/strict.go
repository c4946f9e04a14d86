package main

import (
	"reflect"

	"github.com/rienda/hooks/internal/strictjson"
)

// checkStrict reads data as one JSON value of shape s, strictly
// (strictjson.Check): hooktest's fixture loader uses the same checker.
func checkStrict(data []byte, s *strictjson.Shape) error { return strictjson.Check(data, s) }

// shapeOf derives the shape of t (strictjson.ShapeOf).
func shapeOf(t reflect.Type) *strictjson.Shape { return strictjson.ShapeOf(t) }
