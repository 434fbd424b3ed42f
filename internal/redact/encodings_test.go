package redact

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// How peers echo a value, each written as the library that does it writes
// it: the probe's encodings, and those Blank found before.
var peerEncodings = map[string]func(string) string{
	"as is":                         func(v string) string { return v },
	"base64 standard":               func(v string) string { return base64.StdEncoding.EncodeToString([]byte(v)) },
	"base64 URL, no padding":        func(v string) string { return base64.RawURLEncoding.EncodeToString([]byte(v)) },
	"JSON, PHP (\\/)":               phpJSON,
	"JSON, .NET (\\u002B)":          func(v string) string { return dotNetJSON(v, "%04X") },
	"JSON, .NET lower hex":          func(v string) string { return dotNetJSON(v, "%04x") },
	"JSON, every character \\u":     func(v string) string { return allUnicodeEscapes(v, "%04x") },
	"JSON, every character \\U":     func(v string) string { return allUnicodeEscapes(v, "%04X") },
	"every byte %XX":                func(v string) string { return everyBytePercent(v, "%%%02X") },
	"every byte %xx":                func(v string) string { return everyBytePercent(v, "%%%02x") },
	"Python urllib.parse.quote":     func(v string) string { return percentExcept(v, "_.-~/") },
	"JavaScript encodeURIComponent": func(v string) string { return percentExcept(v, "-_.!~*'()") },
	"Go url.QueryEscape":            url.QueryEscape,
	"Go url.PathEscape":             url.PathEscape,
	"hex":                           func(v string) string { return hex.EncodeToString([]byte(v)) },
	"HEX":                           func(v string) string { return strings.ToUpper(hex.EncodeToString([]byte(v))) },
}

// Where a value comes back: the JSON-RPC error of a stdio MCP server given
// it in env, as the live data source quotes it (message and data), and the
// error body of a token endpoint sent it as a client secret.
var echoes = map[string]func(string) string{
	"JSON-RPC error of a stdio server": func(enc string) string {
		return `initialize with JSON-RPC error -32001: bad token ` + enc + ` (data: {"seen":"` + enc + `"})`
	},
	"token endpoint's error": func(enc string) string {
		return `oauth2: cannot fetch token: 401 Unauthorized` + "\n" +
			`Response: {"error":"invalid_client","request":"grant_type=client_credentials&client_secret=` + enc + `&scope=a"}`
	},
}

// Every encoding of a value, in every place a peer echoes it, is blanked,
// and no 8 bytes of the value (nor of its encoding) survive.
func TestBlankFindsEveryPeerEncoding(t *testing.T) {
	const value = "tok_3Fz9+/Qa=b&c d<e>\"x'é😀" // every character class an encoder treats apart
	s := secrets(value)
	for where, echo := range echoes {
		for name, encode := range peerEncodings {
			t.Run(where+"/"+name, func(t *testing.T) {
				enc := encode(value)
				got := s.Blank(echo(enc))
				if !strings.Contains(got, "(a value of env)") {
					t.Fatalf("nothing blanked:\n%s", got)
				}
				for _, part := range []string{value[:8], value[8:16], enc[:min(len(enc), 12)], enc[len(enc)/2 : len(enc)/2+12]} {
					if strings.Contains(got, part) {
						t.Errorf("keeps %q:\n%s", part, got)
					}
				}
			})
		}
	}
}

