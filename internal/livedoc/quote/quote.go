// Package quote is how the messages of a live read quote what a peer sent (a
// body, a header, a URL it named, a JSON-RPC error, a server's stderr) or the
// command it ran: blanked of the read's secrets, safe for a terminal
// (termsafe) and bounded.
//
// A quote is blanked before it is cut: a secret cut in two by the bound
// would otherwise survive as a fragment in the middle of a message, where
// blanking the whole message (redact finds fragments at a text's edges only)
// no longer sees it. Errors are blanked whole once more where they leave the
// live read (package livedoc).
package quote

import (
	"net/url"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
)

const (
	// MaxRunes bounds a JSON-RPC error's message, and its data, as an error
	// quotes them, and a challenge a server sent.
	MaxRunes = 512
	// MaxArgRunes bounds a URL a peer named, a value it sent, or an argument
	// of a command, as an error quotes it.
	MaxArgRunes = 128
	// PeekBytes is how much of an unexpected body an error shows.
	PeekBytes = 64
)

// Excerpt is one line of text a peer sent, blanked (before and after control
// characters go, so that an escape sequence inside a secret hides nothing)
// and at most n runes long.
func Excerpt(s *redact.Secrets, text string, n int) string {
	return termsafe.Truncate(s.Blank(termsafe.Line(s.Blank(text))), n)
}

// Lines is Excerpt for text whose lines matter (a server's stderr), without
// a bound of its own.
func Lines(s *redact.Secrets, text string) string {
	return s.Blank(termsafe.Text(s.Blank(text)))
}

// Start is the first PeekBytes bytes of b, blanked, marked "..." when cut;
// the caller quotes it with %q, which escapes what a terminal would act on.
func Start(s *redact.Secrets, b []byte) string {
	if len(b) > PeekBytes {
		return s.Blank(string(b[:PeekBytes])) + "..."
	}
	return s.Blank(string(b))
}

// URL is a URL a peer named, as messages show it: without a password,
// blanked, safe for a terminal, bounded.
func URL(s *redact.Secrets, raw string) string {
	if u, err := url.Parse(raw); err == nil {
		raw = u.Redacted()
	}
	return Excerpt(s, raw, MaxArgRunes)
}

// Arg is a value as messages show it: blanked and bounded, not made safe for
// a terminal (the caller quotes it with %q, which escapes what a terminal
// would act on).
func Arg(s *redact.Secrets, text string) string {
	return termsafe.Truncate(s.Blank(text), MaxArgRunes)
}
