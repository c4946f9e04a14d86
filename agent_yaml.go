package hooks

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// maxRescanLines bounds the front matters whose YAML errors yamlError
// locates by parsing prefixes (a quadratic cost, on error only). Longer ones
// keep yaml.v3's own line, which may be one off.
const maxRescanLines = 500

// yamlPrefix is what yaml.v3 puts before the problem: "yaml: line N: ".
var yamlPrefix = regexp.MustCompile(`^yaml: (line \d+: )?`)

// yamlError names the file line of the YAML syntax error err of padded (the
// front matter at its place in the file, the lines above it blank).
//
// yaml.v3's own line cannot be used as it is: it is the line of the
// enclosing construct when there is one (the "[" of an unclosed list),
// else of the problem, counted from 1 for a scanner error but from 0 for a
// parser error, and left out when it is 0; some errors (an unknown anchor)
// have none. So the line taken is the first line of the file by which the
// YAML fails with this very error, line number included: the lines up to it
// fail the same way, fewer do not. The whole text always does, so a line is
// always found.
func yamlError(padded string, err error) error {
	msg := err.Error()
	problem := yamlPrefix.ReplaceAllString(msg, "")
	if strings.Count(padded, "\n") > maxRescanLines {
		return fmt.Errorf("agent: %s", strings.TrimPrefix(msg, "yaml: "))
	}
	line := 0
	for end := 0; end < len(padded); {
		next := strings.IndexByte(padded[end:], '\n')
		if next < 0 {
			end = len(padded)
		} else {
			end += next + 1
		}
		line++
		if strings.TrimSpace(padded[:end]) == "" {
			continue // the blank lines above the front matter parse
		}
		var probe yaml.Node
		if perr := yaml.Unmarshal([]byte(padded[:end]), &probe); perr != nil && perr.Error() == msg {
			break
		}
	}
	return fmt.Errorf("agent: line %d: %s", line, problem)
}
