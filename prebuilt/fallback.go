package prebuilt

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rienda/hooks"
)

// ModelFallbackConfig configures ModelFallback.
type ModelFallbackConfig struct {
	Name string // "": "modelFallback"
	// Models are tried in order after the request's own model fails; at
	// least one.
	Models []string
	// FallbackIf says whether an error moves on to the next model. nil:
	// any error, unless it is a hook's failure or the run's context ended.
	FallbackIf func(req hooks.ModelRequest, err error) bool
}

func (cfg ModelFallbackConfig) check() error {
	if len(cfg.Models) == 0 {
		return errors.New("field Models is empty: name at least one model to fall back to")
	}
	for i, m := range cfg.Models {
		if m == "" {
			return fmt.Errorf("field Models[%d] is empty", i)
		}
	}
	return nil
}

// ModelFallback returns a wrap hook that, when the model call fails, calls
// the next model of Models: the same request with Model changed, so the
// inner wraps and the host's ModelFunc see which model to call. When every
// model failed, the error names them and wraps the last one's error.
func ModelFallback(cfg ModelFallbackConfig) hooks.Hook {
	mustValid("ModelFallback", cfg.check())
	return &modelFallback{name: orName(cfg.Name, "modelFallback"), models: append([]string(nil), cfg.Models...), fallbackIf: cfg.FallbackIf}
}

type modelFallback struct {
	name       string
	models     []string
	fallbackIf func(hooks.ModelRequest, error) bool
}

func (h *modelFallback) Name() string { return h.name }

func (h *modelFallback) WrapModel(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
	resp, err := next(c, req)
	tried := []string{modelName(req.Model)}
	for _, m := range h.models {
		if !h.moveOn(c, req, err) {
			return resp, err
		}
		req.Model = m
		tried = append(tried, modelName(m))
		resp, err = next(c, req)
	}
	if err != nil && h.moveOn(c, req, err) {
		err = fmt.Errorf("every model failed (%s), the last: %w", strings.Join(tried, ", "), err)
	}
	return resp, err
}

func (h *modelFallback) moveOn(c *hooks.Context, req hooks.ModelRequest, err error) bool {
	if err == nil || c.Err() != nil {
		return false
	}
	if h.fallbackIf != nil {
		return h.fallbackIf(req, err)
	}
	return !errors.Is(err, hooks.ErrHookFailed)
}
