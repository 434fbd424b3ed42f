package httpclient

import (
	"bytes"
	"io"
	"net/url"
	"strings"
	"testing"
)

func TestSameOrigin(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"https://Example.com/a", "https://example.com:443/b", true},
		{"http://example.com/a", "http://example.com:80/b", true},
		{"http://example.com/a", "https://example.com/a", false},
		{"http://127.0.0.1:8080/", "https://127.0.0.1:8080/", false},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8081/", false},
		{"https://example.com/", "https://evil.example.com/", false},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := SameOrigin(a, b); got != tc.want {
			t.Errorf("SameOrigin(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	if SameOrigin(nil, &url.URL{}) || SameOrigin(&url.URL{}, nil) {
		t.Error("a nil URL has an origin")
	}
}

// CapBody counts a plain body whole, and an event stream event by event:
// an empty line (LF, CRLF or CR line ends) starts the count again.
func TestCapBody(t *testing.T) {
	// An event of size bytes as counted: its lines with their ends, the
	// empty line that ends it aside.
	event := func(size int, eol string) string {
		return "data: " + strings.Repeat("x", size-len("data: ")-len(eol)) + eol + eol
	}
	for _, c := range []struct {
		name   string
		body   string
		events bool
		ok     bool
	}{
		{"a body at the limit", strings.Repeat("x", MaxAnswerBytes), false, true},
		{"a body one byte over", strings.Repeat("x", MaxAnswerBytes+1), false, false},
		{"blank lines do not split a plain body", strings.Repeat("x\n\n", MaxAnswerBytes/3+1), false, false},
		{"three events of 0.75 MiB (LF)", strings.Repeat(event(3<<18, "\n"), 3), true, true},
		{"three events of 0.75 MiB (CRLF)", strings.Repeat(event(3<<18, "\r\n"), 3), true, true},
		{"three events of 0.75 MiB (CR)", strings.Repeat(event(3<<18, "\r"), 3), true, true},
		{"an event at the limit", event(MaxAnswerBytes, "\n") + event(100, "\n"), true, true},
		{"an event one byte over", event(MaxAnswerBytes+1, "\n"), true, false},
		{"CRLF line ends are not empty lines", strings.Repeat("data: x\r\n", MaxAnswerBytes/9+1), true, false},
	} {
		var over int
		body := CapBody(io.NopCloser(strings.NewReader(c.body)), c.events, func() { over++ })
		got, err := io.ReadAll(body)
		if c.ok && (err != nil || len(got) != len(c.body) || over != 0) {
			t.Errorf("%s: read %d of %d bytes, %v", c.name, len(got), len(c.body), err)
		}
		if !c.ok && (err != ErrTooLarge || over != 1 || len(got) > MaxAnswerBytes) {
			t.Errorf("%s: read %d bytes, %v, over %d times; want refused at the limit", c.name, len(got), err, over)
		}
	}
	// Bytes before the limit are returned with the error.
	body := CapBody(io.NopCloser(bytes.NewReader(make([]byte, MaxAnswerBytes+10))), false, func() {})
	buf := make([]byte, MaxAnswerBytes+10)
	if n, err := io.ReadFull(body, buf); n != MaxAnswerBytes || err != ErrTooLarge {
		t.Errorf("read %d bytes, %v", n, err)
	}
}
