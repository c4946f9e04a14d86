package prebuilt

import (
	"strings"
	"testing"

	"github.com/rienda/hooks/internal/shell"
)

// The hand-written splitter the Sandbox used before internal/shell, kept
// here only to measure the parser's cost beside it.

// shellWords splits a shell command into its pipelines, each a list of
// simple commands, each a list of words with quotes removed: enough to
// see `rm -rf /` behind `"rm" -r -f -- /`, `sudo /bin/rm -fr /` or
// `cd x && rm -rf ~`. It is not a shell: what it cannot read (an unclosed
// quote) stays in the last word, and the deny patterns also run on the
// raw text.
func oldShellWords(cmd string) [][][]string {
	var t oldTokenizer
	for i := 0; i < len(cmd); i++ {
		ch := cmd[i]
		switch {
		case ch == '\\' && i+1 < len(cmd):
			i++
			if cmd[i] != '\n' {
				t.add(cmd[i : i+1])
			}
		case ch == '\'':
			j := strings.IndexByte(cmd[i+1:], '\'')
			if j < 0 {
				j = len(cmd) - i - 1
			}
			t.add(cmd[i+1 : i+1+j])
			i += j + 1
		case ch == '"':
			i = t.double(cmd, i+1)
		case ch == ' ' || ch == '\t':
			t.endWord()
		case ch == '|' && i+1 < len(cmd) && cmd[i+1] == '|', ch == '&' && i+1 < len(cmd) && cmd[i+1] == '&':
			i++
			t.endPipeline()
		case ch == '|':
			t.endCommand()
		case ch == ';' || ch == '\n' || ch == '&' || ch == '(' || ch == ')' || ch == '`' || ch == '{' && !t.inWord || ch == '}' && !t.inWord:
			t.endPipeline()
		case ch == '$' && i+1 < len(cmd) && cmd[i+1] == '(':
			i++
			t.endPipeline() // a command substitution is a command of its own
		default:
			t.add(cmd[i : i+1])
		}
	}
	t.endPipeline()
	return t.pipelines
}

// tokenizer collects shellWords' words, commands and pipelines.
type oldTokenizer struct {
	pipelines [][][]string
	pipeline  [][]string
	words     []string
	word      strings.Builder
	inWord    bool
}

func (t *oldTokenizer) add(s string) {
	t.word.WriteString(s)
	t.inWord = true
}

// double reads a double-quoted string from cmd[i:], and returns the index
// of its closing quote.
func (t *oldTokenizer) double(cmd string, i int) int {
	for ; i < len(cmd) && cmd[i] != '"'; i++ {
		if cmd[i] == '\\' && i+1 < len(cmd) && strings.IndexByte("\"\\$`", cmd[i+1]) >= 0 {
			i++
		}
		t.word.WriteByte(cmd[i])
	}
	t.inWord = true
	return i
}

func (t *oldTokenizer) endWord() {
	if t.inWord {
		t.words = append(t.words, t.word.String())
		t.word.Reset()
		t.inWord = false
	}
}

func (t *oldTokenizer) endCommand() {
	t.endWord()
	if len(t.words) > 0 {
		t.pipeline = append(t.pipeline, t.words)
		t.words = nil
	}
}

func (t *oldTokenizer) endPipeline() {
	t.endCommand()
	if len(t.pipeline) > 0 {
		t.pipelines = append(t.pipelines, t.pipeline)
		t.pipeline = nil
	}
}

var benchCommands = []string{
	"ls -la",
	"git push origin main",
	`cd repo && GIT_TRACE=1 git commit -m "fix: a message with 'quotes'" && git push`,
	`find . -name '*.go' -exec grep -l "TODO" {} \; | xargs wc -l | sort -n | tail -5`,
	`bash -lc "npm ci && npm test -- --coverage" 2>&1 | tee out.log`,
}

// BenchmarkShellSplit: the old splitter and the parser on the same
// commands, side by side (compare ratios within one run).
func BenchmarkShellSplit(b *testing.B) {
	b.Run("handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, c := range benchCommands {
				_ = oldShellWords(c)
			}
		}
	})
	b.Run("parser", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, c := range benchCommands {
				if _, err := shell.Parse(c, shell.Config{Home: "/h"}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	h, err := newSandbox(SandboxConfig{AllowHosts: []string{"example.com"}})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("sandbox-judge", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, c := range benchCommands {
				if r, _ := h.judgeCommand(shellEnv{workdir: "/w", home: "/h"}, "command", c); r != "" {
					b.Fatal(r)
				}
			}
		}
	})
}

var _ = strings.Builder{}
