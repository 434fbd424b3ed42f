package termsafe

import "testing"

// Escape shows what Text and Line would remove, so that a reviewer sees that
// a name holds it; nothing that drives a terminal or reorders text is left.
func TestEscapeShowsInvisibleCharacters(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "get_forecast", "get_forecast"},
		{"graphic unicode", "prévision 日本 😀", "prévision 日本 😀"},
		{"OSC window title", "\x1b]0;pwned\x07x", `\u001b]0;pwned\u0007x`},
		{"clear screen", "\x1b[2J", `\u001b[2J`},
		{"newline, tab, carriage return", "a\nb\tc\rd", `a\u000ab\u0009c\u000dd`},
		{"C1 CSI and DEL", "a\u009b2J\x7f", `a\u009b2J\u007f`},
		{"right-to-left override", "tool\u202egnp.exe", `tool\u202egnp.exe`},
		{"isolate and zero width", "a\u2066b\u200bc", `a\u2066b\u200bc`},
		{"line separator", "a\u2028b", `a\u2028b`},
		{"tag character beyond U+FFFF", "a\U000E0041", `a\udb40\udc41`},
		{"invalid UTF-8", "a\xffb", "a\uFFFDb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Escape(tc.in); got != tc.want {
				t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := Escape(Escape(tc.in)); got != tc.want {
				t.Errorf("Escape is not idempotent on %q: %q", tc.in, got)
			}
		})
	}
}
