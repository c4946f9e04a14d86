package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/rienda/hooks/internal/suggest"
)

// A guard's output that cannot be read as a decision follows the hook's
// policy (seed 004: fail open unless failClosed), except when it evidently
// says refuse: a guard's output is often built from the call (a reason
// quoting the command), so the model can break its JSON with a quote, and
// that must not turn the guard's refusal into an allow. "Evidently" is a
// decision key, or a key within a typo of it, in any case, holding a
// refusal word or a typo of one ("decision": "block", 'Decision': 'deny',
// decison=blok), or a refusal key holding true ("block": true) or an
// allow key holding false ("allow": false), anywhere in the output.

// decisionKeyNames are the keys that hold a decision in the dialects the
// library reads (command hooks, Claude Code's permissionDecision and
// behavior, Cursor's permission), folded (lower case, without "_", "-"
// and spaces). They are known here, in one place, so that every dialect's
// guard reads a broken deny under any of them.
var decisionKeyNames = []string{"decision", "permissiondecision", "permission", "behavior", "behaviour"}

// allowKeyNames are keys whose false is a refusal ({"allow": false}, the
// JS hooks' shape), folded.
var allowKeyNames = map[string]bool{"allow": true, "allowed": true, "approve": true, "approved": true,
	"permit": true, "permitted": true}

// refusalList is refusalWords as a list, for suggest.
var refusalList = func() []string {
	var out []string
	for w := range refusalWords {
		out = append(out, w)
	}
	return out
}()

// foldDecisionKey is a key as evidentPair compares it.
func foldDecisionKey(k string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '-', ' ':
			return -1
		}
		return r
	}, strings.ToLower(k))
}

// isDecisionKey reports whether k is a decision key, or within a typo of
// one, in any case.
func isDecisionKey(k string) bool {
	if len(k) > maxEvidentWord || len(k) < 6 {
		return false // no decision key, or a typo of one, is that long or that short ("decision" less two)
	}
	f := foldDecisionKey(k)
	for _, d := range decisionKeyNames {
		if f == d {
			return true
		}
	}
	_, ok := suggest.Closest(f, decisionKeyNames)
	return ok
}

// isRefusal reports whether a decision's value is a refusal word, or
// within a typo of one, in any case, read from its first word ("deny: no
// rm" and "BLOCK." refuse).
func isRefusal(v string) bool {
	w := firstWord(v)
	if len(w) < 3 || len(w) > maxEvidentWord { // "deny" less one
		return false
	}
	if refusalWords[w] {
		return true
	}
	_, ok := suggest.Closest(w, refusalList)
	return ok
}

// firstWord is the first run of letters of v, in lower case, past any
// leading spaces and punctuation. Invisible format characters (a zero
// width space) are dropped first, and a letter of another script counts,
// so that a look-alike ("blоck" with a Cyrillic о) is a typo of a word.
func firstWord(v string) string {
	if len(v) > 256 {
		v = v[:256] // a decision's first word is at its start
	}
	v = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, v)
	start := strings.IndexFunc(v, unicode.IsLetter)
	if start < 0 || start > 16 {
		return ""
	}
	v = v[start:]
	end := strings.IndexFunc(v, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(v)
	}
	return strings.ToLower(v[:end])
}

func isASCIILetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// evidentPair reports whether key holding value evidently refuses, and
// says how. value is a string, a bool, or anything else (never).
func evidentPair(key string, value any) (string, bool) {
	switch v := value.(type) {
	case string:
		if isDecisionKey(key) && isRefusal(v) {
			return fmt.Sprintf("%q: %q", key, v), true
		}
		if f := foldDecisionKey(key); refusalWords[f] || allowKeyNames[f] {
			if b, ok := boolWords[strings.ToLower(strings.TrimSpace(v))]; ok {
				return evidentPair(key, b)
			}
		}
	case bool:
		f := foldDecisionKey(key)
		if v && refusalWords[f] || !v && allowKeyNames[f] {
			return fmt.Sprintf("%q: %t", key, v), true
		}
	case float64: // JavaScript's truthiness: {"block": 1}, {"allow": 0}
		if what, ok := evidentPair(key, v != 0); ok {
			return fmt.Sprintf("%q: %v (%s)", key, v, what), true
		}
	}
	return "", false
}

// boolWords are the strings read as a yes or a no under a refusal or an
// allow key ({"allow": "no"}, {'block': 'True'}).
var boolWords = map[string]bool{"true": true, "yes": true, "1": true, "on": true,
	"false": false, "no": false, "0": false, "off": false}

// maxEvidentWord is the longest word read as a decision key or a
// refusal: longer ones are neither, and are not compared.
const maxEvidentWord = 40

