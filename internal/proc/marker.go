package proc

import (
	"bytes"
	"strings"
)

// markerVar is the environment variable that marks the processes of a run:
// a descendant that leaves the process group keeps its environment, so the
// sweep finds it by its token.
const markerVar = "RIENDA_HOOK_RUN"

// markerPrefix is the start of the marker's entry in an environment.
var markerPrefix = []byte(markerVar + "=")

// markEnv is env with the marker set to token. An inherited marker (the
// host is itself a hook of another run) keeps its tokens, comma-separated,
// so that the outer run still finds the processes of this one.
func markEnv(env []string, token string) []string {
	out := make([]string, 0, len(env)+1)
	value := token
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, markerVar+"="); ok {
			if v != "" {
				value = v + "," + token // the last entry wins, as in exec
			}
			continue
		}
		out = append(out, kv)
	}
	return append(out, markerVar+"="+value)
}

// marked reports whether environ, NUL-separated "KEY=value" entries (the
// format of /proc/<pid>/environ), has the marker with token among its
// comma-separated values.
func marked(environ []byte, token string) bool {
	for len(environ) > 0 {
		entry := environ
		if i := bytes.IndexByte(environ, 0); i >= 0 {
			entry, environ = environ[:i], environ[i+1:]
		} else {
			environ = nil
		}
		value, ok := bytes.CutPrefix(entry, markerPrefix)
		for ok && len(value) > 0 {
			var v []byte
			v, value, _ = bytes.Cut(value, []byte{','})
			if string(v) == token {
				return true
			}
		}
	}
	return false
}
