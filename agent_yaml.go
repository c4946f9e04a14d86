package hooks

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

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
// always found. The line is found by bisection over the lines, so an
// error costs a few parses, not one a line: a text that fails by line L
// fails by every later line, with the same error.
func yamlError(padded string, err error) error {
	msg := err.Error()
	problem := yamlPrefix.ReplaceAllString(msg, "")
	var ends []int // where each line of padded ends (after its newline)
	for i := 0; i < len(padded); i++ {
		if padded[i] == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(ends) == 0 || ends[len(ends)-1] != len(padded) {
		ends = append(ends, len(padded))
	}
	failsBy := func(i int) bool {
		prefix := padded[:ends[i]]
		if strings.TrimSpace(prefix) == "" {
			return false // the blank lines above the front matter parse
		}
		var probe yaml.Node
		perr := yaml.Unmarshal([]byte(prefix), &probe)
		return perr != nil && perr.Error() == msg
	}
	line := sort.Search(len(ends)-1, failsBy) // the whole text fails: len(ends)-1 is the answer at worst
	return fmt.Errorf("agent: line %d: %s", line+1, problem)
}