// maxEvidentDepth bounds how deep evidentInJSON looks: deeper values are
// skipped whole (a guard's decision is never that deep).
const maxEvidentDepth = 32

// evidentInJSON looks for an evident refusal in valid JSON: every key of
// every object, repeated keys included, as decoded (escapes read); a
// list's strings count as its key's ("decision": ["block"]).
func evidentInJSON(data []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var found string
	_, _ = walkJSON(dec, 0, "", func(key string, value any) {
		if found == "" {
			found, _ = evidentPair(key, value)
		}
	})
	return found, found != ""
}

// walkJSON reads one value from dec, the value of key, calling visit with
// each object key and its value (nil for an object or an array, which it
// walks) and with key and each scalar of a list; it returns a scalar's
// value.
func walkJSON(dec *json.Decoder, depth int, key string, visit func(string, any)) (any, error) {
	if depth > maxEvidentDepth {
		var skip json.RawMessage
		return nil, dec.Decode(&skip)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			value, err := walkJSON(dec, depth+1, k, visit)
			if err != nil {
				return nil, err
			}
			visit(k, value)
		}
		_, err = dec.Token()
		return nil, err
	case json.Delim('['):
		for dec.More() {
			value, err := walkJSON(dec, depth+1, key, visit)
			if err != nil {
				return nil, err
			}
			if value != nil && key != "" {
				visit(key, value)
			}
		}
		_, err = dec.Token()
		return nil, err
	}
	return tok, nil
}

// evidentInText looks for an evident refusal in output that is not JSON:
// a word, then only quotes, spaces, backslashes and a ':' or '=', then a
// word, as in "decision": "block", 'decision': 'deny', decision=block, or
// \"decision\":\"block\" (JSON inside a string). \u escapes of ASCII
// letters are read first. It reads the text once, in linear time.
func evidentInText(out []byte) (string, bool) {
	text := unescapeLetters(out)
	var prev string // the last word, when only separators followed it
	sawColon := false
	seen := map[string]bool{} // the pairs read already: a repeated pair is not compared again
	for i := 0; i < len(text); {
		c := text[i]
		if isWordByte(c) {
			j := i
			for j < len(text) && isWordByte(text[j]) {
				j++
			}
			word := string(text[i:j])
			if pair := prev + ":" + word; prev != "" && sawColon && !seen[pair] {
				if what, ok := evidentPair(prev, word); ok {
					return what, true
				}
				if len(seen) < 1024 {
					seen[pair] = true
				}
			}
			prev, sawColon, i = word, false, j
			continue
		}
		switch c {
		case ':', '=':
			if sawColon {
				prev = "" // "a::b" is not a key and its value
			}
			sawColon = true
		case '>':
			// Ruby's and Perl's hash, {"decision"=>"block"} (what Ruby's
			// puts prints for a Hash): "=>" separates a key and its value.
			if i == 0 || text[i-1] != '=' {
				prev, sawColon = "", false
			}
		case ' ', '\t', '\r', '\n', '"', '\'', '`', '\\', '[':
			// '[': a decision given as a list, "decision": ["block"].
		default:
			prev, sawColon = "", false
		}
		i++
	}
	return "", false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// unescapeLetters replaces each \uXXXX escape of an ASCII letter, digit,
// '_' or '-' by the character, so that "\u0064ecision" reads as decision.
func unescapeLetters(out []byte) []byte {
	if !bytes.Contains(out, []byte(`\u`)) {
		return out
	}
	text := make([]byte, 0, len(out))
	for i := 0; i < len(out); i++ {
		if out[i] == '\\' && i+5 < len(out) && out[i+1] == 'u' {
			if n, err := strconv.ParseUint(string(out[i+2:i+6]), 16, 16); err == nil && n < utf8.RuneSelf && isWordByte(byte(n)) {
				text = append(text, byte(n))
				i += 5
				continue
			}
		}
		text = append(text, out[i])
	}
	return text
}

// reasonInText is the text of a "reason" key in output that is not JSON,
// as far as it can be read: the quoted text after reason: up to its
// closing quote (or the end), its escapes read when they can be.
func reasonInText(out []byte) string {
	for rest := out; ; {
		at := bytes.Index(rest, []byte("reason"))
		if at < 0 {
			return ""
		}
		after := bytes.TrimLeft(rest[at+len("reason"):], "\"' \t\r\n")
		rest = rest[at+len("reason"):]
		if len(after) == 0 || after[0] != ':' {
			continue
		}
		after = bytes.TrimLeft(after[1:], " \t\r\n")
		if len(after) == 0 || after[0] != '"' && after[0] != '\'' {
			continue
		}
		quote, body := after[0], after[1:]
		end := len(body)
		for i := 0; i < len(body); i++ {
			if body[i] == '\\' {
				i++
				continue
			}
			if body[i] == quote {
				end = i
				break
			}
		}
		raw := body[:end]
		var s string
		if quote == '"' && json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s) == nil {
			return s
		}
		return strings.ToValidUTF8(string(raw), "\uFFFD")
	}
}

