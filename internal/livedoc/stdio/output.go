package stdio

import (
	"errors"
	"fmt"
	"os"
	"sync"
)

// ErrTooLarge ends the reading of stdout past a bound.
var ErrTooLarge = errors.New("the MCP server wrote over the size limit")

// boundedStdout is the read end of a server's stdout. It fails a read past
// MaxStdoutBytes in all, or past maxLine within one line (one message of the
// stdio transport), and remembers which, so that the error says so rather
// than the SDK's decoding error.
type boundedStdout struct {
	f       *os.File
	maxLine int
	mu      sync.Mutex
	total   int
	line    int
	over    string
}

func (b *boundedStdout) Read(p []byte) (int, error) {
	n, err := b.f.Read(p)
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, c := range p[:n] {
		b.total++
		b.line++
		if c == '\n' {
			b.line = 0
		}
		switch {
		case b.total > MaxStdoutBytes:
			b.over = fmt.Sprintf("more than %d bytes (32 MiB)", MaxStdoutBytes)
		case b.line > b.maxLine:
			b.over = fmt.Sprintf("a message of more than %d bytes (%d MiB)", b.maxLine, b.maxLine>>20)
		default:
			continue
		}
		return i, ErrTooLarge
	}
	return n, err
}

// Close closes the read end, which ends a Read blocked on it.
func (b *boundedStdout) Close() error { return b.f.Close() }

func (b *boundedStdout) overLimit() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.over
}

// tailBuffer keeps the last StderrTailBytes written to it: what a failing
// server said last is what explains its failure, and a chatty one must not
// cost memory.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(p) >= StderrTailBytes {
		t.buf = append(t.buf[:0], p[len(p)-StderrTailBytes:]...)
		return len(p), nil
	}
	if drop := len(t.buf) + len(p) - StderrTailBytes; drop > 0 {
		t.buf = append(t.buf[:0], t.buf[drop:]...)
	}
	t.buf = append(t.buf, p...)
	return len(p), nil
}

// String is the tail as kept, raw: it is blanked of secrets and made safe
// for a terminal (termsafe) where it is quoted.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
