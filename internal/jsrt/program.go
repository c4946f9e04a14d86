// Package jsrt is the goja plumbing of JavaScript hooks: it compiles a
// hook's files once, evaluates them as CommonJS modules in single-use
// runtimes, calls into a runtime under a context, and converts values.
package jsrt

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
)

// The CommonJS wrapper keeps the module's first line on the wrapper's first
// line, so that line numbers in messages are the file's own.
const (
	wrapperHead = "(function (exports, require, module, __filename, __dirname) {"
	wrapperTail = "\n})"
)

// Limits on what a hook folder may hold: hooks are small programs, and a
// folder that is not one (a checkout with node_modules) must not stall a load.
const (
	maxFiles    = 512
	maxFileSize = 4 << 20
)

// Main is the file a hook folder starts from.
const Main = "index.js"

// Program is a hook's files, compiled once. It is immutable and shared by
// every runtime of the hook.
type Program struct {
	dir       string           // the hook's folder as given; "" for a program from a string
	files     map[string]*unit // by slash path relative to dir ("index.js", "lib/util.js")
	truncated bool             // the folder had more than maxFiles files: some were left out
}

// unit is one file of a program.
type unit struct {
	path string        // as messages show it
	prog *goja.Program // a .js file
	data any           // a .json file, decoded
	err  error         // why the file cannot be required (syntax error)

	dir string // __dirname: path's folder
}

// newUnit is the unit of the file shown as path.
func newUnit(path string) *unit {
	return &unit{path: path, dir: filepath.Dir(path)}
}

// CompileSource compiles one file's source. name is the file name that
// messages show. A syntax error is an error.
func CompileSource(name, source string) (*Program, error) {
	prog, err := compileJS(name, source)
	if err != nil {
		return nil, err
	}
	u := newUnit(name)
	u.prog = prog
	return &Program{files: map[string]*unit{Main: u}}, nil
}

// CompileDir compiles every .js and .json file of the hook folder dir
// (node_modules and dot-folders aside), which must lie inside root. A file
// that cannot be compiled, or that a symbolic link makes leave dir, is
// reported and left out; a syntax error is kept, so that requiring the file
// throws it. The error is for a folder without index.js (it wraps
// fs.ErrNotExist) or one that resolves outside root.
func CompileDir(root, dir string, report func(error)) (*Program, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	if !inside(realRoot, realDir) {
		return nil, fmt.Errorf("%s resolves to %s, outside %s", dir, realDir, root)
	}
	if fi, err := os.Stat(filepath.Join(realDir, Main)); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a file: %w", filepath.Join(dir, Main), fs.ErrNotExist)
	}
	p := &Program{dir: dir, files: map[string]*unit{}}
	// The main file first, whatever the folder holds besides: the limit on
	// files must never leave a hook without its entry point.
	mainReal := filepath.Join(realDir, Main)
	main, err := compileFile(realDir, mainReal, filepath.Join(dir, Main))
	if main == nil {
		return nil, err
	}
	if err != nil {
		report(err) // a syntax error, kept: calls report it too
	}
	p.files[Main] = main
	err = filepath.WalkDir(realDir, func(real string, d fs.DirEntry, err error) error {
		if err != nil {
			report(err)
			return nil
		}
		rel, _ := filepath.Rel(realDir, real)
		shown := filepath.Join(dir, rel)
		if d.IsDir() {
			if real != realDir && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if real == mainReal {
			return nil
		}
		ext := filepath.Ext(real)
		if ext != ".js" && ext != ".json" {
			return nil
		}
		if len(p.files) == maxFiles {
			report(fmt.Errorf("%s: more than %d files; the rest are left out", dir, maxFiles))
			p.truncated = true
			return filepath.SkipAll
		}
		u, err := compileFile(realDir, real, shown)
		if err != nil {
			report(err)
		}
		if u != nil {
			p.files[filepath.ToSlash(rel)] = u
		}
		return nil
	})
	return p, err
}

