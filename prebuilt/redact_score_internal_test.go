package prebuilt

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// piiRow is one text of testdata/pii/pii.jsonl and its gold spans (byte
// offsets).
type piiRow struct {
	Text  string    `json:"text"`
	Spans []piiSpan `json:"spans"`
}

type piiSpan struct {
	Kind       string `json:"kind"`
	Start, End int
}

func loadPII(t *testing.T) []piiRow {
	f, err := os.Open("testdata/pii/pii.jsonl")
	require.NoError(t, err)
	defer f.Close()
	var rows []piiRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r piiRow
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		rows = append(rows, r)
	}
	require.NoError(t, sc.Err())
	require.Greater(t, len(rows), 400)
	return rows
}

// findings are where r finds what in text, in text's offsets: each
// finding is written as one private-use rune that numbers it, and the
// output is read back against the input (a finding may hold an earlier
// one: a URL around an email).
func findings(r *Redactor, text string) []piiSpan {
	const base = 0xF0000
	var found []piiSpan
	var lengths []int // in input bytes
	inputLen := func(s string) int {
		n := 0
		for _, c := range s {
			if c >= base && int(c-base) < len(lengths) {
				n += lengths[c-base]
			} else {
				n += utf8.RuneLen(c)
			}
		}
		return n
	}
	cp := *r
	cp.replace = func(i int, secret string) string {
		found = append(found, piiSpan{Kind: cp.detectors[i].kind})
		lengths = append(lengths, inputLen(secret))
		return string(rune(base + len(lengths) - 1))
	}
	out, _ := cp.redact(text)
	var spans []piiSpan
	pos := 0
	for _, c := range out {
		if c >= base && int(c-base) < len(lengths) {
			k := c - base
			spans = append(spans, piiSpan{Kind: found[k].Kind, Start: pos, End: pos + lengths[k]})
			pos += lengths[k]
			continue
		}
		pos += utf8.RuneLen(c)
	}
	return spans
}

type tally struct{ gold, found, predicted, correct int }

func overlaps(a, b piiSpan) bool { return a.Kind == b.Kind && a.Start < b.End && b.Start < a.End }

// score is per-kind recall (gold spans a finding of their kind overlaps)
// and precision (findings that overlap a gold span of their kind).
func score(rows []piiRow, find func(string) []piiSpan) (map[string]*tally, []string) {
	t := map[string]*tally{}
	get := func(k string) *tally {
		if t[k] == nil {
			t[k] = &tally{}
		}
		return t[k]
	}
	var misses []string
	for _, row := range rows {
		got := find(row.Text)
		for _, g := range row.Spans {
			get(g.Kind).gold++
			if slices.ContainsFunc(got, func(p piiSpan) bool { return overlaps(g, p) }) {
				get(g.Kind).found++
			} else {
				misses = append(misses, fmt.Sprintf("missed %s %q in %q", g.Kind, row.Text[g.Start:g.End], row.Text))
			}
		}
		for _, p := range got {
			get(p.Kind).predicted++
			if slices.ContainsFunc(row.Spans, func(g piiSpan) bool { return overlaps(g, p) }) {
				get(p.Kind).correct++
			} else {
				misses = append(misses, fmt.Sprintf("wrongly %s %q in %q", p.Kind, row.Text[p.Start:p.End], row.Text))
			}
		}
	}
	return t, misses
}

var piiKinds = []string{"card_number", "phone", "email", "ip", "us_ssn", "iban", "url"}

// The default redactor finds at least 95% of each kind of the test set,
// and at least 95% of what it finds is that kind.
func TestRedactScoreOnThePIISet(t *testing.T) {
	rows := loadPII(t)
	t0, misses := score(rows, func(s string) []piiSpan { return findings(defaultForScore(t), s) })
	for _, m := range misses {
		t.Log(m)
	}
	for _, k := range piiKinds {
		s := t0[k]
		require.NotNil(t, s, k)
		recall, precision := float64(s.found)/float64(s.gold), float64(s.correct)/float64(max(1, s.predicted))
		t.Logf("%-12s gold %3d  recall %.3f  precision %.3f", k, s.gold, recall, precision)
		assert.GreaterOrEqual(t, recall, 0.95, "%s recall", k)
		assert.GreaterOrEqual(t, precision, 0.95, "%s precision", k)
	}
}

func defaultForScore(t *testing.T) *Redactor {
	r, err := NewRedactor(RedactConfig{})
	require.NoError(t, err)
	return r
}

// Streamed, in chunks of sizes from 1 to 40 bytes, each text of the
// set comes out as the whole text's redaction, or (where a marker ends a
// long value) with no gold value delivered.
func TestRedactScoreHoldsStreamed(t *testing.T) {
	rows := loadPII(t)
	r := defaultForScore(t)
	same, total := 0, 0
	for _, row := range rows {
		whole := r.Redact(row.Text)
		for _, size := range []int{1, 2, 3, 7, 16, 40} {
			got, _ := stage(r, pieces(row.Text, size, false))
			total++
			if got == whole {
				same++
				continue
			}
			for _, g := range row.Spans {
				v := row.Text[g.Start:g.End]
				require.NotContains(t, got, v, "chunks of %d: %q → %q (whole: %q)", size, row.Text, got, whole)
			}
			assert.Equal(t, strings.Count(whole, "[REDACTED:"), strings.Count(got, "[REDACTED:"), "chunks of %d: %q → %q (whole: %q)", size, row.Text, got, whole)
		}
	}
	t.Logf("streamed = whole in %d of %d", same, total)
	assert.GreaterOrEqual(t, float64(same)/float64(total), 0.99)
}
