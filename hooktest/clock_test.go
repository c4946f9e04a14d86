package hooktest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rienda/hooks"
	"github.com/rienda/hooks/hooktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// weekdays refuses deploys on Saturdays and Sundays, by the host's clock.
var weekdays = hooks.Funcs{
	HookName: "weekdays",
	BeforeToolExecute: func(c *hooks.Context, call hooks.ToolCall) (*hooks.ToolCallPatch, error) {
		if day := c.System.Now().Weekday(); day == 0 || day == 6 {
			return hooks.Refuse("no deploys on " + day.String()), nil
		}
		return nil, nil
	},
}

// weekdaysJS is the same policy in JavaScript.
const weekdaysJS = `exports.beforeToolExecute = (ctx, call) => {
	const day = ctx.system.now().getUTCDay();
	if (day === 0 || day === 6) return {allow: false, reason: "no deploys on " + ["Sunday", "", "", "", "", "", "Saturday"][day]};
};`

func TestAFixtureClockPinsTheTime(t *testing.T) {
	dir := t.TempDir()
	write := func(name, clock string, refused bool) {
		data := `{"point": "beforeToolExecute", "host": {"clock": "` + clock + `"},
			"input": {"call": {"name": "deploy"}}, "expect": {"refused": ` + map[bool]string{true: "true", false: "false"}[refused] + `}}`
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+".json"), []byte(data), 0o644))
	}
	write("saturday", "2026-12-05T09:00:00Z", true)
	write("sunday-late", "2026-12-06T23:30:00.5+00:00", true)
	write("thursday", "2026-12-03T09:00:00Z", false)
	js, err := hooks.CompileJS("weekdays", weekdaysJS, nil)
	require.NoError(t, err)
	for _, h := range []hooks.Hook{weekdays, js} {
		t.Run(h.Name(), func(t *testing.T) {
			hooktest.RunFixtures(t, h, dir)
		})
	}

	fixtures, err := hooktest.LoadFixtures(dir)
	require.NoError(t, err)
	fixtures[0].Expect.Reason = ptr("no deploys on Sunday")
	assert.ErrorContains(t, hooktest.Check(fixtures[0], weekdays), `it was refused with "no deploys on Saturday"`)
}

func TestABadFixtureClockIsAnError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"point": "afterRun", "host": {"clock": "tomorrow"}}`), 0o644))
	_, err := hooktest.LoadFixtures(dir)
	assert.EqualError(t, err, `hooktest: fixture `+path+`: host.clock "tomorrow" is not an RFC 3339 time, like "2026-12-03T09:00:00Z"`)

	err = hooktest.Check(hooktest.Fixture{Name: "x", Point: hooks.AfterRun, Host: hooktest.FixtureHost{Clock: "2026-12-03"}}, weekdays)
	assert.EqualError(t, err, `hooktest: fixture "x": host.clock "2026-12-03" is not an RFC 3339 time, like "2026-12-03T09:00:00Z"`)
}
