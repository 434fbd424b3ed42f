package jsoncanon

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestEqual(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b string
		want bool
	}{
		{"identical", `{"a":1}`, `{"a":1}`, true},
		{"whitespace", `{"a": 1, "b": [1, 2]}`, "{\n  \"a\":1,\"b\":[1,2]\n}", true},
		{"key order", `{"a":1,"b":{"x":null,"y":true}}`, `{"b":{"y":true,"x":null},"a":1}`, true},
		{"1 and 1.0", `1`, `1.0`, true},
		{"1 and 1e0", `1`, `1e0`, true},
		{"1 and 10e-1", `1`, `10e-1`, true},
		{"1 and 0.1E+1", `1`, `0.1E+1`, true},
		{"100 and 1e2", `100`, `1e2`, true},
		{"trailing zeros", `1.50`, `1.5`, true},
		{"leading zeros in exponent", `1e007`, `10000000`, true},
		{"-0 and 0", `-0`, `0`, true},
		{"-0.0 and 0e5", `-0.0`, `0e5`, true},
		{"1 and -1", `1`, `-1`, false},
		{"1 and 1.0000000000000000001", `1`, `1.0000000000000000001`, false},
		{"0.1 and 0.10000000000000001 (the same double)", `0.1`, `0.10000000000000001`, false},
		{"2^53+1 and 2^53", `9007199254740993`, `9007199254740992`, false},
		{"2^53+1 spelt twice", `9007199254740993`, `9007199254740993.0`, true},
		{"the largest double spelt two ways", `1.7976931348623157e308`, `17976931348623157e292`, true},
		{"below the double range", `1e-400`, `0`, false},
		{"exponents beyond int64", `1e-1000000000000000000000`, `10e-1000000000000000000001`, true},
		{"exponents beyond int64 differ", `1e-1000000000000000000000`, `1e-1000000000000000000001`, false},
		{"escapes", `"\u00e9\/\ud83d\ude00"`, `"é/😀"`, true},
		{"upper-case hex escapes", `"\u00E9\uD83D\uDE00\u00Ff"`, `"é😀ÿ"`, true},
		{"different value", `{"a":1}`, `{"a":2}`, false},
		{"array order matters", `[1,2]`, `[2,1]`, false},
		{"missing key", `{"a":1,"b":2}`, `{"a":1}`, false},
		{"null member is not a missing one", `{"a":1}`, `{"a":1,"b":null}`, false},
		{"number vs string", `{"a":1}`, `{"a":"1"}`, false},
		{"empty array vs object", `[]`, `{}`, false},
		{"true vs 1", `true`, `1`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Equal([]byte(tc.a), []byte(tc.b))
			if err != nil || got != tc.want {
				t.Errorf("Equal(%s, %s) = %v, %v; want %v", tc.a, tc.b, got, err, tc.want)
			}
			if back, _ := Equal([]byte(tc.b), []byte(tc.a)); back != got {
				t.Error("Equal is not symmetric")
			}
		})
	}
}

