package secretfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A file is read when it is a regular file within the size cap; a named
// pipe (which would block the open), a device (which never ends), a
// directory or a file over the cap are refused at once, naming the path; a
// path that does not exist is not named (it may be a secret given in the
// wrong place).
func TestRead(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "key.json")
	if err := os.WriteFile(ok, []byte(`{"type":"service_account"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := Read(ok, time.Minute); err != nil || string(got) != `{"type":"service_account"}` {
		t.Fatalf("Read = %q, %v", got, err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, MaxFileBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	for path, want := range map[string]string{
		fifo:                                 fifo + " is a named pipe (FIFO), not a regular file",
		"/dev/zero":                          "/dev/zero is a device, not a regular file",
		dir:                                  dir + " is a directory, not a regular file",
		big:                                  big + " is 1048577 bytes, over the 1024 KiB",
		filepath.Join(dir, "sk-live-secret"): "no such file or directory",
	} {
		began := time.Now()
		_, err := Read(path, time.Minute)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Read(%s) = %v, want %q", path, err, want)
		}
		if strings.Contains(err.Error(), "sk-live-secret") {
			t.Errorf("the error names a path that does not exist: %v", err)
		}
		if d := time.Since(began); d > 5*time.Second {
			t.Errorf("Read(%s) took %s", path, d)
		}
	}
}

// A file of exactly MaxFileBytes is read whole; a read that does not answer
// ends at the timeout, naming the path; no timeout (zero) waits for the read.
func TestRead_boundsAndTimeout(t *testing.T) {
	exact := filepath.Join(t.TempDir(), "exact.json")
	if err := os.WriteFile(exact, []byte(strings.Repeat("x", MaxFileBytes)), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := Read(exact, 0); err != nil || len(got) != MaxFileBytes {
		t.Fatalf("Read of exactly MaxFileBytes = %d bytes, %v; want it whole", len(got), err)
	}
	release := make(chan struct{})
	readFile = func(path string) ([]byte, error) {
		<-release
		return readRegular(path)
	}
	t.Cleanup(func() { readFile = readRegular })
	_, err := Read(exact, 50*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "reading "+exact+" took longer than 50ms") {
		t.Errorf("a read that does not answer: %v, want the timeout naming the path", err)
	}
	go func() { time.Sleep(50 * time.Millisecond); close(release) }()
	if got, err := Read(exact, 0); err != nil || len(got) != MaxFileBytes {
		t.Errorf("without a timeout: %d bytes, %v; want the read waited for", len(got), err)
	}
}
