package prebuilt

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/rienda/hooks"
)

// Price is what a model's tokens cost, per million tokens, in the user's
// currency.
type Price struct {
	Input       float64 // per million input tokens that were not cached
	Output      float64 // per million output tokens
	CachedInput float64 // per million cached input tokens; 0: Input's price
}

// BudgetConfig configures Budget. At least one of MaxTokens and MaxCost is
// set.
type BudgetConfig struct {
	Name      string // "": "budget"
	MaxTokens int64  // input and output tokens per run; 0: no token limit
	MaxCost   float64
	// Prices gives each model's price, by name: the request's Model, or
	// the longest key that is a prefix of it ("gpt-4o" prices
	// "gpt-4o-2024-08-06"). A model without a price counts as free, and
	// the hook says so once per model, as a Diagnostic.
	Prices map[string]Price
	// WarnAt is the share of a limit at which the person is told (a
	// Notice, once per run); 0: 0.8; negative: never.
	WarnAt float64
	// WarnModel tells the model too: past WarnAt, each request's system
	// prompt (that call only) ends with what the run has spent of its
	// budget, so that the model can finish before it is cut off.
	WarnModel bool
	// Estimate is what a reply without Usage (every count zero: the host
	// or provider reported none) counts as. nil: an estimate of about four
	// bytes a token (the request's system prompt and messages as input,
	// the reply's text and tool calls as output), said once per run as a
	// Diagnostic; a func that returns hooks.Usage{} counts such replies as
	// free. A reply is never free without a word.
	Estimate func(req hooks.ModelRequest, resp hooks.ModelResponse) hooks.Usage
	// PerChild gives each child run (hooks.Run.Child) a budget of its own.
	// Without it a child's spending adds to its root run's totals, and the
	// root's budget bounds the whole tree: a subagent spends from its
	// parent's budget, and ends when it is spent, as the parent does.
	PerChild bool
}

func (cfg BudgetConfig) check() error {
	switch {
	case cfg.MaxTokens < 0:
		return fmt.Errorf("field MaxTokens is %d: it cannot be negative", cfg.MaxTokens)
	case cfg.MaxCost < 0 || math.IsNaN(cfg.MaxCost) || math.IsInf(cfg.MaxCost, 0):
		return fmt.Errorf("field MaxCost is %v: it must be a positive number", cfg.MaxCost)
	case cfg.MaxTokens == 0 && cfg.MaxCost == 0:
		return fmt.Errorf("neither MaxTokens nor MaxCost is set: the budget limits nothing")
	case cfg.MaxCost > 0 && len(cfg.Prices) == 0:
		return fmt.Errorf("field MaxCost is set but Prices is empty: every call would be free")
	case cfg.WarnAt > 1 || math.IsNaN(cfg.WarnAt):
		return fmt.Errorf("field WarnAt is %v: it is a share of the limit, at most 1", cfg.WarnAt)
	}
	for _, k := range sortedKeys(cfg.Prices) {
		p := cfg.Prices[k]
		for _, f := range []struct {
			name string
			v    float64
		}{{"Input", p.Input}, {"Output", p.Output}, {"CachedInput", p.CachedInput}} {
			if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
				return fmt.Errorf("field Prices[%q].%s is %v: a price is a number, 0 or more (a NaN or infinite price would never trip the budget)", k, f.name, f.v)
			}
		}
	}
	return nil
}

// Budget returns a hook that totals a run's tokens (and cost, from
// Prices) from each reply's Usage, tells the person (a Notice) once the
// total passes WarnAt of a limit, and ends the run, with a reason as its
// output, at the first model request after a limit is passed: the reply
// that crossed it stands, and nothing more is spent. The totals are the
// run state, kept across Snapshot and Resume.
//
// The model priced is the one called: the hook is also a wrap, so listed
// after ModelFallback it sees the model each attempt was sent to; without
// wraps (a host on the split methods) it is the request's Model.
func Budget(cfg BudgetConfig) hooks.Hook {
	mustValid("Budget", cfg.check())
	warn := cfg.WarnAt
	if warn == 0 {
		warn = 0.8
	}
	h := &budget{name: orName(cfg.Name, "budget"), maxTokens: cfg.MaxTokens, maxCost: cfg.MaxCost, warnAt: warn,
		warnModel: cfg.WarnModel, prices: make(map[string]Price, len(cfg.Prices)), estimate: cfg.Estimate}
	h.state.apart = cfg.PerChild
	for k, v := range cfg.Prices {
		h.prices[k] = v
	}
	return h
}

type budget struct {
	name      string
	maxTokens int64
	maxCost   float64
	warnAt    float64
	warnModel bool
	prices    map[string]Price
	estimate  func(hooks.ModelRequest, hooks.ModelResponse) hooks.Usage
	state     keeper[spent]
}