// bareRefusal reports whether the whole output is one refusal word (or a
// typo of one), quoted or not, with trailing punctuation: block, "deny",
// BLOCKED.
func bareRefusal(out []byte) (string, bool) {
	word := strings.TrimRight(strings.Trim(string(out), "\"'` \t\r\n"), ".!")
	if len(word) > 16 || strings.IndexFunc(word, func(r rune) bool { return !isASCIILetter(r) }) >= 0 {
		return "", false
	}
	return word, isRefusal(word)
}

// EvidentRefusal reports whether a guard's output evidently says refuse,
// however else it is wrong, and says how ("decision": "block"): a
// decision key ("decision", Claude Code's "permissionDecision" and
// "behavior"), or a key within a typo of one, in any case, holding a
// refusal word ("block", "deny", "reject", "refuse", "disallow",
// "forbid", their past forms, a typo or a look-alike of one), or a list
// holding one; a refusal key holding true or an allow key holding false
// ({"allow": false}); or a refusal word alone. In valid JSON only keys
// and their values count, at any depth: a refusal word in the text of a
// string ({"decision":"allow","reason":"echo deny"}) does not refuse. In
// output that is not valid JSON, or is a JSON string holding text, every
// key and value pair of the text counts, quoted or not ('decision':
// 'deny', decision=block, {"decision"=>"block"}, \"decision\":\"block\"),
// quoted text included: which quotes are the guard's own cannot be told
// once a quote in the call broke them.
//
// It is the rule command hooks apply (see CommandHooks), for a dialect's
// tool guard to apply to what its handlers print: a guard's output is
// often built from the call (a reason quoting the command), so the model
// can break its JSON with a quote, or make it crash after it printed its
// refusal; neither may turn the refusal into an allow. The model can
// make a guard's output say refuse (and so refuse its own call), never
// stop saying it.
func EvidentRefusal(output []byte) (string, bool) {
	if what, ok := evidentRefusal(output); ok {
		return what, true
	}
	// A deny in UTF-16 (PowerShell's Out-File, a Windows tool), or with
	// NULs spliced into it, is no text a host reads, and still evidently
	// a deny: read it as its characters, then without its NULs.
	if bytes.IndexByte(output, 0) < 0 {
		return "", false
	}
	if text, ok := fromUTF16(output); ok {
		if what, ok := evidentRefusal(text); ok {
			return what + " (in UTF-16)", true
		}
	}
	if what, ok := evidentRefusal(bytes.ReplaceAll(output, []byte{0}, nil)); ok {
		return what + " (NULs set aside)", true
	}
	return "", false
}

// evidentRefusal is EvidentRefusal on output read as UTF-8.
func evidentRefusal(output []byte) (string, bool) {
	out := bytes.TrimSpace(output)
	if len(out) == 0 {
		return "", false
	}
	if word, ok := bareRefusal(out); ok {
		return fmt.Sprintf("%q alone", word), true
	}
	if json.Valid(out) {
		if what, ok := evidentInJSON(out); ok || out[0] == '{' {
			return what, ok
		}
	}
	return evidentInText(out)
}

// fromUTF16 decodes output as UTF-16 when it starts with a byte order
// mark, or when its first NUL is its second or first byte (ASCII text in
// little or big endian UTF-16); ok is false otherwise.
func fromUTF16(output []byte) ([]byte, bool) {
	if len(output) < 2 {
		return nil, false
	}
	var big bool
	switch {
	case output[0] == 0xFF && output[1] == 0xFE:
		output = output[2:]
	case output[0] == 0xFE && output[1] == 0xFF:
		output, big = output[2:], true
	case output[1] == 0 && output[0] != 0:
	case output[0] == 0 && output[1] != 0:
		big = true
	default:
		return nil, false
	}
	units := make([]uint16, 0, len(output)/2)
	for i := 0; i+1 < len(output); i += 2 {
		if big {
			units = append(units, uint16(output[i])<<8|uint16(output[i+1]))
		} else {
			units = append(units, uint16(output[i+1])<<8|uint16(output[i]))
		}
	}
	return []byte(string(utf16.Decode(units))), true
}
