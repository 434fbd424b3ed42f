package jsoncanon

// Errors the mutation run (make mutation) found unreached: a literal that
// breaks off, and invalid UTF-8 after an escape in a string.

import (
	"errors"
	"strings"
	"testing"
)

func TestDecodeErrorsInLiteralsAndEscapedStrings(t *testing.T) {
	for _, tc := range []struct {
		doc    string
		kind   error
		offset int
		msg    string
	}{
		{`[tru]`, ErrSyntax, 4, "in literal true"},
		{`[falsy]`, ErrSyntax, 5, "in literal false"},
		{`fals`, ErrSyntax, 4, "unexpected end of input"},
		{`{"a":nil}`, ErrSyntax, 6, "in literal null"},
		{"[\"a\\n\xffb\"]", ErrInvalidUnicode, 5, "invalid UTF-8 byte 0xff"},
		{"\"\\\"\xc3\"", ErrInvalidUnicode, 3, "invalid UTF-8 byte 0xc3"},
	} {
		_, err := Decode([]byte(tc.doc))
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, tc.kind) || e.Offset != tc.offset || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("Decode(%q) = %v; want %v at byte %d containing %q", tc.doc, err, tc.kind, tc.offset, tc.msg)
		}
	}
	// Valid multi-byte characters after an escape are kept.
	v, err := Decode([]byte("\"\\né€\""))
	if err != nil || v != "\né€" {
		t.Errorf("Decode(escape then é€) = %q, %v", v, err)
	}
}
