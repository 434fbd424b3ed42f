package registryserver

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/state"
)

// apiError is an error that is rendered in Google's JSON error envelope
// ({"error":{"code","message","status","details"}}), which is what the
// generated clients (googleapi.CheckResponse) parse into *googleapi.Error.
// The state's errors (*state.Error) become one with the HTTP status of
// their code; the server makes one itself only for what only HTTP has (a
// method not allowed, a body too large, a missing token, a client gone).
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
type fieldViolation = state.FieldViolation

type badRequestDetail struct {
	Type            string           `json:"@type"`
	FieldViolations []fieldViolation `json:"fieldViolations"`
}

// httpStatus is the HTTP status of each code the state returns, as Google
// maps them (google.rpc.Code's documentation).
var httpStatus = map[state.Code]int{
	state.InvalidArgument:    http.StatusBadRequest,
	state.FailedPrecondition: http.StatusBadRequest,
	state.NotFound:           http.StatusNotFound,
	state.AlreadyExists:      http.StatusConflict,
	state.ResourceExhausted:  http.StatusTooManyRequests,
	state.Internal:           http.StatusInternalServerError,
	state.Unimplemented:      http.StatusNotImplemented,
	state.Unavailable:        http.StatusServiceUnavailable,
}

// The errors the server's own checks make (ids, query parameters, page
// sizes and tokens, paths), in the state's terms.
func errInvalid(format string, args ...any) error {
	return state.Errorf(state.InvalidArgument, format, args...)
}

func errViolations(msg string, v []fieldViolation) error { return state.Violations(msg, v) }

func errNotFound(format string, args ...any) error {
	return state.Errorf(state.NotFound, format, args...)
}

// toAPIError is err as the envelope renders it: an *apiError as it is, a
// *state.Error with the status of its code and a google.rpc.BadRequest
// detail when it names fields, a *search.FieldError as an INVALID_ARGUMENT
// on its field; false for any other error, an internal fault of this server.
func toAPIError(err error) (*apiError, bool) {
	var ae *apiError
	var se *state.Error
	var fe *search.FieldError
	switch {
	case errors.As(err, &ae):
		return ae, true
	case errors.As(err, &fe):
		se = state.Violations(fe.Message, []fieldViolation{{Field: fe.Field, Description: fe.Description}})
	case !errors.As(err, &se):
		return nil, false
	}
	ae = &apiError{HTTP: httpStatus[se.Code], Status: string(se.Code), Message: se.Message, RetryAfter: se.RetryAfter}
	if len(se.Violations) > 0 {
		ae.Details = []any{badRequestDetail{Type: "type.googleapis.com/google.rpc.BadRequest", FieldViolations: se.Violations}}
	}
	return ae, true
}

// writeError renders err in the envelope. Errors toAPIError does not know
// are internal faults of this server and are reported as INTERNAL.
func (s *Server) writeError(w http.ResponseWriter, err error) {
	ae, ok := toAPIError(err)
	if !ok {
		s.log.Error("internal error", "err", state.Clip(err.Error()))
		ae, _ = toAPIError(state.Errorf(state.Internal, "internal error: %v", err))
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

// reply answers what a call of the state returned: v (a record, or a
// write's operation) as JSON, or the error.
func (s *Server) reply(w http.ResponseWriter) func(v any, err error) {
	return func(v any, err error) {
		if err != nil {
			s.writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, v)
	}
}

// writeEmpty answers Empty ({}), or the error.
func (s *Server) writeEmpty(w http.ResponseWriter, err error) {
	s.reply(w)(struct{}{}, err)
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

// requestID is the request id a write carries, "" for none.
func requestID(r *http.Request) string { return r.URL.Query().Get("requestId") }
