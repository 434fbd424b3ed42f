package quote

import (
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

const token = "tok-0123456789abcdef"

func secrets() *redact.Secrets {
	s := &redact.Secrets{}
	s.Add("the token", token)
	return s
}

// A secret split by an escape sequence is blanked (the text is blanked again
// once control characters are gone), before the excerpt is cut: no part of
// it is left at the cut.
func TestExcerpt(t *testing.T) {
	split := "say " + token[:6] + "\x1b[31m" + token[6:] + " twice"
	if got := Excerpt(secrets(), split, MaxRunes); got != "say (the token) twice" {
		t.Errorf("Excerpt = %q", got)
	}
	cut := strings.Repeat("x", 10) + token
	got := Excerpt(secrets(), cut, 14)
	if strings.Contains(got, token[:4]) || !strings.HasPrefix(got, strings.Repeat("x", 10)) {
		t.Errorf("Excerpt cut at 14 = %q: want the secret blanked before the cut", got)
	}
	if got := Excerpt(nil, "a\nb", 10); strings.Contains(got, "\n") {
		t.Errorf("Excerpt keeps a line break: %q", got)
	}
	if n := len([]rune(Excerpt(nil, strings.Repeat("é", 600), MaxRunes))); n != MaxRunes+len("...") {
		t.Errorf("Excerpt is %d runes long, want %d and \"...\"", n, MaxRunes)
	}
}

func TestLines(t *testing.T) {
	got := Lines(secrets(), "one "+token+"\ntwo \x1b[2J"+token[:8]+"\x07"+token[8:]+"\n")
	if got != "one (the token)\ntwo (the token)\n" {
		t.Errorf("Lines = %q", got)
	}
}

func TestStart(t *testing.T) {
	if got := Start(secrets(), []byte("short "+token)); got != "short (the token)" {
		t.Errorf("Start = %q", got)
	}
	long := []byte(strings.Repeat("a", PeekBytes) + "b")
	if got := Start(nil, long); got != strings.Repeat("a", PeekBytes)+"..." {
		t.Errorf("Start of %d bytes = %q", len(long), got)
	}
	exact := []byte(strings.Repeat("a", PeekBytes))
	if got := Start(nil, exact); got != string(exact) {
		t.Errorf("Start of exactly %d bytes = %q", PeekBytes, got)
	}
}

func TestURL(t *testing.T) {
	if got := URL(secrets(), "https://user:pw@as.example/t?k="+token); got != "https://user:xxxxx@as.example/t?k=(the token)" {
		t.Errorf("URL = %q", got)
	}
	if got := URL(nil, "%zz not a URL\x1b"); strings.ContainsRune(got, '\x1b') || !strings.HasPrefix(got, "%zz not a URL") {
		t.Errorf("URL of what is no URL = %q", got)
	}
	if n := len([]rune(URL(nil, "https://a.example/"+strings.Repeat("p", 300)))); n != MaxArgRunes+len("...") {
		t.Errorf("URL is %d runes long, want %d and \"...\"", n, MaxArgRunes)
	}
}

func TestArg(t *testing.T) {
	if got := Arg(secrets(), "--token="+token); got != "--token=(the token)" {
		t.Errorf("Arg = %q", got)
	}
	if got := Arg(nil, "\x1b]0;t\a"); got != "\x1b]0;t\a" {
		t.Errorf("Arg changed what the caller quotes with %%q: %q", got)
	}
	if n := len([]rune(Arg(nil, strings.Repeat("a", 300)))); n != MaxArgRunes+len("...") {
		t.Errorf("Arg is %d runes long, want %d and \"...\"", n, MaxArgRunes)
	}
}
