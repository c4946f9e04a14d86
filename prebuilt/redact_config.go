package prebuilt

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// wanted reads Detect: the kinds and groups it names. An empty list and
// an unknown name are errors; "none" alone asks for Patterns only.
func wanted(cfg RedactConfig, known []string) (map[string]bool, error) {
	if cfg.Detect != nil && len(cfg.Detect) == 0 {
		return nil, errors.New(`field Detect: an empty list turns every built-in detector off, so nothing would be found; leave it nil for all of them, or say "none" to run only Patterns`)
	}
	want := map[string]bool{}
	for i, k := range cfg.Detect {
		k = kindAlias(k)
		if k == "none" {
			if len(cfg.Detect) > 1 {
				return nil, fmt.Errorf(`field Detect[%d]: "none" turns the built-in detectors off, so it comes alone`, i)
			}
			if len(cfg.Patterns) == 0 {
				return nil, errors.New(`field Detect: "none" with no Patterns would find nothing`)
			}
			continue
		}
		if !slices.Contains(known, k) {
			return nil, fmt.Errorf("field Detect[%d]: unknown detector %q%s (known: %s)", i, k, didYouMean(k, known), strings.Join(known, ", "))
		}
		want[k] = true
	}
	return want, nil
}

// kindAliases are the names LangChain's PII middleware gives kinds this
// package names otherwise, accepted for them.
var kindAliases = map[string]string{"credit_card": "card_number", "ssn": "us_ssn", "phone_number": "phone", "ip_address": "ip", "mac": "mac_address"}

func kindAlias(k string) string {
	if a, ok := kindAliases[k]; ok {
		return a
	}
	return k
}

// redactField redacts s, the value of a structured value's field key:
// under a field named for a secret (SecretAccessKey, password, api_key)
// all of it, else what the detectors find in it.
func (r *Redactor) redactField(key, s string) (out, blocked string) {
	if out, blocked = r.redact(s); out != s || blocked != "" {
		return out, blocked // a detector knows better what it is
	}
	if key != "" && s != "" {
		for _, f := range fieldKinds {
			i := r.detector(f.kind)
			if i < 0 || !f.re.MatchString(key) || !notPlaceholder(s, 0, len(s)) || digitCount(s) < f.need {
				continue
			}
			if r.strategy[i] == Block {
				return "", f.kind
			}
			return r.replacement(i, s), ""
		}
	}
	return s, ""
}

// RedactField is Redact for the value s of a structured value's field
// named key: a field named for a secret (SecretAccessKey, SessionToken,
// password, client_secret, api_key, token…, in any case style) is
// redacted whole, whatever its value looks like.
func (r *Redactor) RedactField(key, s string) string {
	out, blocked := r.redactField(key, s)
	if blocked != "" {
		return "[WITHHELD: contained " + article(blocked) + "]"
	}
	return out
}
