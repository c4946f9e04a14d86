package prebuilt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// procDir holds the links (/proc/self/cwd …) whose target depends on the
// process that reads them.
var procDir = string(filepath.Separator) + "proc" + string(filepath.Separator)

// maxLinks bounds the symbolic links followed in one path, as the kernel
// does (ELOOP), so a cycle of links ends.
const maxLinks = 40

// resolvePath returns where the absolute path p leads, as the OS would
// resolve it: each element in turn, following symbolic links (a link's
// target read in the directory the link is in) and taking ".." after
// them, so that "root/link/.." is the parent of the link's target, not
// root. An element that does not exist yet is taken as a directory a
// tool will create (mkdir -p, then write): a ".." after it comes back to
// where links are followed again, so "missing/../out/key" with out a
// link is judged where the link leads. A lexical filepath.Clean first
// would be wrong: it removes "link/.." without looking at the link.
func resolvePath(p string) (string, error) {
	vol := filepath.VolumeName(p)
	resolved := vol + string(filepath.Separator)
	rest := splitPath(p[len(vol):])
	links := 0
	for len(rest) > 0 {
		elem := rest[0]
		rest = rest[1:]
		if elem == ".." {
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, elem)
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscallENOTDIR):
			resolved = next // not there yet: a plain directory once made
			continue
		case err != nil:
			return "", err
		case fi.Mode()&fs.ModeSymlink == 0:
			resolved = next
			continue
		}
		if strings.HasPrefix(next, procDir) {
			// /proc/self/cwd, /proc/<pid>/root, /proc/self/fd/3: where they
			// lead depends on the process that opens them (the tool's, not
			// this one's), so no answer here is the tool's.
			return "", fmt.Errorf("%s: %s is a link of /proc, which leads where the process that opens it is", p, next)
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("%s: too many levels of symbolic links", p)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			tv := filepath.VolumeName(target)
			resolved = tv + string(filepath.Separator)
			target = target[len(tv):]
		}
		rest = append(splitPath(target), rest...)
	}
	return resolved, nil
}

// splitPath returns p's elements, without empty ones and ".".
func splitPath(p string) []string {
	var out []string
	for _, e := range strings.FieldsFunc(p, func(r rune) bool { return os.IsPathSeparator(uint8(r)) }) {
		if e != "." {
			out = append(out, e)
		}
	}
	return out
}

// within reports whether p is root or below it (both resolved).
func within(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// absUnder returns p made absolute against dir (the process's directory
// when dir is empty too).
func absUnder(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	if dir == "" {
		dir, _ = filepath.Abs(".")
	} else if !filepath.IsAbs(dir) {
		dir, _ = filepath.Abs(dir)
	}
	return dir + string(filepath.Separator) + p // not Join: it would clean ".." before links are seen
}
