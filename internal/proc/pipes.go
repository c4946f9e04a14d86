package proc

import (
	"os"
	"os/exec"
	"slices"
	"time"
)

// pipes are the command's stdin, stdout and stderr. They are made here
// rather than by exec: exec copies its own pipes in goroutines that Wait
// waits for, so a child holding stdout would hold Wait, and Run, until
// WaitDelay. Here the command gets *os.File ends, which exec passes on as
// they are (Wait then returns as soon as the process exits), and Run's own
// goroutines serve this side, which closing a file always unblocks.
type pipes struct {
	stdin, stdout, stderr *os.File   // this process's ends
	child                 []*os.File // the command's ends, closed here once it started

	reads    chan struct{} // one value per reader (stdout, stderr) that ended
	wrote    chan struct{} // closed when stdin is written and closed
	overflow chan struct{} // closed when stdout passes what may be read (MaxOut, or DrainOut)

	// Written by the readers, read after they ended.
	out     []byte // stdout, at most MaxOut bytes
	written int64  // bytes read from stdout
	over    bool   // stdout passed MaxOut
	cut     bool   // stdout passed what may be read: Run kills the command
	errTail []byte // the end of stderr
}

// openPipes makes the three pipes and gives their child ends to cmd.
func openPipes(cmd *exec.Cmd) (*pipes, error) {
	p := &pipes{reads: make(chan struct{}, 2), wrote: make(chan struct{}), overflow: make(chan struct{})}
	var ends [6]*os.File
	for i := 0; i < 6; i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(ends[:i])
			return nil, err
		}
		ends[i], ends[i+1] = r, w
	}
	p.child = []*os.File{ends[0], ends[3], ends[5]}
	p.stdin, p.stdout, p.stderr = ends[1], ends[2], ends[4]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = ends[0], ends[3], ends[5]
	return p, nil
}

// abort closes every pipe of a command that did not start.
func (p *pipes) abort() {
	closeAll(p.child)
	closeAll([]*os.File{p.stdin, p.stdout, p.stderr})
}

// serve closes the command's ends (this process must not keep a writer
// of stdout, or stdout would never reach its end) and starts writing
// stdin and reading stdout and stderr.
func (p *pipes) serve(stdin []byte, maxOut int, drainOut int64) {
	closeAll(p.child)
	if len(stdin) == 0 {
		p.stdin.Close()
		close(p.wrote)
	} else {
		go p.write(stdin)
	}
	go p.readOut(max(maxOut, 0), drainOut)
	go p.readErr()
}

// finish waits for the readers to reach the end of the output (which
// comes as soon as every process holding a pipe is dead), or drainGrace,
// then closes this side of every pipe and waits for the goroutines. held
// reports that the grace ran out while something Run could not kill
// still held the output; readers that are only slow to be scheduled (no
// writer is left: hungUp) are waited for.
func (p *pipes) finish() (held bool) {
	timer := time.NewTimer(drainGrace)
	defer timer.Stop()
	for ended := 0; ended < 2; {
		select {
		case <-p.reads:
			ended++
		case <-timer.C:
			if hungUp(p.stdout) && hungUp(p.stderr) {
				continue // their end is coming
			}
			held = true
			p.stdout.Close() // unblocks the reader: a pipe is pollable
			p.stderr.Close()
		}
	}
	p.stdout.Close()
	p.stderr.Close()
	p.stdin.Close() // unblocks the writer if a reader of stdin escaped
	<-p.wrote
	return held
}

// write writes stdin, then closes it so that the command reads its end.
// A command may exit without reading stdin: that is not a failure.
func (p *pipes) write(data []byte) {
	defer close(p.wrote)
	_, _ = p.stdin.Write(data)
	p.stdin.Close()
}

// readOut reads stdout and keeps its first maxOut bytes. Past them, it
// reads on up to drainOut bytes in all without keeping them (drain);
// past what it may read, it closes overflow (Run kills the command) and
// stops reading.
func (p *pipes) readOut(maxOut int, drainOut int64) {
	defer func() { p.reads <- struct{}{} }()
	buf := make([]byte, 0, min(512, maxOut+1))
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(cap(buf), maxOut+1-len(buf)))
		}
		n, err := p.stdout.Read(buf[len(buf):min(cap(buf), maxOut+1)])
		buf = buf[:len(buf)+n]
		p.written += int64(n)
		if len(buf) > maxOut {
			p.out, p.over = buf[:maxOut], true
			if drainOut <= int64(maxOut) {
				p.cut = true
				close(p.overflow)
			} else if err == nil {
				p.drain(drainOut)
			}
			return
		}
		if err != nil {
			p.out = buf
			return
		}
	}
}

// drain reads stdout past the kept part to its end, counting it, or
// until more than limit bytes were read in all: then it closes overflow.
func (p *pipes) drain(limit int64) {
	scratch := make([]byte, 32<<10)
	for p.written <= limit {
		n, err := p.stdout.Read(scratch)
		p.written += int64(n)
		if err != nil {
			return
		}
	}
	p.cut = true
	close(p.overflow)
}

// readErr reads stderr to its end and keeps the last maxStderr bytes.
func (p *pipes) readErr() {
	defer func() { p.reads <- struct{}{} }()
	buf := make([]byte, 2*maxStderr)
	n := 0
	for {
		if n == len(buf) {
			n = copy(buf, buf[n-maxStderr:n])
		}
		m, err := p.stderr.Read(buf[n:])
		n += m
		if err != nil {
			break
		}
	}
	p.errTail = buf[max(0, n-maxStderr):n]
}

// closeAll closes files, skipping nil ones.
func closeAll(files []*os.File) {
	for _, f := range files {
		if f != nil {
			_ = f.Close()
		}
	}
}
