package claudecode_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/claudecode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hookServer is an http hook's server: it keeps what it was sent and
// answers with status and body.
type hookServer struct {
	mu      sync.Mutex
	bodies  []map[string]any
	headers []http.Header
	status  int
	body    string
	block   bool // answer only when the request is cancelled
}

func (s *hookServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	data, _ := io.ReadAll(r.Body)
	var in map[string]any
	_ = json.Unmarshal(data, &in)
	s.mu.Lock()
	s.bodies, s.headers = append(s.bodies, in), append(s.headers, r.Header.Clone())
	status, body, block := s.status, s.body, s.block
	s.mu.Unlock()
	if block {
		<-r.Context().Done()
		return
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// serve starts s, closed when the test ends.
func serve(t *testing.T, s *hookServer) string {
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv.URL
}

// httpSettings is a PreToolUse "http" handler posting to url.
func httpSettings(url string, extra string) []byte {
	return []byte(`{"env":{},"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"http","url":"` + url + `"` + extra + `}]}]}}`)
}

// An http handler is sent the same JSON a command reads, with headers
// whose $VAR reads only the variables allowedEnvVars lists, and its
// answer decides as a command's stdout does: a deny refuses.
func TestHTTPHandlerDecidesAsACommand(t *testing.T) {
	s := &hookServer{status: 200, body: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm over http"}}`}
	url := serve(t, s)
	var rec recorder
	host := claudeHost(t, &ccPerson{})
	host.Env = map[string]string{"HOOK_TOKEN": "s3cret", "OTHER": "leak"}
	_, run := claudeRun(t, &rec, host, httpSettings(url,
		`,"headers":{"Authorization":"Bearer $HOOK_TOKEN","X-Other":"[${OTHER}]"},"allowedEnvVars":["HOOK_TOKEN"]`), ccToolNames)
	res, err := run.CallTool(bg, ccBash("rm -rf /"), ccShell(&rec))
	require.NoError(t, err)
	assert.Equal(t, hooks.ToolResult{Text: "no rm over http", IsError: true}, res)
	assert.Empty(t, rec.got())
	require.Len(t, s.bodies, 1)
	assert.Equal(t, "PreToolUse", s.bodies[0]["hook_event_name"])
	assert.Equal(t, "Bash", s.bodies[0]["tool_name"])
	assert.Equal(t, map[string]any{"command": "rm -rf /"}, s.bodies[0]["tool_input"])
	assert.Equal(t, "Bearer s3cret", s.headers[0].Get("Authorization"))
	assert.Equal(t, "[]", s.headers[0].Get("X-Other"), "not in allowedEnvVars: empty")
	assert.Equal(t, "application/json", s.headers[0].Get("Content-Type"))
	assert.Empty(t, rec.diagnostics())
}

// A status that is not 2xx, a timeout, and an answer too large to read:
// the first two are diagnostics and the call goes on (as Claude Code
// reads them); an answer that cannot be read never lets the call
// through.
func TestHTTPHandlerFailures(t *testing.T) {
	for _, c := range []struct {
		name    string
		server  *hookServer
		extra   string
		refused bool
		diag    string
	}{
		{"status", &hookServer{status: 500, body: "oops"}, "", false, "500 Internal Server Error"},
		{"timeout", &hookServer{block: true}, `,"timeout":0.2`, false, "timed out after 200ms"},
		{"too large", &hookServer{status: 200, body: `{"reason":"` + strings.Repeat("x", 17<<20) + `"}`}, "", true, "output too large"},
		{"failClosed", &hookServer{status: 503}, `,"failClosed":true`, true, "503"},
	} {
		var rec recorder
		_, run := claudeRun(t, &rec, claudeHost(t, &ccPerson{}), httpSettings(serve(t, c.server), c.extra), ccToolNames)
		res, err := run.CallTool(bg, ccBash("ls"), ccShell(&rec))
		require.NoError(t, err, c.name)
		assert.Equal(t, c.refused, res.IsError, c.name)
		assert.Equal(t, c.refused, len(rec.got()) == 0, c.name)
		assert.Contains(t, diagnosed(&rec), c.diag, c.name)
	}
}

// An http handler's URL must be http or https.
func TestHTTPHandlerURLIsChecked(t *testing.T) {
	var rec recorder
	for _, bad := range []string{`"url":"ftp://x/y"`, `"url":""`, `"headers":{}`} {
		settings := `{"Stop":[{"hooks":[{"type":"http",` + bad + `}]}]}`
		_, err := hooksOf(settings)
		assert.ErrorContains(t, err, "hooks.Stop[0].hooks[0].url", settings)
	}
	assert.Empty(t, rec.diagnostics())
}

// hooksOf loads settings.
func hooksOf(settings string) ([]hooks.Hook, error) { return claudecode.Hooks([]byte(settings)) }
