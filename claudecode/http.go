package claudecode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/rienda/hooks"
)

// httpHook is what an "http" handler posts to.
type httpHook struct {
	url     string
	headers map[string]string // values as written, "$VAR" and "${VAR}" read at each call
	allowed []string          // the variables a header may read (allowedEnvVars)
}

// httpHandler decodes an "http" handler: POST the hook's JSON input to
// "url", read the response body as a command's stdout.
func (l loader) httpHandler(event, where, path string, unknown []string, cfg *handlerConfig) (*handler, error) {
	switch {
	case cfg.URL == nil || strings.TrimSpace(*cfg.URL) == "":
		return nil, settingsError(path+".url", "missing or empty")
	case cfg.Timeout != nil && (*cfg.Timeout <= 0 || *cfg.Timeout > maxTimeout):
		return nil, settingsError(path+".timeout", fmt.Sprintf("must be a positive number of seconds, not %v", *cfg.Timeout))
	}
	u, err := url.Parse(*cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, settingsError(path+".url", fmt.Sprintf("%q is not an http or https URL", *cfg.URL))
	}
	l.unknownKeys(path, unknown, handlerKeys)
	h := &handler{event: event, where: where, timeout: DefaultTimeout, failClosed: cfg.FailClosed,
		http: &httpHook{url: u.String(), headers: cfg.Headers, allowed: cfg.AllowedEnv}}
	if err := l.fields(h, path, cfg); err != nil {
		return nil, err
	}
	if cfg.Timeout != nil {
		h.timeout = time.Duration(*cfg.Timeout * float64(time.Second))
	}
	h.argv = []string{"POST", h.http.url} // names it in messages
	return h, nil
}

// envVar is a "$VAR" or "${VAR}" in a header value.
var envVar = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)`)

// header is a header value with its variables read from env, as Claude
// Code reads them: only those allowedEnvVars lists; any other is empty.
func (x *httpHook) header(value string, env map[string]string) string {
	return envVar.ReplaceAllStringFunc(value, func(m string) string {
		name := strings.Trim(m, "${}")
		if !slices.Contains(x.allowed, name) {
			return ""
		}
		if env == nil {
			return os.Getenv(name)
		}
		return env[name]
	})
}

// post sends body to the handler's URL and turns the answer into a
// result as a command's end is: a 2xx body is read as stdout (exit 0);
// any other status, a connection failure or a timeout is a failure (a
// diagnostic, the call goes on, unless failClosed), as Claude Code reads
// them; a body past maxOutput is a decision that cannot be read, which
// never lets a tool call through.
func (h *handler) post(ctx context.Context, body []byte, env map[string]string) result {
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.http.url, bytes.NewReader(body))
	if err != nil {
		return result{err: h.fail(err)}
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range h.http.headers {
		req.Header.Set(k, h.http.header(v, env))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("timed out after %s: %w", h.timeout, err)
		}
		return result{err: h.fail(err)}
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, maxOutput+1))
	switch {
	case err != nil:
		return result{err: h.fail(fmt.Errorf("its answer cannot be read: %w", err))}
	case len(out) > maxOutput:
		return result{err: h.fail(fmt.Errorf("its answer cannot be read: output too large: more than %d bytes", maxOutput)), tooMuch: true}
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		r := result{}
		if h.guards() {
			r = h.parse(out) // a refusal in an error's body still refuses (evident.go)
		}
		r.err = h.fail(fmt.Errorf("it answered %s: %s", resp.Status, clip(json.RawMessage(out))))
		return r
	}
	return h.parse(out)
}

// postJob is the request of an "http" handler with in as its body.
func (h *handler) postJob(c *hooks.Context, in input) (func(context.Context) result, error) {
	body, err := h.stdin(c, in)
	if err != nil {
		return nil, err
	}
	env := c.Env
	return func(ctx context.Context) result { return h.post(ctx, body, env) }, nil
}
