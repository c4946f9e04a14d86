package codex

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

// Entry is one handler of a settings file, as Codex lists it for review
// (/hooks): its key in [hooks.state] and the hash its trust is recorded
// under.
type Entry struct {
	Key     string // "<file>:pre_tool_use:<group>:<handler>"
	Event   string
	Matcher *string
	Command string
	Hash    string // "sha256:<hex>"
}

// Entries lists the handlers of a hooks.json (or, with a name ending in
// .toml, a config.toml) with their keys and hashes, so that a program can
// show them for review and record the hashes it trusts (Trusted). name is
// the file as Codex keys it (its absolute path).
func Entries(settings []byte, name string) ([]Entry, error) {
	var f *file
	var err error
	if strings.HasSuffix(strings.ToLower(name), ".toml") {
		f, err = parseTOML(settings, name)
	} else {
		f, err = parseJSON(settings, name)
	}
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, ev := range knownEvents {
		for _, hd := range f.events[ev] {
			if hd.typ != "command" {
				continue
			}
			out = append(out, Entry{Key: hookKey(name, hd), Event: ev, Matcher: hd.matcher, Command: hd.command, Hash: hd.hash()})
		}
	}
	return out, nil
}

// State reads config.toml's [hooks.state]: each hook key's trusted hash,
// for Trusted. Keys without a trusted_hash are left out.
func State(config []byte) (map[string]string, error) {
	f, err := parseTOML(config, "config.toml")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for k, st := range f.state {
		if st.TrustedHash != "" {
			out[k] = st.TrustedHash
		}
	}
	return out, nil
}

// hookKey is Codex's key of a handler (codex-rs/hooks/src/lib.rs
// hook_key): "<source>:<event label>:<group>:<handler>".
func hookKey(source string, hd *handler) string {
	return fmt.Sprintf("%s:%s:%d:%d", source, keyLabels[hd.event], hd.group, hd.index)
}

// hash is Codex's trust hash of a handler (discovery.rs
// command_hook_hash, config fingerprint.rs version_for_toml): SHA-256 of
// the canonical JSON (keys sorted, no spaces) of {event_name, matcher?,
// hooks: [the handler, normalized: type, command, timeout (default 600),
// async, statusMessage?]}. Codex versions that add handler fields change
// it; docs/codex.md names the version it follows.
func (hd *handler) hash() string {
	h := map[string]any{"type": "command", "command": hd.command, "timeout": max(hd.timeoutOrDefault(), 1), "async": hd.async}
	if hd.status != nil {
		h["statusMessage"] = *hd.status
	}
	id := map[string]any{"event_name": keyLabels[hd.event], "hooks": []any{h}}
	if hd.matcher != nil {
		id["matcher"] = *hd.matcher
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // serde_json writes <, > and & as themselves
	_ = enc.Encode(id)       // maps encode with sorted keys
	b := bytes.TrimSuffix(buf.Bytes(), []byte{'\n'})
	sum := sha256.Sum256(unescapeSeparators(b))
	return "sha256:" + hex.EncodeToString(sum[:])
}

func (hd *handler) timeoutOrDefault() uint64 {
	if hd.timeoutSec == 0 && hd.timeout == DefaultTimeout {
		return 600
	}
	return hd.timeoutSec
}

// unescapeSeparators writes U+2028 and U+2029 as themselves, as
// serde_json does (encoding/json escapes them): only an escape that is
// one (\u2028 after an even run of backslashes), never text that spells it.
func unescapeSeparators(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+5 < len(b) && b[i+1] == 'u' && (string(b[i+2:i+6]) == "2028" || string(b[i+2:i+6]) == "2029") {
			if b[i+5] == '8' {
				out = append(out, "\u2028"...)
			} else {
				out = append(out, "\u2029"...)
			}
			i += 5
			continue
		}
		if b[i] == '\\' && i+1 < len(b) {
			out = append(out, b[i], b[i+1])
			i++
			continue
		}
		out = append(out, b[i])
	}
	return out
}