// The text around an encoded value stays as it was: what decodes is only
// searched, never written back.
func TestBlankKeepsTheTextAroundAnEncodedValue(t *testing.T) {
	const value = "sk-live-0123456789"
	s := secrets(value)
	for text, want := range map[string]string{
		`{"a\/b":"` + phpJSON(value) + `","n":"\u00e9"}`:    `{"a\/b":"(a value of env)","n":"\u00e9"}`,
		"id=deadbeef " + hex.EncodeToString([]byte(value)):  "id=deadbeef (a value of env)",
		"key 00" + hex.EncodeToString([]byte(value)) + "ff": "key 00(a value of env)ff",
		"key 0" + hex.EncodeToString([]byte(value)) + "f":   "key 0(a value of env)f",
		"100%25 of " + everyBytePercent(value, "%%%02X"):    "100%25 of (a value of env)",
		"a PEM line\\n" + allUnicodeEscapes(value, "%04x"):  "a PEM line\\n(a value of env)",
	} {
		if got := s.Blank(text); got != want {
			t.Errorf("Blank(%q)\n = %q\nwant %q", text, got, want)
		}
	}
}

// A value cut at an end of an excerpt is blanked in its encodings too.
func TestBlankFragmentsOfEncodedValues(t *testing.T) {
	const value = "sk-live-0123456789abcdef"
	s := secrets(value)
	for text, want := range map[string]string{
		hex.EncodeToString([]byte(value))[20:] + " stopped":        "(a value of env) stopped",
		"body: " + everyBytePercent(value, "%%%02x")[:3*9]:         "body: (a value of env)",
		"body: " + allUnicodeEscapes(value, "%04X")[:6*9] + `\u00`: "body: (a value of env)" + `\u00`,
	} {
		if got := s.Blank(text); got != want {
			t.Errorf("Blank(%q)\n = %q\nwant %q", text, got, want)
		}
	}
}

// Text that holds no secret comes back unchanged, however much of it looks
// encoded: hex digests, percent-encoded URLs, JSON escapes.
func TestBlankLeavesOrdinaryTextAlone(t *testing.T) {
	s := secrets("sk-live-0123456789abcdef", "another secret value", "pa$$ w0rd/+=")
	for _, text := range []string{
		"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"GET /v1/projects/p/locations/global/agents?filter=name%3D%22x%22&pageToken=ab%2Fcd",
		`{"message":"caf\u00e9 \/ \"quoted\" \ud83d\ude00 \\ done","trace":"0123456789abcdefABCDEF"}`,
		"deadbeefcafebabe 1733480000 %zz %4 \\x \\u12 \\uZZZZ \\",
		strings.Repeat("a line of a server's stderr, nothing secret in it\n", 40),
	} {
		if got := s.Blank(text); got != text {
			t.Errorf("Blank(%q) = %q", text, got)
		}
	}
}

func phpJSON(v string) string {
	// json_encode: "/" as "\/", non-ASCII as \uXXXX (lower hex).
	var b strings.Builder
	for _, r := range v {
		switch {
		case r == '/' || r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r >= utf8.RuneSelf:
			b.WriteString(allUnicodeEscapes(string(r), "%04x"))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// dotNetJSON writes v as System.Text.Json's default encoder does: HTML
// characters, "+", "'" and non-ASCII as \uXXXX, in the given case.
func dotNetJSON(v, digits string) string {
	var b strings.Builder
	for _, r := range v {
		if strings.ContainsRune(`<>&'+"\`, r) || r >= utf8.RuneSelf {
			b.WriteString(allUnicodeEscapes(string(r), digits))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// allUnicodeEscapes writes every character of v as \uXXXX in the given
// case, one beyond U+FFFF as its UTF-16 surrogate pair, as JSON does.
func allUnicodeEscapes(v, digits string) string {
	var b strings.Builder
	for _, u := range utf16.Encode([]rune(v)) {
		fmt.Fprintf(&b, `\u`+digits, u)
	}
	return b.String()
}

func everyBytePercent(v, format string) string {
	var b strings.Builder
	for i := range len(v) {
		fmt.Fprintf(&b, format, v[i])
	}
	return b.String()
}

// percentExcept percent-encodes (upper hex) every byte but ASCII letters,
// digits and safe.
func percentExcept(v, safe string) string {
	var b strings.Builder
	for i := range len(v) {
		c := v[i]
		if c < utf8.RuneSelf && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(safe, c) >= 0) {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