// compileFile reads and compiles one file of a hook folder.
func compileFile(realDir, real, shown string) (*unit, error) {
	fi, err := os.Lstat(real)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(real)
		if err != nil {
			return nil, err
		}
		if !inside(realDir, target) {
			return nil, fmt.Errorf("%s: a symbolic link to %s, outside the hook's folder: left out", shown, target)
		}
		if fi, err = os.Stat(target); err != nil {
			return nil, err
		}
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file: left out", shown)
	}
	if fi.Size() > maxFileSize {
		return nil, fmt.Errorf("%s: %d bytes, more than %d: left out", shown, fi.Size(), maxFileSize)
	}
	data, err := os.ReadFile(real)
	if err != nil {
		return nil, err
	}
	u := newUnit(shown)
	if filepath.Ext(real) == ".json" {
		if err := json.Unmarshal(data, &u.data); err != nil {
			u.err = fmt.Errorf("%s: %w", shown, err)
		}
		return u, u.err
	}
	u.prog, u.err = compileJS(shown, string(data))
	return u, u.err
}

// compileJS compiles a CommonJS module. A syntax error reads
// "file:line:column: SyntaxError: message", with the file's own columns.
func compileJS(name, source string) (*goja.Program, error) {
	if strings.HasPrefix(source, "#!") { // a shebang line is not JavaScript
		source = "//" + source
	}
	lines := strings.Count(source, "\n") + 1
	ast, err := ParseJS(name, wrapperHead+source+wrapperTail) // refuses BigInt (bigint.go)
	var list parser.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return nil, syntaxError(list[0].Position, list[0].Message, lines)
	}
	if err != nil {
		return nil, err
	}
	if err := oneFunction(name, ast); err != nil {
		return nil, err
	}
	prog, err := goja.CompileAST(ast, false)
	var cerr *goja.CompilerSyntaxError
	if errors.As(err, &cerr) && cerr.File != nil {
		return nil, syntaxError(cerr.File.Position(cerr.Offset), cerr.Message, lines)
	}
	return prog, err
}

// oneFunction checks that the wrapped source is the wrapper alone: one
// function expression. A file that closes the wrapper early ("}); let x =
// 1; (function () {") would otherwise declare in the runtime's global
// scope, which outlives the call in a runtime used for many.
func oneFunction(name string, prog *ast.Program) error {
	if len(prog.Body) == 1 {
		if st, ok := prog.Body[0].(*ast.ExpressionStatement); ok {
			if _, ok := st.Expression.(*ast.FunctionLiteral); ok {
				return nil
			}
		}
	}
	return fmt.Errorf("%s: SyntaxError: the file closes the module's function early: a stray } or )", name)
}

// syntaxError names the file's own position; an error found in the
// wrapper's closing line is the end of the file (something left open).
func syntaxError(pos file.Position, message string, lines int) error {
	if pos.Line > lines {
		pos.Line, pos.Column = lines, 0
		return fmt.Errorf("%s:%d: SyntaxError: %s at the end of the file (something is left open)", pos.Filename, pos.Line, message)
	}
	return fmt.Errorf("%s: SyntaxError: %s", position(pos), message)
}

// position writes pos as file:line:column, in the columns of the file
// before it was wrapped.
func position(pos file.Position) string {
	if pos.Line == 1 {
		pos.Column = max(pos.Column-len(wrapperHead), 1)
	}
	return fmt.Sprintf("%s:%d:%d", pos.Filename, pos.Line, pos.Column)
}

// inside reports whether path is dir or lies under it; both are resolved.
func inside(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// BrokenFileError is what requiring a file that did not compile throws:
// its syntax error, which CompileDir already reported at load.
type BrokenFileError struct{ err error }

// Error is the file's syntax error.
func (e *BrokenFileError) Error() string { return e.err.Error() }

// Unwrap returns the syntax error.
func (e *BrokenFileError) Unwrap() error { return e.err }

// MainError is the error of the main file, when it did not compile.
func (p *Program) MainError() error {
	if u := p.files[Main]; u != nil {
		return u.err
	}
	return errors.New("no " + Main)
}
