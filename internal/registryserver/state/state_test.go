package state

import (
	"fmt"
	"strings"
	"testing"
)

// A logged value is whole up to maxLogged bytes; past it, its first
// maxLogged bytes cut back to a rune boundary, and its length. A value that
// is not UTF-8 at all is cut to nothing rather than past its start.
func TestClip(t *testing.T) {
	at := strings.Repeat("a", maxLogged)
	straddling := strings.Repeat("a", maxLogged-1) + "é" // é's second byte is byte maxLogged
	notUTF8 := strings.Repeat("\x80", maxLogged+10)
	for in, want := range map[string]string{
		at:         at,
		at + "b":   at + "... (257 bytes)",
		straddling: strings.Repeat("a", maxLogged-1) + "... (257 bytes)",
		notUTF8:    "... (266 bytes)",
	} {
		if got := Clip(in); got != want {
			t.Errorf("Clip of %d bytes = %.40q (%d bytes), want %.40q", len(in), got, len(got), want)
		}
	}
}

// An error reads as its code and its message wherever it is printed as an
// error (a log line, an error that wraps it).
func TestErrorText(t *testing.T) {
	err := fmt.Errorf("loading: %w", errNotFound("Service %q was not found.", "s"))
	if got, want := err.Error(), `loading: NOT_FOUND: Service "s" was not found.`; got != want {
		t.Errorf("error text %q, want %q", got, want)
	}
}
