package googlecreds

// Reading the files credentials name, bounded. os.Open on a FIFO blocks until
// a writer comes, a device such as /dev/zero never ends, and a file on a hung
// network file system never answers: given as `credentials`, as the file
// Application Default Credentials read, or as an external_account's
// credential_source.file, any of them would hang a plan that request_timeout
// does not bound. So a file is read only when it is a regular file, at most
// MaxFileBytes long, and within a time limit; errors name the path (the path
// exists by then, so it is a path and not a secret given in the wrong place).

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// MaxFileBytes bounds a credentials file and a subject token file: Google's
// are a few KiB, and x/oauth2 reads at most 1 MiB of a subject token.
const MaxFileBytes = 1 << 20

// Read is the content of a `credentials` value: the value itself when it is
// JSON (it starts with "{"), else the file it names ("~/" is the home
// folder), read as ReadFile reads it; either must be a credentials file
// (Check). Errors never quote the value or the file's content, either of
// which may be a secret, and name the path only once it is known to exist.
func Read(value string, timeout time.Duration) ([]byte, error) {
	content := []byte(strings.TrimSpace(value))
	if len(content) > 0 && content[0] == '{' {
		return content, Check(content)
	}
	name := strings.TrimSpace(value)
	if rest, ok := strings.CutPrefix(name, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			name = filepath.Join(home, rest)
		}
	}
	if _, err := os.Stat(name); err != nil {
		return nil, fmt.Errorf("it is neither JSON content (it does not start with \"{\") nor the path of a file "+
			"that can be read (%v)", withoutPath(err))
	}
	content, err := ReadFile(name, timeout)
	if err == nil {
		err = Check(content)
	}
	if err != nil {
		return nil, fmt.Errorf("the file it names: %w", err)
	}
	return content, nil
}

// ReadFile reads the file at path, which must be a regular file of at most
// MaxFileBytes, within timeout (none when zero).
func ReadFile(path string, timeout time.Duration) ([]byte, error) {
	if err := CheckFile(path); err != nil {
		return nil, err
	}
	type result struct {
		content []byte
		err     error
	}
	done := make(chan result, 1)
	go func() { // left to end on its own when the timeout passes: a read cannot be cancelled
		content, err := readRegular(path)
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
		return nil, fmt.Errorf("reading %s took longer than %s (the provider's request_timeout): is it on a file system "+
			"that does not answer?", path, timeout)
	}
}

// CheckFile refuses what is not a regular file of at most MaxFileBytes. An
// error that the file cannot be found does not name the path.
func CheckFile(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return withoutPath(err)
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

// readRegular opens path without blocking (a FIFO put in the file's place
// after CheckFile would otherwise block the open) and reads it if it is still
// a regular file, at most MaxFileBytes of it.
func readRegular(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0) //nolint:gosec // the file the configuration names, read by design
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read: %w", path, withoutPath(err))
	}
	defer f.Close() //nolint:errcheck // read-only
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read: %w", path, withoutPath(err))
	}
	if err := checkInfo(path, fi); err != nil {
		return nil, err
	}
	content, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s cannot be read: %w", path, withoutPath(err))
	case len(content) > MaxFileBytes:
		return nil, fmt.Errorf("%s is over the %d KiB a credentials file may be", path, MaxFileBytes>>10)
	}
	return content, nil
}

// withoutPath is a file error without the path it names: "no such file or
// directory".
func withoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// CheckSources checks the files an external_account credentials file tells
// x/oauth2 to read (credential_source.file, the CI's token), as CheckFile
// does. x/oauth2 opens that file itself at every token refresh, with os.Open,
// which blocks on a FIFO: checking it here, before the file is handed over,
// turns the hang into an error. (Supplying the token through the library's
// SubjectTokenSupplier instead would mean building the external account
// configuration by hand from the file, which the library does and we should
// not redo.) Content of another type has nothing to check.
func CheckSources(content []byte) error {
	var f struct {
		Type   string `json:"type"`
		Source struct {
			File string `json:"file"`
		} `json:"credential_source"`
	}
	_ = json.Unmarshal(content, &f) // content that is not JSON names no file
	if f.Type != "external_account" || f.Source.File == "" {
		return nil
	}
	path := f.Source.File
	fi, err := os.Stat(path)
	if err == nil {
		err = checkInfo(path, fi)
	} else {
		err = fmt.Errorf("%s cannot be read: %w", path, withoutPath(err)) // a path in a file, not a secret
	}
	if err != nil {
		return fmt.Errorf("its credential_source.file (the token the workload identity pool exchanges): %w", err)
	}
	return nil
}
