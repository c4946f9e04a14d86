package hooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Files is the file capability hooks get. Relative names resolve against
// the run's Workdir. Hooks are trusted code: absolute names are allowed.
// A Files must be safe for concurrent use.
type Files interface {
	Read(name string) ([]byte, error)
	Write(name string, data []byte) error  // creates or truncates; creates missing parent folders
	Append(name string, data []byte) error // creates when missing
	Exists(name string) (bool, error)
}

// ContextReader is a Files whose reads can stop when a context ends: a
// JavaScript hook's ctx.file.read uses it, so that a read of a slow file
// (a network mount) ends with the hook's call. DirFiles is one; a host's
// own Files may be one too.
type ContextReader interface {
	ReadContext(ctx context.Context, name string) ([]byte, error)
}

// MaxFileRead bounds what DirFiles reads from one file: a hook reads
// configuration and notes, and a read must never grow without bound.
const MaxFileRead = 32 << 20

// DirFiles is the Files of the operating system, with relative names
// resolved against the folder it names ("" is the process's working folder).
//
// It reads and writes regular files only: a FIFO, a device (/dev/zero), a
// socket or a folder is refused with an error naming it, since reading one
// can block forever or never end, and a file larger than MaxFileRead is
// refused too. A JavaScript hook's ctx.file.read also stops when its call's
// context ends.
type DirFiles string

func (d DirFiles) path(name string) string {
	if filepath.IsAbs(name) || d == "" {
		return name
	}
	return filepath.Join(string(d), name)
}

// Read returns the file's contents.
func (d DirFiles) Read(name string) ([]byte, error) {
	return d.ReadContext(context.Background(), name)
}

// ReadContext is Read, stopping when ctx ends.
func (d DirFiles) ReadContext(ctx context.Context, name string) ([]byte, error) {
	p := d.path(name)
	f, err := openRegular(p, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var data []byte
	buf := make([]byte, 64<<10)
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("reading %s: %w", p, err)
		}
		n, err := f.Read(buf)
		data = append(data, buf[:n]...)
		if len(data) > MaxFileRead {
			return nil, fmt.Errorf("reading %s: larger than %d bytes: refused", p, MaxFileRead)
		}
		if errors.Is(err, io.EOF) {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Write replaces the file's contents, creating it and its folder as needed.
func (d DirFiles) Write(name string, data []byte) error {
	return d.writeFile(name, os.O_TRUNC, data)
}

// Append adds data at the end of the file, creating it and its folder as needed.
func (d DirFiles) Append(name string, data []byte) error {
	return d.writeFile(name, os.O_APPEND, data)
}

func (d DirFiles) writeFile(name string, mode int, data []byte) error {
	p := d.path(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := openRegular(p, os.O_WRONLY|os.O_CREATE|mode, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return errors.Join(err, f.Close())
}

// Exists reports whether the file exists.
func (d DirFiles) Exists(name string) (bool, error) {
	_, err := os.Stat(d.path(name))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// openRegular opens the regular file p, and refuses anything else without
// blocking on it: the open itself does not wait for a FIFO's other end
// (openNonBlocking), and what it opened is checked before any read.
func openRegular(p string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := openNonBlocking(p, flag, perm)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file (%s): refused", p, fileKind(fi.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}
