package registryserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
)

// apiError is an error that is rendered in Google's JSON error envelope
// ({"error":{"code","message","status","details"}}), which is what the
// generated clients (googleapi.CheckResponse) parse into *googleapi.Error.
type apiError struct {
	HTTP    int    // HTTP status code, also the envelope's "code"
	Status  string // google.rpc.Code name, e.g. INVALID_ARGUMENT
	Message string
	Details []any
	// RetryAfter, when positive, is sent as a Retry-After header (seconds).
	RetryAfter time.Duration
}

func (e *apiError) Error() string { return e.Status + ": " + e.Message }

// fieldViolation is one entry of a google.rpc.BadRequest detail.
type fieldViolation struct {
	Field       string `json:"field"`
	Description string `json:"description"`
}

type badRequestDetail struct {
	Type            string           `json:"@type"`
	FieldViolations []fieldViolation `json:"fieldViolations"`
}

func errInvalid(format string, args ...any) *apiError {
	return &apiError{HTTP: http.StatusBadRequest, Status: "INVALID_ARGUMENT", Message: fmt.Sprintf(format, args...)}
}

// errViolations reports invalid fields with a google.rpc.BadRequest detail, so a
// client can point at each offending field rather than parse the message.
func errViolations(msg string, v []fieldViolation) *apiError {
	e := errInvalid("%s", msg)
	if len(v) > 0 {
		e.Details = []any{badRequestDetail{Type: "type.googleapis.com/google.rpc.BadRequest", FieldViolations: v}}
	}
	return e
}

func errNotFound(format string, args ...any) *apiError {
	return &apiError{HTTP: http.StatusNotFound, Status: "NOT_FOUND", Message: fmt.Sprintf(format, args...)}
}

func errAlreadyExists(format string, args ...any) *apiError {
	return &apiError{HTTP: http.StatusConflict, Status: "ALREADY_EXISTS", Message: fmt.Sprintf(format, args...)}
}

func errInternal(format string, args ...any) *apiError {
	return &apiError{HTTP: http.StatusInternalServerError, Status: "INTERNAL", Message: fmt.Sprintf(format, args...)}
}

// writeError renders err in the envelope. A *search.FieldError is an
// INVALID_ARGUMENT on its field; errors that are neither it nor an *apiError
// are internal faults of this server and are reported as INTERNAL.
func (s *Server) writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	var fe *search.FieldError
	switch {
	case errors.As(err, &ae):
	case errors.As(err, &fe):
		ae = errViolations(fe.Message, []fieldViolation{{Field: fe.Field, Description: fe.Description}})
	default:
		s.log.Error("internal error", "err", clip(err.Error()))
		ae = errInternal("internal error: %v", err)
	}
	if ae.RetryAfter > 0 {
		secs := int((ae.RetryAfter + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
	body := map[string]any{"error": map[string]any{
		"code":    ae.HTTP,
		"message": ae.Message,
		"status":  ae.Status,
		"details": nonNilDetails(ae.Details),
	}}
	writeJSON(w, ae.HTTP, body)
}

func nonNilDetails(d []any) []any {
	if d == nil {
		return []any{}
	}
	return d
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code = http.StatusInternalServerError
		b = []byte(`{"error":{"code":500,"message":"cannot encode response","status":"INTERNAL"}}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(code)
	_, _ = w.Write(b)
	_, _ = w.Write([]byte("\n"))
}

// writeRawJSON sends an already encoded JSON body.
func writeRawJSON(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
	_, _ = w.Write([]byte("\n"))
}
