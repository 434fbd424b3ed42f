package redact

import (
	"encoding/base64"
	"encoding/hex"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// hexDigit knows the hex digits, of either case, and nothing else.
func TestHexDigit(t *testing.T) {
	for c := range 256 {
		want := byte(16)
		if v, err := strconv.ParseUint(string(rune(c)), 16, 8); err == nil && c < 128 {
			want = byte(v)
		}
		if got := hexDigit(byte(c)); got != want {
			t.Errorf("hexDigit(%q) = %d, want %d", rune(c), got, want)
		}
	}
}

// What a view of unescaped reads, and where each byte of it comes from.
func TestUnescaped(t *testing.T) {
	for text, want := range map[string]string{
		`a\"b\\c\/d\be\ff\tg`:                    "a\"b\\c/d\be\ff\tg",
		`\u0041\u00e9\u00E9`:                     "Aéé",
		`\uD83D\uDE00 \ud83d`:                    "😀 \ufffd", // a pair is one character; a lone surrogate is U+FFFD
		`\uD7FF\uDC00 \uDBFF\uDFFF \uD800\uE000`: "\ud7ff\ufffd \U0010FFFF \ufffd\ue000",
		`\uD800\uDC00 \uDC00\uDC00`:              "\U00010000 \ufffd\ufffd", // the first pair; two low halves are two
		`%41%6a%4A %4G %G4 % %4`:                 "AjJ %4G %G4 % ",          // a cut escape at the end is left out
		`x\u004`:                                 "x",
		`x\u0041`:                                "xA",
		`x\q \u12G4 \`:                           `x\q \u12G4 `,
		"one\\n  two\\r\\nthree%0A\tfour":        "onetwothreefour",
		"wrapped\n  \\u0041 %4\n1":               "wrappedA A",
	} {
		if got := unescaped(flatten(text)).text; got != want {
			t.Errorf("unescaped(%q) = %q, want %q", text, got, want)
		}
	}
	// Every byte of a decoded character maps to the whole escape.
	text := `ab\u00e9%41`
	v := unescaped(flatten(text))
	for i, want := range [][2]int{{0, 1}, {1, 2}, {2, 8}, {2, 8}, {8, 11}} {
		if from, to := v.toText(i, i+1); from != want[0] || to != want[1] {
			t.Errorf("byte %d of %q comes from [%d, %d), want %v", i, v.text, from, to, want)
		}
	}
}

// The runs of hex digits long enough to hold a fragment, and their views.
func TestHexViews(t *testing.T) {
	if got := hexRuns("abcdef12 abcdef1 0123456789ABCDEFg xyz deadbeefcafe"); len(got) != 3 ||
		got[0] != [2]int{0, 8} || got[1] != [2]int{17, 33} || got[2] != [2]int{39, 51} {
		t.Errorf("hexRuns = %v", got)
	}
	text := "x 41424344454 y 4647484950 z"
	runs := [][2]int{{2, 13}, {16, 26}}
	for skip, want := range []string{"ABCDE\x00FGHIP", "\x14\x24\x34\x44\x54\x00\x64\x74\x84\x95"} {
		v := unhexed(flatten(text), runs, skip)
		if v.text != want || !v.inside || !v.beforeEnd {
			t.Errorf("skip %d: %q inside %v beforeEnd %v", skip, v.text, v.inside, v.beforeEnd)
		}
		if from, to := v.toText(0, 5); from != 2+skip || to != 12+skip {
			t.Errorf("skip %d: the first run comes from [%d, %d)", skip, from, to)
		}
	}
	v := unhexed(flatten("414243444546"), [][2]int{{0, 12}}, 0)
	if v.inside || v.beforeEnd {
		t.Errorf("a run that is the whole text: inside %v beforeEnd %v", v.inside, v.beforeEnd)
	}
}

// A value in hex is found in a run of its own, between other runs, and cut at
// an odd digit at either end of the text (the half of a byte left there,
// four bits, stays).
func TestBlankHexAmongOtherRuns(t *testing.T) {
	const value = "sk-live-0123456789"
	h := hex.EncodeToString([]byte(value))
	s := secrets(value)
	for text, want := range map[string]string{
		"ids deadbeefcafe " + h + " 0123456789abcdef": "ids deadbeefcafe (a value of env) 0123456789abcdef",
		h[3:] + " stopped":                            h[3:4] + "(a value of env) stopped",
		"body: " + h[:15]:                             "body: (a value of env)" + h[14:15],
	} {
		if got := s.Blank(text); got != want {
			t.Errorf("Blank(%q) = %q, want %q", text, got, want)
		}
	}
}

// overlap is the longest suffix of a that is a prefix of b, as a quadratic
// search finds it, on strings made to have many partial matches.
func TestOverlap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = "ab\x00\xff"[r.IntN(2+r.IntN(3))]
		}
		return string(b)
	}
	for range 5000 {
		a, b := word(), word()
		want := 0
		for n := min(len(a), len(b)); n > 0; n-- {
			if a[len(a)-n:] == b[:n] {
				want = n
				break
			}
		}
		if got := overlap(a, b); got != want {
			t.Fatalf("overlap(%q, %q) = %d, want %d", a, b, got, want)
		}
	}
}

// Spans that overlap or touch become one, with the placeholder of the
// longest of those that start first; spans apart stay apart.
func TestMerged(t *testing.T) {
	got := merged([]span{{8, 10, "c"}, {0, 3, "a"}, {0, 5, "b"}, {5, 6, "d"}, {12, 13, "e"}, {2, 4, "f"}})
	want := []span{{0, 6, "b"}, {8, 10, "c"}, {12, 13, "e"}}
	if len(got) != len(want) {
		t.Fatalf("merged = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("merged = %v, want %v", got, want)
		}
	}
}

// A value inside a longer base64 text is found at each of the three
// positions it may start at, with each of the three lengths of text after
// it; the characters that encode its neighbours stay.
func TestBlankBase64InsideLongerText(t *testing.T) {
	const value = "sk-live-0123456789"
	s := secrets(value)
	for _, before := range []string{"", "u", "us", "use", "user"} {
		for _, after := range []string{"", "!", "!!", "!!!"} {
			for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawURLEncoding} {
				encoded := enc.EncodeToString([]byte(before + value + after))
				got := s.Blank("Basic " + encoded + " end")
				keep := encoded[:8*len(before)/6] // the characters that encode bits of before alone
				if !strings.Contains(got, "(a value of env)") || !strings.HasPrefix(got, "Basic "+keep) {
					t.Errorf("%q + value + %q: Blank(%q) = %q", before, after, encoded, got)
				}
			}
		}
	}
}

// Fragments of exactly MinFragment bytes at either end are blanked; a text
// of exactly MinFragment bytes that is one too; one byte less is not.
func TestBlankFragmentsOfExactlyMinFragment(t *testing.T) {
	const value = "sk-live-0123456789"
	s := secrets(value)
	for text, want := range map[string]string{
		value[len(value)-MinFragment:]:       "(a value of env)",
		value[len(value)-MinFragment+1:]:     value[len(value)-MinFragment+1:],
		"ends with " + value[:MinFragment]:   "ends with (a value of env)",
		"ends with " + value[:MinFragment-1]: "ends with " + value[:MinFragment-1],
	} {
		if got := s.Blank(text); got != want {
			t.Errorf("Blank(%q) = %q, want %q", text, got, want)
		}
	}
}

// A value wrapped over lines inside JSON ("\n" escapes and the indent
// after them), as a PEM key is quoted, is found whole.
func TestBlankValueWrappedInsideJSON(t *testing.T) {
	const value = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw"
	s := secrets(value)
	for _, text := range []string{
		`{"private_key":"` + value[:12] + `\n` + value[12:24] + `\n  ` + value[24:] + `"}`,
		`{"private_key":"` + value[:12] + `\r\n` + value[12:] + `"}`,
		"key=" + value[:12] + "%0A" + value[12:],
	} {
		if got := s.Blank(text); strings.Contains(got, value[10:18]) || !strings.Contains(got, "(a value of env)") {
			t.Errorf("Blank(%q) = %q", text, got)
		}
	}
}

// Two values side by side are one placeholder, the first one's.
func TestBlankValuesSideBySide(t *testing.T) {
	var s Secrets
	s.Add("a value of env", "first-secret")
	s.Add("a value of headers", "second-secret")
	if got := s.Blank("[first-secretsecond-secret]"); got != "[(a value of env)]" {
		t.Errorf("got %q", got)
	}
}
