package state

import (
	"fmt"
	"strings"
	"time"
)

// Code is what an Error is: a google.rpc.Code name. The server renders an
// Error in Google's error envelope, with the HTTP status of its code.
type Code string

// The codes the state returns.
const (
	InvalidArgument    Code = "INVALID_ARGUMENT"
	FailedPrecondition Code = "FAILED_PRECONDITION"
	NotFound           Code = "NOT_FOUND"
	AlreadyExists      Code = "ALREADY_EXISTS"
	ResourceExhausted  Code = "RESOURCE_EXHAUSTED"
	Internal           Code = "INTERNAL"
	Unimplemented      Code = "UNIMPLEMENTED"
	Unavailable        Code = "UNAVAILABLE"
)

// Error is a call the state refuses: its code, the message for the client,
// the fields at fault (a google.rpc.BadRequest's violations), and, when
// positive, how long the client should wait before it retries.
type Error struct {
	Code       Code
	Message    string
	Violations []FieldViolation
	RetryAfter time.Duration
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// FieldViolation is one entry of a google.rpc.BadRequest detail.
type FieldViolation struct {
	Field       string `json:"field"`
	Description string `json:"description"`
}

// Errorf is the Error of code whose message is format with args.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Violations is the INVALID_ARGUMENT msg, naming the fields v, so that a
// client can point at each offending field rather than parse the message.
func Violations(msg string, v []FieldViolation) *Error {
	return &Error{Code: InvalidArgument, Message: msg, Violations: v}
}

func errInvalid(format string, args ...any) *Error { return Errorf(InvalidArgument, format, args...) }

func errNotFound(format string, args ...any) *Error { return Errorf(NotFound, format, args...) }

func errAlreadyExists(format string, args ...any) *Error {
	return Errorf(AlreadyExists, format, args...)
}

func errInternal(format string, args ...any) *Error { return Errorf(Internal, format, args...) }

func errExhausted(format string, args ...any) *Error {
	return Errorf(ResourceExhausted, format, args...)
}

// violations collects field violations.
type violations []FieldViolation

func (v *violations) add(field, format string, args ...any) {
	*v = append(*v, FieldViolation{Field: field, Description: fmt.Sprintf(format, args...)})
}

// violationMessage is the message of an error about v: what was invalid,
// and each field with what is wrong with it.
func violationMessage(what string, v []FieldViolation) string {
	parts := make([]string, 0, len(v))
	for _, fv := range v {
		parts = append(parts, fv.Field+": "+fv.Description)
	}
	return fmt.Sprintf("invalid %s: %s", what, strings.Join(parts, "; "))
}
