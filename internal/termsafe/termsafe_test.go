package termsafe

import (
	"testing"
	"unicode"
)

// Text strips control characters and whole escape sequences (keeping
// newlines and tabs), Line also turns newlines and tabs into spaces, and
// what Text returns needs no more cleaning.
func TestTextStripsControlsAndEscapeSequences(t *testing.T) {
	for _, tc := range []struct{ name, in, text, line string }{
		{"plain", "billing agent", "billing agent", "billing agent"},
		{"unicode", "agent ü 日本", "agent ü 日本", "agent ü 日本"},
		{"newline and tab", "a\nb\tc", "a\nb\tc", "a b c"},
		{"clear screen", "x\x1b[2J\x1b[Hy", "xy", "xy"},
		{"window title OSC BEL", "\x1b]0;pwned\x07name", "name", "name"},
		{"window title OSC ST", "\x1b]2;pwned\x1b\\name", "name", "name"},
		{"colour then fake apply", "\x1b[32mApply complete!\x1b[0m", "Apply complete!", "Apply complete!"},
		{"carriage return overwrite", "error\rApply complete!", "errorApply complete!", "errorApply complete!"},
		{"reset", "a\x1bcb", "ab", "ab"},
		{"C1 CSI", "a\u009b2Jb", "ab", "ab"},
		{"C1 OSC", "a\u009d0;t\u009cb", "ab", "ab"},
		{"other C1 and DEL", "a\u0085b\x7fc\x00d", "abcd", "abcd"},
		{"bell and backspace", "a\x07\x08b", "ab", "ab"},
		{"unterminated OSC stops at newline", "\x1b]0;t\nnext", "\nnext", " next"},
		{"lone ESC at end", "abc\x1b", "abc", "abc"},
		{"invalid UTF-8", "a\xffb", "a\uFFFDb", "a\uFFFDb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Text(tc.in); got != tc.text {
				t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.text)
			}
			if got := Line(tc.in); got != tc.line {
				t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.line)
			}
			if again := Text(Text(tc.in)); again != Text(tc.in) {
				t.Errorf("Text(Text(%q)) = %q: what Text returns needs no more cleaning", tc.in, again)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	if got := Truncate("abcdef", 3); got != "abc..." {
		t.Errorf("Truncate = %q", got)
	}
	if got := Truncate("日本語", 3); got != "日本語" {
		t.Errorf("Truncate = %q", got)
	}
}

func FuzzTextIsClean(f *testing.F) {
	f.Add("x\x1b[2J\x1b]0;t\x07\u009b1m")
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		for _, r := range out {
			if isControl(r) && r != '\n' && r != '\t' {
				t.Fatalf("Text(%q) = %q keeps control %U", s, out, r)
			}
		}
		for _, r := range Line(s) {
			if isControl(r) {
				t.Fatalf("Line(%q) keeps control %U", s, r)
			}
		}
	})
}

// HasControl finds exactly the characters of Unicode's Cc category, and
// nothing else, wherever they stand.
func TestHasControlIsUnicodesControlCategory(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue // surrogates are not characters of a Go string
		}
		want := unicode.Is(unicode.Cc, r)
		if got := HasControl("name" + string(r) + "end"); got != want {
			t.Fatalf("HasControl with U+%04X = %t, want %t", r, got, want)
		}
	}
	if HasControl("") || HasControl("plain name/with ü") {
		t.Error("HasControl found a control character in text without one")
	}
}
