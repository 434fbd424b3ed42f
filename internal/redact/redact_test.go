package redact

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

const token = "tok_3Fz9+/Qa=b&c d<e>\"x" // every character class an encoding changes

func secrets(values ...string) *Secrets {
	var s Secrets
	for _, v := range values {
		s.Add("a value of env", v)
	}
	return &s
}

func TestBlankFindsEverySpelling(t *testing.T) {
	basic := base64.StdEncoding.EncodeToString([]byte("admin:" + token))
	for name, text := range map[string]string{
		"as is":                        "token tried: " + token + " (refused)",
		"wrapped over two lines":       "token tried: " + token[:7] + "\n" + token[7:] + " (refused)",
		"wrapped and indented":         "token tried: " + token[:5] + "\r\n\t   " + token[5:12] + "\n  " + token[12:],
		"base64 standard":              "enc " + base64.StdEncoding.EncodeToString([]byte(token)) + " end",
		"base64 standard, no padding":  "enc " + base64.RawStdEncoding.EncodeToString([]byte(token)) + " end",
		"base64 URL":                   "enc " + base64.URLEncoding.EncodeToString([]byte(token)) + " end",
		"base64 URL, no padding":       "enc " + base64.RawURLEncoding.EncodeToString([]byte(token)) + " end",
		"base64 inside Basic auth":     "Authorization: Basic " + basic + " refused",
		"base64 wrapped at 16 columns": "enc " + wrap(base64.StdEncoding.EncodeToString([]byte(token)), 16) + " end",
		"query escaped":                "GET /cb?t=" + url.QueryEscape(token) + "&x=1",
		"path escaped":                 "GET /keys/" + url.PathEscape(token) + "/x",
		"query escaped, lower hex":     "GET /cb?t=" + lowerHex.ReplaceAllStringFunc(url.QueryEscape(token), strings.ToLower) + "&x=1",
		"JSON string":                  `{"error":"bad token ` + jsonString(token) + `"}`,
		"twice":                        token + " and " + token,
	} {
		t.Run(name, func(t *testing.T) {
			got := secrets(token).Blank(text)
			if !strings.Contains(got, "(a value of env)") {
				t.Errorf("Blank(%q) = %q: nothing blanked", text, got)
			}
			for _, part := range []string{token, token[:8], token[len(token)-8:], "3Fz9+/Qa"} {
				if strings.Contains(got, part) {
					t.Errorf("Blank(%q) = %q keeps %q", text, got, part)
				}
			}
		})
	}
}

func TestBlankLeavesTheRestOfTheText(t *testing.T) {
	got := secrets(token).Blank("fatal: bad token " + token + "\nnext line")
	if want := "fatal: bad token (a value of env)\nnext line"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// An encoded form inside a longer base64 text: the characters that encode
	// the value go, those of its neighbours stay.
	basic := base64.StdEncoding.EncodeToString([]byte("admin:" + token))
	got = secrets(token).Blank("Basic " + basic)
	if !strings.HasPrefix(got, "Basic YWRtaW46") || !strings.Contains(got, "(a value of env)") {
		t.Errorf("got %q", got)
	}
}

