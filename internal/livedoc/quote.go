package livedoc

// What an error quotes of what a peer sent (a body, a JSON-RPC error, a
// server's stderr) or of the command it ran: blanked of the secrets of the
// fetch (redact), safe for a terminal (termsafe) and bounded.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
)

const (
	// maxQuotedRunes bounds a JSON-RPC error's message, and its data, as an
	// error quotes them.
	maxQuotedRunes = 512
	// maxKeptErrorBytes bounds what is kept of a JSON-RPC error's message and
	// data until an error quotes them.
	maxKeptErrorBytes = 8 << 10
	// maxQuotedArgs and maxArgRunes bound the command line an error quotes.
	maxQuotedArgs = 16
	maxArgRunes   = 128
	// peekBytes is how much of an unexpected body an error shows.
	peekBytes = 64
)

// secretsOf returns the set of values that this fetch never shows: the
// caller's (opts.Secrets, to which they are added) and the values of headers.
func secretsOf(opts Options) *redact.Secrets {
	s := opts.Secrets
	if s == nil {
		s = &redact.Secrets{}
	}
	for _, v := range opts.Headers {
		s.Add("a value of headers", v)
		if _, credential, ok := strings.Cut(v, " "); ok { // "Bearer <token>": the token alone too
			s.Add("a value of headers", credential)
		}
	}
	return s
}

// excerpt is one line of text a peer sent, blanked (before and after control
// characters go, so that an escape sequence inside a secret hides nothing)
// and at most n runes long.
func excerpt(s *redact.Secrets, text string, n int) string {
	return termsafe.Truncate(s.Blank(termsafe.Line(s.Blank(text))), n)
}

// multiline is excerpt for text whose lines matter (a server's stderr),
// without a bound of its own.
func multiline(s *redact.Secrets, text string) string {
	return s.Blank(termsafe.Text(s.Blank(text)))
}

// start is the first peekBytes bytes of b, blanked, marked "..." when cut;
// the caller quotes it with %q, which escapes what a terminal would act on.
func start(s *redact.Secrets, b []byte) string {
	if len(b) > peekBytes {
		return s.Blank(string(b[:peekBytes])) + "..."
	}
	return s.Blank(string(b))
}

// Describe is the command as messages show it: its arguments quoted as in
// HCL, at most 16 of them and 128 characters each, with secrets blanked.
func (c Command) Describe(s *redact.Secrets) string {
	parts := make([]string, 0, min(len(c.Args), maxQuotedArgs+1))
	for i, a := range c.Args {
		if i == maxQuotedArgs {
			parts = append(parts, fmt.Sprintf("... (%d more)", len(c.Args)-i))
			break
		}
		parts = append(parts, quoteArg(s, a))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// quoteArg is one argument of a command as messages show it.
func quoteArg(s *redact.Secrets, arg string) string {
	return strconv.Quote(termsafe.Truncate(s.Blank(arg), maxArgRunes))
}

// wireError is a JSON-RPC error the server sent, with the method it
// answered; message and data are kept up to maxKeptErrorBytes.
type wireError struct {
	method  string
	code    int64
	message string
	data    []byte
}

func newWireError(method string, e *jsonrpc.Error) wireError {
	w := wireError{method: method, code: e.Code, message: e.Message}
	if len(w.message) > maxKeptErrorBytes {
		w.message = w.message[:maxKeptErrorBytes]
	}
	var compact bytes.Buffer
	if json.Compact(&compact, e.Data) == nil && compact.Len() > 0 {
		w.data = compact.Bytes()[:min(compact.Len(), maxKeptErrorBytes)]
	}
	return w
}

// quote is "<method> with JSON-RPC error <code>: <message> (data: <data>)".
func (w wireError) quote(s *redact.Secrets) string {
	q := fmt.Sprintf("%s with JSON-RPC error %d: %s", w.method, w.code, excerpt(s, w.message, maxQuotedRunes))
	if len(w.data) > 0 {
		q += " (data: " + excerpt(s, string(w.data), maxQuotedRunes) + ")"
	}
	return q
}
