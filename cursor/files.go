package cursor

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/rienda/hooks"
)

// shellCwd is where a shell call runs: its "cwd" argument (relative to
// the workdir), else the workdir.
func shellCwd(c *hooks.Context, args map[string]any) string {
	dir, _ := args["cwd"].(string)
	switch {
	case dir == "":
		return workdir(c)
	case filepath.IsAbs(dir):
		return filepath.Clean(dir)
	}
	return filepath.Join(workdir(c), dir)
}

// filePath is the file a read or edit tool's call names, absolute, with
// symbolic links resolved as the OS will resolve them (a link named
// notes.txt to .env is shown as .env); a file: URL is its path, and a
// leading ~/ the home folder (a tool may read either so). ok is false
// when there is no path, or a file: URL names another host.
func filePath(c *hooks.Context, args map[string]any) (string, bool) {
	var path string
	for _, k := range []string{"file_path", "path"} {
		if s, ok := args[k].(string); ok && s != "" {
			path = s
			break
		}
	}
	if path == "" {
		return "", false
	}
	if len(path) >= 5 && strings.EqualFold(path[:5], "file:") {
		u, err := url.Parse(path)
		if err != nil || !strings.EqualFold(u.Scheme, "file") || (u.Host != "" && !strings.EqualFold(u.Host, "localhost")) {
			return "", false
		}
		path = u.Path
		if path == "" {
			path = u.Opaque
		}
	}
	if path == "~" || strings.HasPrefix(path, "~/") {
		home := c.Env["HOME"]
		if home == "" {
			home, _ = os.UserHomeDir()
		}
		path = filepath.Join(home, strings.TrimPrefix(path, "~"))
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(workdir(c), path)
	}
	path = filepath.Clean(path)
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	return path, true
}

// readContent is a file's text for beforeReadFile: "" for a file that
// cannot be read (the tool fails on it itself); a refusal for one larger
// than MaxReadContent, which the hook could not see whole.
func readContent(path string) (string, string) {
	f, err := os.Open(path)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && !info.Mode().IsRegular() {
		return "", fmt.Sprintf("%s is not a regular file: beforeReadFile hooks cannot see what a read would return", path)
	}
	buf := make([]byte, MaxReadContent+1)
	n, err := f.Read(buf)
	for err == nil && n < len(buf) {
		var m int
		m, err = f.Read(buf[n:])
		n += m
	}
	if n > MaxReadContent {
		return "", fmt.Sprintf("%s is larger than %d bytes: beforeReadFile hooks cannot be shown all of it", path, MaxReadContent)
	}
	return string(buf[:n]), ""
}

// edits are an edit call's changes as Cursor lists them.
func edits(args map[string]any) []any {
	if list, ok := args["edits"].([]any); ok {
		return list
	}
	if s, ok := args["new_string"].(string); ok {
		old, _ := args["old_string"].(string)
		return []any{map[string]any{"old_string": old, "new_string": s}}
	}
	if s, ok := args["content"].(string); ok {
		return []any{map[string]any{"old_string": "", "new_string": s}}
	}
	return []any{}
}
