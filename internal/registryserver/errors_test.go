package registryserver

import (
	"fmt"
	"testing"
)

// An API error reads as its status and its message wherever it is printed
// as an error (a log line, an error that wraps it).
func TestAPIErrorText(t *testing.T) {
	err := fmt.Errorf("loading: %w", errNotFound("Service %q was not found.", "s"))
	if got, want := err.Error(), `loading: NOT_FOUND: Service "s" was not found.`; got != want {
		t.Errorf("error text %q, want %q", got, want)
	}
}
