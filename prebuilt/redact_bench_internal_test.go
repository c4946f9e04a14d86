package prebuilt

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// BenchmarkRedactPII2 redacts every text of the second PII set once per
// op: the cost of the detectors on realistic text.
func BenchmarkRedactPII2(b *testing.B) {
	f, err := os.Open("testdata/pii2/pii2.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var texts []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r struct{ Text string }
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			b.Fatal(err)
		}
		texts = append(texts, r.Text)
	}
	r, err := NewRedactor(RedactConfig{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, t := range texts {
			r.Redact(t)
		}
	}
}
