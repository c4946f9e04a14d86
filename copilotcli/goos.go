package copilotcli

import "runtime"

// goos is the system commands run on: an entry with only a powershell
// command does not run elsewhere than on Windows.
var goos = runtime.GOOS
