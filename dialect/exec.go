package dialect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/internal/proc"
)

// DefaultMaxOutput is Command.MaxOutput when it is 0.
const DefaultMaxOutput = 256 << 10

// Command is one run of a handler's command.
type Command struct {
	Argv      []string      // Argv[0] is looked up in PATH when it has no slash
	Dir       string        // "": Workdir(c); a relative folder is in Workdir(c)
	Env       []string      // "KEY=value"; nil: Environ(c)
	Stdin     []byte        // the event's input; stdin is closed once it is written
	Timeout   time.Duration // > 0
	MaxOutput int           // bytes of stdout kept at most; 0: DefaultMaxOutput
	// DrainOutput, when larger than MaxOutput, lets a command whose stdout
	// passes MaxOutput run on to its end (what it prints past MaxOutput is
	// counted, not kept; past DrainOutput it is killed), so that its exit
	// status is known: an agent CLI where exit 2 blocks whatever stdout
	// held reads it. Output.Overflow then says stdout was cut.
	DrainOutput int64
}

// Output is what a handler's command did.
type Output struct {
	Stdout []byte // at most MaxOutput bytes
	Stderr string // the end of stderr (at most 2 KiB), trimmed
	// ExitCode is the exit status; -1 when the command did not exit by
	// itself (Err says why).
	ExitCode int
	// Err is why the command did not exit by itself, or nil: it timed
	// out (ErrTimeout), printed more than MaxOutput (ErrOutputTooLarge),
	// could not start, or left a process behind (ErrEscaped).
	Err error
	// Overflow: stdout passed MaxOutput and was drained to the command's
	// end (Command.DrainOutput); Stdout is its start, and cannot be read
	// as a decision.
	Overflow bool
}

// The failures of Output.Err, for errors.Is.
var (
	ErrTimeout        = proc.ErrTimeout
	ErrOutputTooLarge = proc.ErrOutputTooLarge
	ErrEscaped        = proc.ErrEscaped
)

// Exited reports whether the command exited by itself, whatever its status.
func (o Output) Exited() bool { return o.Err == nil }

// TooLarge reports whether the command printed more than it may: its
// decision cannot be read, so a guard refuses.
func (o Output) TooLarge() bool { return o.Overflow || errors.Is(o.Err, ErrOutputTooLarge) }

// Text is what a host that reads stdout, or stderr when stdout is blank,
// reads: trimmed.
func (o Output) Text() string {
	if t := strings.TrimSpace(string(o.Stdout)); t != "" {
		return t
	}
	return o.Stderr
}

// Exec runs cmd under the run of c as every hook command runs here: in a
// process group of its own that is killed, with everything it started, at
// the timeout, when c is cancelled and when the command exits; its stdout
// capped (more refuses: Output.TooLarge), its stdin closed once written.
// The error is c's own when c was cancelled; every other failure is in the
// Output.
func Exec(c *hooks.Context, cmd Command) (Output, error) {
	if !filepath.IsAbs(cmd.Dir) {
		cmd.Dir = filepath.Join(Workdir(c), cmd.Dir) // the run's folder, never the process's
	}
	if cmd.Env == nil {
		cmd.Env = Environ(c)
	}
	if cmd.MaxOutput <= 0 {
		cmd.MaxOutput = DefaultMaxOutput
	}
	if cmd.Timeout <= 0 {
		return Output{ExitCode: -1, Err: errors.New("no timeout")}, nil
	}
	got, err := proc.Exec(c, proc.Command{Argv: cmd.Argv, Dir: cmd.Dir, Env: cmd.Env, Stdin: cmd.Stdin,
		Timeout: cmd.Timeout, MaxOut: cmd.MaxOutput, DrainOut: cmd.DrainOutput})
	if cerr := c.Err(); cerr != nil {
		return Output{}, cerr
	}
	out := Output{Stdout: got.Stdout, Stderr: strings.TrimSpace(string(got.Stderr)), ExitCode: -1}
	drained := cmd.DrainOutput > int64(cmd.MaxOutput) && !errors.Is(err, proc.ErrOutputTooLarge)
	if got.Overflow && drained {
		out.Overflow = true
	} else if got.Overflow && !errors.Is(err, proc.ErrOutputTooLarge) {
		err = fmt.Errorf("%w: more than %d bytes on stdout", proc.ErrOutputTooLarge, cmd.MaxOutput)
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		out.ExitCode = 0
	case errors.Is(err, proc.ErrOutputTooLarge):
		out.Err = err
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		out.ExitCode = exit.ExitCode()
	default:
		out.Err = err
	}
	return out, nil
}

// Workdir is the run's working folder: Host.Workdir, or the process's.
func Workdir(c *hooks.Context) string {
	if c.Workdir != "" {
		return c.Workdir
	}
	wd, _ := os.Getwd()
	return wd
}

// Environ is a command's environment: the run's (Host.Env, or the
// process's when the host gives none), then each of vars in order (a
// later value wins), sorted.
func Environ(c *hooks.Context, vars ...map[string]string) []string {
	env := map[string]string{}
	if c.Env != nil {
		for k, v := range c.Env {
			env[k] = v
		}
	} else {
		for _, kv := range os.Environ() {
			if k, v, ok := strings.Cut(kv, "="); ok {
				env[k] = v
			}
		}
	}
	for _, m := range vars {
		for k, v := range m {
			env[k] = v
		}
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// EncodeJSON is v as JSON without HTML escapes, as JSON.stringify writes
// it: a guard that looks for "a && b" in its input finds it.
func EncodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}