// spent is Budget's run state.
type spent struct {
	Tokens   int64           `json:"tokens"`
	Cost     float64         `json:"cost,omitempty"`
	Warned   bool            `json:"warned,omitempty"`
	Model    string          `json:"model,omitempty"`    // the model of the request in flight, for a host without wraps
	Unpriced map[string]bool `json:"unpriced,omitempty"` // models already reported without a price
	NoUsage  bool            `json:"noUsage,omitempty"`  // a reply without Usage was reported

	req     hooks.ModelRequest // the request in flight, for a host without wraps; not kept by a snapshot
	wrapped int                // replies counted by WrapModel whose AfterModelResponse is to come
}

// valid refuses totals no run can have spent.
func (v *spent) valid() error {
	if v.Tokens < 0 || v.Cost < 0 || math.IsNaN(v.Cost) {
		return fmt.Errorf("tokens %d and cost %v: a total cannot be negative", v.Tokens, v.Cost)
	}
	return nil
}

func (h *budget) Name() string { return h.name }

func (h *budget) BeforeModelRequest(c *hooks.Context, req hooks.ModelRequest) (*hooks.ModelRequestPatch, error) {
	s, err := h.state.get(c)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if over := h.over(&s.v); over != "" {
		return &hooks.ModelRequestPatch{End: &hooks.End{Output: "Run ended: budget exceeded: " + over + "."}}, nil
	}
	s.v.Model, s.v.req = req.Model, req
	if h.warnModel && s.v.Warned {
		system := req.System + "\n\nBudget: this run has spent " + h.summary(&s.v) + ". Finish the task soon; the run ends when the budget is spent."
		return &hooks.ModelRequestPatch{System: &system}, nil
	}
	return nil, nil
}

// WrapModel counts each attempt where it is made, with the model it went
// to and the request it sent: parallel calls of a run are each priced by
// their own model, and an attempt that failed after the provider reported
// tokens (an error that carries a Usage) counts too. An attempt once a
// limit is passed is not made: a retry or a fallback cannot spend past
// the budget. The reply's AfterModelResponse then counts nothing more.
func (h *budget) WrapModel(c *hooks.Context, req hooks.ModelRequest, next hooks.ModelFunc) (hooks.ModelResponse, error) {
	s, err := h.state.get(c)
	if err != nil {
		return hooks.ModelResponse{}, err
	}
	s.mu.Lock()
	over := h.over(&s.v)
	s.v.Model = req.Model // the model called, as a snapshot taken meanwhile says
	s.mu.Unlock()
	if over != "" {
		return hooks.ModelResponse{}, fmt.Errorf("%s: budget exceeded: %s; the call to model %s is not made", h.name, over, modelName(req.Model))
	}
	resp, err := next(c, req)
	if err != nil && resp.Usage == (hooks.Usage{}) {
		return resp, err // nothing reported spent: a failed call is not estimated
	}
	h.account(c, s, req, resp)
	if err == nil {
		s.mu.Lock()
		s.v.wrapped++ // its AfterModelResponse counts nothing more
		s.mu.Unlock()
	}
	return resp, err
}

func (h *budget) AfterModelResponse(c *hooks.Context, resp hooks.ModelResponse) (*hooks.ModelResponsePatch, error) {
	s, err := h.state.get(c)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	req := s.v.req
	req.Model = s.v.Model          // kept by a snapshot: a run rehydrated between the request and its reply
	s.v.req = hooks.ModelRequest{} // not kept past its reply
	counted := s.v.wrapped > 0
	if counted {
		s.v.wrapped--
	}
	s.mu.Unlock()
	if !counted { // no wrap ran: a host on the split methods
		h.account(c, s, req, resp)
	}
	return nil, nil
}

// account adds one reply's Usage (or its estimate), priced as the model
// of req, and says what there is to say: a reply without Usage, a model
// without a price, the warning.
func (h *budget) account(c *hooks.Context, s *live[spent], req hooks.ModelRequest, resp hooks.ModelResponse) {
	s.mu.Lock()
	u, said := h.usage(&s.v, req, resp)
	s.v.Tokens = addTokens(s.v.Tokens, u.InputTokens, u.OutputTokens)
	var unpriced string
	if h.maxCost > 0 {
		if p, ok := h.price(req.Model); ok {
			cached := min(u.CachedInputTokens, u.InputTokens)
			cachedPrice := p.CachedInput
			if cachedPrice == 0 {
				cachedPrice = p.Input
			}
			s.v.Cost += (float64(u.InputTokens-cached)*p.Input + float64(cached)*cachedPrice + float64(u.OutputTokens)*p.Output) / 1e6
			if math.IsNaN(s.v.Cost) { // a price of 0 times an infinite count: spent without a measure
				s.v.Cost = math.Inf(1)
			}
		} else if !s.v.Unpriced[req.Model] {
			if s.v.Unpriced == nil {
				s.v.Unpriced = map[string]bool{}
			}
			s.v.Unpriced[req.Model] = true
			unpriced = req.Model
		}
	}
	var warn string
	if !s.v.Warned && h.warnAt > 0 && h.share(&s.v) >= h.warnAt {
		s.v.Warned = true
		warn = h.summary(&s.v)
	}
	s.mu.Unlock()
	if said != nil {
		c.Diagnose(said)
	}
	if unpriced != "" {
		c.Diagnose(fmt.Errorf("no price for model %s: its calls count as free against MaxCost%s", modelName(unpriced), didYouMean(unpriced, sortedKeys(h.prices))))
	}
	if warn != "" {
		c.Notify(hooks.Notice{Title: "Budget warning", Body: fmt.Sprintf("This run has spent %s.", warn)})
	}
}

