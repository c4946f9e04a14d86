// Package proc runs a command hook's process: argv without a shell, with
// a bounded output and a deadline, and nothing it started left running
// when Run returns.
//
// # What Run guarantees
//
// Every platform: Run (and Exec, which also returns what it read on
// failure) returns only after the command itself has exited (it is killed
// at the timeout, when ctx is cancelled, or when stdout passes MaxOut, or
// DrainOut when that is larger), and no goroutine of this package
// outlives the call. Run
// does not wait for the output pipes to close beyond a short grace
// (drainGrace) once everything it can kill is dead: if something it
// cannot kill still holds them, Run closes its own ends, returns what was
// read, and reports ErrEscaped.
//
// Linux: the command runs in a process group of its own, with the
// environment variable RIENDA_HOOK_RUN set to a random token of the run
// (appended, comma-separated, to an inherited value, so that nested runs
// keep every marker). Once the command has exited or been killed, and
// before it is reaped (so the group's id cannot have been reused), Run
// kills the group with SIGKILL, then scans /proc for the processes of the
// same user, started after the command, that are in the group or carry the
// token in their environment; it kills them and scans again until none is
// alive (zombies count as dead). So a child dies whether it kept the group
// or left it (setsid, a double fork, nohup, a daemon), whatever signal it
// ignores, and however many it forks meanwhile: Run returns only when none
// runs. A process caught inside execve or exiting, whose environment cannot
// be read at that moment, is waited for and looked at again. The scan
// reads only the pids allocated since the command started, unless the pid
// counter wrapped, or the run lasted long enough (fullScanAfter) for it to
// have wrapped unseen: then it reads them all. What escapes: a descendant
// that both leaves the group and loses the marker (a cleared or rewritten
// environment: `setsid env -i sleep 100`), or whose environment this user
// may not read (setuid, or made non-dumpable like ssh-agent, when it left
// the group); processes of another user are never touched; a killed
// process blocked in the kernel past sweepBudget (or still waiting for a
// CPU past dyingBudget) is left and reported (ErrEscaped).
//
// Other unix systems: the process group is killed once the command has
// exited, so children that kept the group die; those that left it
// (setsid) are not found. There the command is reaped before the kill: a
// group's id is not reused while it has members, so the kill can reach a
// stranger only if the group emptied and a new group took its id within
// that moment.
//
// Other platforms: only the command's own process is killed (at the
// timeout, at cancellation, or on overflow); its children are not.
package proc
