// Package jsoncanon is the project's one definition of "the same JSON
// document" and of the bytes a document is sent and signed as. The provider
// (drift and semantic equality), the API client (adopting an existing service)
// and the validator (the compact form sent on the wire) all decide through it,
// so they cannot disagree on an edge-case number or key.
//
//   - Decode reads a document strictly: RFC 8259 plus the I-JSON rules that
//     RFC 8785 builds on (UTF-8 only, no duplicate keys, no unpaired
//     surrogates, no number beyond the range of IEEE 754 doubles), nesting
//     bounded by MaxDepth. It is the project's one definition of an
//     acceptable document: the validators (internal/spec), the tool lock and
//     the canonical form all read through it, so a document one of them
//     accepts is one the others can evaluate.
//   - Equal compares two documents as values: object key order and spacing do
//     not matter, numbers compare by exact decimal value.
//   - Canonical writes the RFC 8785 (JCS) bytes; Compact writes the same bytes
//     but keeps every number as written.
//
// Libraries considered: encoding/json reads duplicate keys (last wins) and
// invalid UTF-8 (as U+FFFD) without complaint, and its Decoder.Token, which
// would let us catch duplicates, allocates per token and is about twice as
// slow as the validator's whole budget allows for reading. github.com/gowebpki/jcs
// (and the cyberphone code it ports) brings a second parser with no depth
// bound and compares nothing; the JSON v2 packages (encoding/json/jsontext,
// which canonicalises) need GOEXPERIMENT=jsonv2 in Go 1.26. None gives exact
// decimal equality, which drift detection needs. So the reader and writer
// are here, small, and fuzzed against encoding/json (FuzzEqual).
package jsoncanon

import (
	"errors"
	"fmt"
)

// MaxDepth bounds the nesting of arrays and objects, as in encoding/json: a
// deeper document is an error, never a stack overflow.
const MaxDepth = 10000

// The kinds of Error, for errors.Is.
var (
	ErrSyntax         = errors.New("invalid JSON")
	ErrDuplicateKey   = errors.New("duplicate object key")
	ErrInvalidUnicode = errors.New("invalid Unicode")
	ErrDepth          = errors.New("nesting too deep")
	// ErrNumber: a number beyond the range of IEEE 754 doubles, which has
	// no RFC 8785 form.
	ErrNumber = errors.New("number not representable")
)

// Error says why and where a document was refused.
type Error struct {
	// Kind is one of the Err* values above.
	Kind error
	// Offset is the byte offset in the input where the problem starts.
	Offset int
	// Pointer is the RFC 6901 pointer of the value concerned: for a
	// duplicate key, the member that repeats it. Empty when not known.
	Pointer string
	// Msg says what is wrong, without the position.
	Msg string
}

func (e *Error) Error() string {
	msg := e.Msg
	if e.Kind == ErrSyntax {
		msg = "invalid JSON: " + msg
	}
	msg += fmt.Sprintf(" (byte %d", e.Offset)
	if e.Pointer != "" {
		msg += ", at " + e.Pointer
	}
	return msg + ")"
}

func (e *Error) Unwrap() error { return e.Kind }