// TestDecodeErrors: what encoding/json lets through silently is refused,
// with the kind, the offset and, where it helps, the pointer.
func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		doc     string
		kind    error
		offset  int
		pointer string
		msg     string
	}{
		{`{"a":{"b":1,"b":2}}`, ErrDuplicateKey, 12, "/a/b", `duplicate key "b"`},
		{`[{"x/y":1,"x/y":1}]`, ErrDuplicateKey, 10, "/0/x~1y", `duplicate key "x/y"`},
		{`{"é":1,"\u00e9":2}`, ErrDuplicateKey, 8, "/é", `duplicate key "é"`},
		{"[\"ab\xffc\"]", ErrInvalidUnicode, 4, "", "invalid UTF-8 byte 0xff"},
		{"{\"\xc3\":1}", ErrInvalidUnicode, 2, "", "invalid UTF-8 byte 0xc3"},
		{`["\ud83d"]`, ErrInvalidUnicode, 2, "", `unpaired surrogate \ud83d`},
		{`"\ude00\ud83d"`, ErrInvalidUnicode, 1, "", `unpaired surrogate \ude00`},
		{`"\ud83d\u0041"`, ErrInvalidUnicode, 1, "", `unpaired surrogate \ud83d`},
		{``, ErrSyntax, 0, "", "empty document"},
		{`{"a":1,}`, ErrSyntax, 7, "", "invalid character '}' looking for beginning of object key string"},
		{`[1 2]`, ErrSyntax, 3, "", "invalid character '2' after array element"},
		{`[[1],[2,{"a":1,"a":2}]]`, ErrDuplicateKey, 15, "/1/1/a", `duplicate key "a"`},
		{`"abc`, ErrSyntax, 4, "", "unexpected end of input"},
		{`"a\nb`, ErrSyntax, 5, "", "unexpected end of input"},
		{`"a\`, ErrSyntax, 3, "", "unexpected end of input"},
		{`"\u12`, ErrSyntax, 5, "", "unexpected end of input"},
		{`"\ud83d\`, ErrInvalidUnicode, 1, "", `unpaired surrogate \ud83d`},
		{`{"a":1} x`, ErrSyntax, 8, "", "unexpected data after the JSON value"},
		{`01`, ErrSyntax, 1, "", "unexpected data after the JSON value"},
		{`[1.]`, ErrSyntax, 3, "", "after decimal point in numeric literal"},
		{`{"a":`, ErrSyntax, 5, "", "unexpected end of input"},
		{"\"a\tb\"", ErrSyntax, 2, "", "in string literal"},
		{`"\x"`, ErrSyntax, 2, "", "in string escape code"},
		{`{"a":[1,-1e400]}`, ErrNumber, 8, "/a/1", "number -1e400 is beyond the range of an IEEE 754 double"},
		{`{"max":1.7976931348623159e308}`, ErrNumber, 7, "/max", "number 1.7976931348623159e308 is beyond"},
		{`[1e99999999999999999999999]`, ErrNumber, 1, "/0", "beyond the range"},
		{"[0," + "1" + strings.Repeat("0", 400) + "]", ErrNumber, 3, "/1", "number 1000000000000000000000000000000000000000… (401 characters) is beyond"},
		{strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), ErrDepth, MaxDepth, "/" + strings.TrimSuffix(strings.Repeat("0/", MaxDepth), "/"), "nested more than 10000 deep"},
	} {
		_, err := Decode([]byte(tc.doc))
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, tc.kind) || e.Offset != tc.offset || e.Pointer != tc.pointer || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("Decode(%.40q) = %v; want %v at byte %d, pointer %.20q, containing %q", tc.doc, err, tc.kind, tc.offset, tc.pointer, tc.msg)
		}
		if _, err := Equal([]byte(tc.doc), []byte(tc.doc)); !errors.Is(err, tc.kind) {
			t.Errorf("Equal(%.40q, itself) = %v, want %v", tc.doc, err, tc.kind)
		}
	}
}

func TestErrorText(t *testing.T) {
	for doc, want := range map[string]string{
		`{"a":{"b":1,"b":2}}`: `duplicate key "b": an object may name a key once (byte 12, at /a/b)`,
		`[1 2]`:               `invalid JSON: invalid character '2' after array element (byte 3)`,
		`x`:                   `invalid JSON: invalid character 'x' looking for beginning of value (byte 0)`,
	} {
		if _, err := Decode([]byte(doc)); err == nil || err.Error() != want {
			t.Errorf("Decode(%s): %v, want %s", doc, err, want)
		}
	}
	want := "number 1e400 is beyond the range of an IEEE 754 double (at most 1.7976931348623157e308 in magnitude): " +
		"I-JSON and RFC 8785 allow only numbers a double holds (byte 6, at /a/0)"
	if _, err := Canonical([]byte(`{"a":[1e400]}`)); err == nil || err.Error() != want {
		t.Errorf("Canonical(1e400): %v\nwant %s", err, want)
	}
}

// A number in a message is shown whole up to 40 characters.
func TestShortLiteral(t *testing.T) {
	forty := "-" + strings.Repeat("9", 35) + "e400"
	if got := shortLiteral(forty); got != forty {
		t.Errorf("40 characters: %s", got)
	}
	if got, want := shortLiteral(forty+"0"), forty+"… (41 characters)"; got != want {
		t.Errorf("41 characters: %s, want %s", got, want)
	}
}

// TestDepth: the deepest document accepted is MaxDepth deep; a million
// nested arrays is an error, not a stack overflow.
func TestDepth(t *testing.T) {
	deepest := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := Canonical([]byte(deepest)); err != nil {
		t.Fatalf("%d levels: %v", MaxDepth, err)
	}
	if _, err := Decode([]byte(strings.Repeat(`{"a":[`, 500_000))); !errors.Is(err, ErrDepth) {
		t.Fatalf("a million levels: %v", err)
	}
}

// TestCanonicalRFC8785 reproduces the examples of RFC 8785 §3.2.2 and §3.2.3.
func TestCanonicalRFC8785(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"3.2.2 primitive data types", `{
  "numbers": [333333333.33333329, 1E30, 4.50,
              2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`, `{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`},
		{"3.2.3 sorting by UTF-16 code units", `{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}`, "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"ö\":\"Latin Small Letter O With Diaeresis\",\"€\":\"Euro Sign\",\"😀\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Canonical([]byte(tc.in))
			if err != nil || string(got) != tc.want {
				t.Errorf("Canonical = %s, %v\nwant        %s", got, err, tc.want)
			}
		})
	}
}

// TestESNumbers checks the number form against RFC 8785 Appendix B (IEEE 754
// bit patterns and their JCS text).
func TestESNumbers(t *testing.T) {
	for _, tc := range []struct {
		bits uint64
		want string
	}{
		{0x0000000000000000, "0"},
		{0x8000000000000000, "0"},
		{0x0000000000000001, "5e-324"},
		{0x8000000000000001, "-5e-324"},
		{0x7fefffffffffffff, "1.7976931348623157e+308"},
		{0xffefffffffffffff, "-1.7976931348623157e+308"},
		{0x4340000000000000, "9007199254740992"},
		{0xc340000000000000, "-9007199254740992"},
		{0x4430000000000000, "295147905179352830000"},
		{0x44b52d02c7e14af5, "9.999999999999997e+22"},
		{0x44b52d02c7e14af6, "1e+23"},
		{0x444b1ae4d6e2ef4e, "999999999999999700000"},
		{0x444b1ae4d6e2ef4f, "999999999999999900000"},
		{0x444b1ae4d6e2ef50, "1e+21"},
		{0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"},
		{0x3eb0c6f7a0b5ed8d, "0.000001"},
		{0x41b3de4355555553, "333333333.3333332"},
		{0x41b3de4355555554, "333333333.33333325"},
		{0x41b3de4355555555, "333333333.3333333"},
		{0x41b3de4355555556, "333333333.3333334"},
		{0x41b3de4355555557, "333333333.33333343"},
		{0xbecbf647612f3696, "-0.0000033333333333333333"},
		{0x43143ff3c1cb0959, "1424953923781206.2"},
	} {
		if got := string(appendESFloat(nil, math.Float64frombits(tc.bits))); got != tc.want {
			t.Errorf("%#016x: got %s, want %s", tc.bits, got, tc.want)
		}
	}
}

func TestCanonicalNumbers(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`[1.0, 1e0, 10e-1, -0, 0.1, 1E2, 1e21, 1e-7, 123456789012345678]`, `[1,1,1,0,0.1,100,1e+21,1e-7,123456789012345680]`},
		{`9007199254740993`, `9007199254740992`},           // rounded, as RFC 8785 says; Equal tells them apart
		{`295147905179352825856`, `295147905179352830000`}, // 2^68, a double exactly
		{`1e-400`, `0`}, // a fraction rounds, as JCS says
	} {
		got, err := Canonical([]byte(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("Canonical(%s) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{`{"a":1e400}`, `-1e309`, `[1e1000000000000000000000]`} {
		if got, err := Canonical([]byte(in)); !errors.Is(err, ErrNumber) {
			t.Errorf("Canonical(%s) = %s, %v; want ErrNumber", in, got, err)
		}
	}
}

// TestCompact: the canonical order and escaping, numbers as written.
func TestCompact(t *testing.T) {
	in := "{\"b\": [1.50, -0, 1e3, 9007199254740993], \"a\": \"\\u00e9\\u2028<&>\\u007f\\u001f\", \"\ufb33\": 1, \"\U0001F600\": 2}"
	want := "{\"a\":\"é\u2028<&>\u007f\\u001f\",\"b\":[1.50,-0,1e3,9007199254740993],\"\U0001F600\":2,\"\ufb33\":1}"
	got, err := Compact([]byte(in))
	if err != nil || string(got) != want {
		t.Fatalf("Compact = %s, %v\nwant      %s", got, err, want)
	}
	if again, _ := Compact(got); string(again) != want {
		t.Errorf("Compact is not idempotent: %s", again)
	}
}

func TestCompareUTF16(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int // sign
	}{
		{"a", "b", -1},
		{"a", "ab", -1},
		{"", "a", -1},
		{"\ufb33", "\U0001F600", 1},      // byte order says the opposite
		{"\U0001F600", "\U0001F601", -1}, // same high surrogate
		{"x\U0001F600", "x\ue000", -1},
		{"\U00010000", "\ue000", -1},    // the first character beyond U+FFFF: high surrogate 0xD800
		{"\U0001F600", "\U00010400", 1}, // high surrogates 0xD83D and 0xD801
		{"\U0001F600", "\ud7ff", 1},     // 0xD83D after the last code unit below the surrogates
		{"same", "same", 0},
	} {
		got := compareUTF16(tc.a, tc.b)
		if sign(got) != tc.want || sign(compareUTF16(tc.b, tc.a)) != -tc.want {
			t.Errorf("compareUTF16(%q, %q) = %d, want sign %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

func TestPointerTokens(t *testing.T) {
	for _, tc := range []struct{ key, token string }{
		{"x/y", "x~1y"}, {"a~b", "a~0b"}, {"~1", "~01"}, {"/~", "~1~0"}, {"plain", "plain"}, {"", ""},
	} {
		if got := EscapeToken(tc.key); got != tc.token {
			t.Errorf("EscapeToken(%q) = %q, want %q", tc.key, got, tc.token)
		}
		if got := SplitPointer("/a/" + tc.token); len(got) != 2 || got[1] != tc.key {
			t.Errorf("SplitPointer(%q) = %q, want [a %q]", "/a/"+tc.token, got, tc.key)
		}
	}
	if SplitPointer("") != nil {
		t.Error("the root pointer has no tokens")
	}
}
