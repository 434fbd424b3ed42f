package spec

// Edges the mutation run (make mutation) found untested.

import "testing"

func TestIsProtocolVersion(t *testing.T) {
	for _, tt := range []struct {
		v    string
		want bool
	}{
		{"0.3", true},
		{"0.3.0", true},
		{"0.3.12", true},
		{"0.3.9", true},
		{"0.3.0-rc1", true},
		{"0.3.1+build.5", true},
		{"0.3.", false},
		{"0.3.x", false},
		{"0.3.0x", false},
		{"0.3.0.1", false},
		{"0.30", false},
		{"0.3-rc1", false},
		{"0.2.0", false},
		{"", false},
	} {
		if got := isProtocolVersion(tt.v, "0.3"); got != tt.want {
			t.Errorf("isProtocolVersion(%q, 0.3) = %v, want %v", tt.v, got, tt.want)
		}
	}
}
