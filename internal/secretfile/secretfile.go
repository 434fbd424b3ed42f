// Package secretfile reads the files that hold credentials (a Google
// credentials file, the token a CI runner or a cluster writes for a
// workload), bounded. os.Open on a FIFO blocks until a writer comes, a device
// such as /dev/zero never ends, and a file on a hung network file system
// never answers: any of them, given as a credentials file, would hang a plan
// that no request timeout bounds. So a file is read only when it is a
// regular file, at most MaxFileBytes long, and within a time limit; errors
// name the path (the path exists by then, so it is a path and not a secret
// given in the wrong place) and never the content.
package secretfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// MaxFileBytes bounds a credentials file and a token file: Google's are a
// few KiB, a workload's token a few, and x/oauth2 reads at most 1 MiB of a
// subject token.
const MaxFileBytes = 1 << 20

// Read reads the file at path, which must be a regular file of at most
// MaxFileBytes, within timeout (none when zero).
func Read(path string, timeout time.Duration) ([]byte, error) {
	if err := Check(path); err != nil {
		return nil, err
	}
	type result struct {
		content []byte
		err     error
	}
	done := make(chan result, 1)
	read := readFile
	go func() { // left to end on its own when the timeout passes: a read cannot be cancelled
		content, err := read(path)
		done <- result{content, err}
	}()
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	select {
	case r := <-done:
		return r.content, r.err
	case <-expired:
		return nil, fmt.Errorf("reading %s took longer than %s: is it on a file system that does not answer?", path, timeout)
	}
}

// Check refuses what is not a regular file of at most MaxFileBytes. An
// error that the file cannot be found does not name the path.
func Check(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return WithoutPath(err)
	}
	return checkInfo(path, fi)
}

func checkInfo(path string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is %s, not a regular file: give the path of a file (a named pipe or a device would "+
			"hang the plan or never end)", path, kindOf(fi.Mode()))
	}
	if fi.Size() > MaxFileBytes {
		return fmt.Errorf("%s is %d bytes, over the %d KiB a credentials file may be", path, fi.Size(), MaxFileBytes>>10)
	}
	return nil
}

func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// readFile reads a file Check accepted: readRegular, which a test replaces
// with a read that does not answer (as a hung network file system would not).
var readFile = readRegular

// readRegular opens path without blocking (a FIFO put in the file's place
// after Check would otherwise block the open) and reads it if it is still
// a regular file, at most MaxFileBytes of it.
func readRegular(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0) //nolint:gosec // the file the configuration names, read by design
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read: %w", path, WithoutPath(err))
	}
	defer f.Close() //nolint:errcheck // read-only
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read: %w", path, WithoutPath(err))
	}
	if err := checkInfo(path, fi); err != nil {
		return nil, err
	}
	content, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s cannot be read: %w", path, WithoutPath(err))
	case len(content) > MaxFileBytes:
		return nil, fmt.Errorf("%s is over the %d KiB a credentials file may be", path, MaxFileBytes>>10)
	}
	return content, nil
}

// WithoutPath is a file error without the path it names: "no such file or
// directory".
func WithoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