// usage is what the reply counts as: its Usage, counts below zero taken
// as zero, or without one (every count zero) the estimate. The error, once
// per run, says a reply had no Usage, or a count was negative.
func (h *budget) usage(v *spent, req hooks.ModelRequest, resp hooks.ModelResponse) (hooks.Usage, error) {
	u := resp.Usage
	var said error
	if u.InputTokens < 0 || u.OutputTokens < 0 || u.CachedInputTokens < 0 {
		said = fmt.Errorf("the reply of model %s reports a negative token count (%+v): counted as 0", modelName(req.Model), u)
		u.InputTokens, u.OutputTokens, u.CachedInputTokens = max(u.InputTokens, 0), max(u.OutputTokens, 0), max(u.CachedInputTokens, 0)
	}
	if u != (hooks.Usage{}) || said != nil {
		return u, said
	}
	if h.estimate != nil {
		return h.estimate(req, resp), nil
	}
	u = estimateUsage(req, resp)
	if !v.NoUsage {
		v.NoUsage = true
		said = fmt.Errorf("the reply of model %s has no Usage: counting an estimate, %d input and %d output tokens (about 4 bytes a token; set BudgetConfig.Estimate to count otherwise)",
			modelName(req.Model), u.InputTokens, u.OutputTokens)
	}
	return u, said
}

// estimateUsage counts about four bytes a token, at least one token each
// way: what the request sent and the reply said.
func estimateUsage(req hooks.ModelRequest, resp hooks.ModelResponse) hooks.Usage {
	in := int64(len(req.System))
	for _, m := range req.Messages {
		in += messageBytes(m)
	}
	out := int64(len(resp.Text))
	for _, tc := range resp.ToolCalls {
		out += callBytes(tc)
	}
	return hooks.Usage{InputTokens: in/4 + 1, OutputTokens: out/4 + 1}
}

func messageBytes(m hooks.Message) int64 {
	n := int64(len(m.Text))
	for _, tc := range m.ToolCalls {
		n += callBytes(tc)
	}
	return n
}

func callBytes(tc hooks.ToolCall) int64 {
	args, _ := json.Marshal(tc.Arguments)
	return int64(len(tc.Name) + len(args))
}

// addTokens adds counts to a total, saturating at math.MaxInt64: a total
// that wrapped would read as spent-nothing.
func addTokens(total int64, counts ...int64) int64 {
	for _, n := range counts {
		if n <= 0 { // a count cannot give tokens back
			continue
		}
		if n > math.MaxInt64-total {
			return math.MaxInt64
		}
		total += n
	}
	return total
}

// price finds the model's price: its own, or the longest prefix's.
func (h *budget) price(model string) (Price, bool) {
	if p, ok := h.prices[model]; ok {
		return p, true
	}
	best := ""
	for k := range h.prices {
		if k != "" && len(k) > len(best) && strings.HasPrefix(model, k) {
			best = k
		}
	}
	p, ok := h.prices[best]
	return p, ok && best != ""
}

// share is the larger share of a limit spent.
func (h *budget) share(v *spent) float64 {
	var s float64
	if h.maxTokens > 0 {
		s = float64(v.Tokens) / float64(h.maxTokens)
	}
	if h.maxCost > 0 {
		s = max(s, v.Cost/h.maxCost)
	}
	return s
}

func (h *budget) summary(v *spent) string {
	var parts []string
	if h.maxTokens > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d tokens", v.Tokens, h.maxTokens))
	}
	if h.maxCost > 0 {
		parts = append(parts, fmt.Sprintf("%.4g of %.4g in cost", v.Cost, h.maxCost))
	}
	return strings.Join(parts, " and ")
}

// over says which limit is passed, or "".
func (h *budget) over(v *spent) string {
	if (h.maxTokens > 0 && v.Tokens > h.maxTokens) || (h.maxCost > 0 && v.Cost > h.maxCost) {
		return h.summary(v)
	}
	return ""
}