// A quoted excerpt cut inside a value: its end at the start of the text (the
// tail of stderr), its start at the end (the start of a body).
func TestBlankFragmentsCutAtTheEnds(t *testing.T) {
	value := "sk-live-0123456789abcdef"
	s := secrets(value)
	for text, want := range map[string]string{
		value[10:] + "\nserver stopped":         "(a value of env)\nserver stopped",
		"body starts: token=" + value[:9]:       "body starts: token=(a value of env)",
		value[20:] + " fits":                    "(a value of env) fits", // 4 bytes: MinFragment
		value[21:] + " too short to say":        value[21:] + " too short to say",
		"ends with " + value[:3]:                "ends with " + value[:3],
		"not at an end: " + value[5:15] + " ok": "not at an end: " + value[5:15] + " ok",
	} {
		if got := s.Blank(text); got != want {
			t.Errorf("Blank(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestShortValuesAreNotBlanked(t *testing.T) {
	s := secrets("true", "12345", "  \n ", "")
	text := "true 12345 ok"
	if got := s.Blank(text); got != text {
		t.Errorf("values under %d bytes blanked: %q", MinLength, got)
	}
	if len(s.Strings()) != 0 {
		t.Errorf("registered %q", s.Strings())
	}
	if got := secrets("123456").Blank("pin 123456"); got != "pin (a value of env)" {
		t.Errorf("a value of exactly %d bytes: %q", MinLength, got)
	}
}

// A value containing another is blanked whole, whichever was added first.
func TestBlankOverlappingValues(t *testing.T) {
	var s Secrets
	s.Add("a value of env", "secret-part")
	s.Add("a value of headers", "Bearer secret-part-and-more")
	got := s.Blank("sent Bearer secret-part-and-more, then secret-part")
	if want := "sent (a value of headers), then (a value of env)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestNilAndEmptySecrets(t *testing.T) {
	var nilSet *Secrets
	if nilSet.Blank("x") != "x" || nilSet.Strings() != nil || (&Secrets{}).Blank("y") != "y" {
		t.Error("an empty set changed the text")
	}
	err := errors.New("plain")
	if secrets(token).Error(err) != err || secrets(token).Error(nil) != nil {
		t.Error("Error replaced an error with nothing to blank")
	}
	got := secrets(token).Error(fmt.Errorf("wrapped: %w", errors.New(token)))
	if got.Error() != "wrapped: (a value of env)" || errors.Unwrap(got) != nil {
		t.Errorf("Error = %q (unwraps to %v)", got, errors.Unwrap(got))
	}
}

// Whatever surrounds it, however it is encoded (as is, base64, a query
// escape, inside a longer base64 text, hex, JSON escapes) or wrapped, it is
// blanked, and no 8 consecutive bytes of a value shown as is survive.
func FuzzBlankHidesTheValue(f *testing.F) {
	f.Add("prefix ", "sk-0123456789", " suffix", uint8(3), uint8(0))
	f.Add("", "pa$$ w0rd/+=", "\n", uint8(200), uint8(2))
	f.Fuzz(func(t *testing.T, before, value, after string, wrapAt, encoding uint8) {
		if len(value) < 16 || strings.ContainsAny(value+before+after, "\r\n\t ") ||
			strings.ContainsAny(before[max(0, len(before)-5):], `%\`) {
			return // a "%" or a backslash just before a value starts an escape with its first bytes
		}
		shown := value
		switch encoding % 6 {
		case 4:
			shown = hex.EncodeToString([]byte(value))
		case 5:
			if !utf8.ValidString(value) {
				return // JSON escapes characters, not bytes
			}
			shown = allUnicodeEscapes(value, "%04X")
		case 1:
			shown = base64.StdEncoding.EncodeToString([]byte(value))
		case 2:
			shown = url.QueryEscape(value)
		case 3:
			shown = base64.RawURLEncoding.EncodeToString([]byte(before + value + after))
		}
		if w := int(wrapAt); w > 0 {
			shown = wrap(shown, w)
		}
		got := secrets(value).Blank(before + shown + after)
		if encoding%6 == 0 && strings.Contains(got, value[:8]) && !strings.Contains(before+after, value[:8]) {
			t.Fatalf("Blank kept %q of %q: %q", value[:8], value, got)
		}
		if !strings.Contains(got, "(a value of env)") {
			t.Fatalf("Blank(%q) blanked nothing of %q", before+shown+after, value)
		}
	})
}

// The cost of Blank on what it is given most: the last 2 KiB of a server's
// stderr (plain text) and a peer's JSON error body of the same size, full
// of escapes, percent-encoded URLs and hex ids (every view is built), with
// ten secrets registered and none of them in the text.
func BenchmarkBlankStderrTail(b *testing.B) {
	benchmarkBlank(b, strings.Repeat("a line of a server's stderr, nothing secret in it\n", 50)[:2048])
}

func BenchmarkBlankJSONErrorBody(b *testing.B) {
	line := `{"error":{"message":"caf\u00e9 \/ \"x\" at https://h/cb?t=ab%2Fcd%3D","trace":"0123456789abcdef0123456789abcdef"}}` + "\n"
	benchmarkBlank(b, strings.Repeat(line, 20)[:2048])
}

// benchmarkBlank reports, beside ns/op, its ratio to a baseline measured in
// the same run: a plain search of the text for each registered value, the
// least any blanking costs ("x-plain-search").
func benchmarkBlank(b *testing.B, text string) {
	var s Secrets
	var values []string
	for i := range 10 {
		v := fmt.Sprintf("secret-value-%02d-%s", i, strings.Repeat("x", 40))
		s.Add("a value of env", v)
		values = append(values, v)
	}
	const baselineRuns = 2000
	began := time.Now()
	for range baselineRuns {
		for _, v := range values {
			if strings.Contains(text, v) {
				b.Fatal("the text holds a value")
			}
		}
	}
	baseline := float64(time.Since(began).Nanoseconds()) / baselineRuns
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if s.Blank(text) != text {
			b.Fatal("blanked ordinary text")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/baseline, "x-plain-search")
}

func wrap(s string, width int) string {
	var b strings.Builder
	for len(s) > width {
		b.WriteString(s[:width] + "\n")
		s = s[width:]
	}
	b.WriteString(s)
	return b.String()
}

func jsonString(s string) string {
	r := strings.NewReplacer(`"`, `\"`, `<`, `\u003c`, `>`, `\u003e`, `&`, `\u0026`)
	return r.Replace(s)
}
