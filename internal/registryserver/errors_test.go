package registryserver

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/state"
)

// envelope is Google's error JSON as the server writes it.
type envelope struct {
	Error struct {
		Code    int
		Message string
		Status  string
		Details []struct {
			Type            string `json:"@type"`
			FieldViolations []fieldViolation
		}
	}
}

// render writes err as the server answers it.
func render(t *testing.T, err error) (*httptest.ResponseRecorder, envelope) {
	t.Helper()
	s := &Server{log: slog.New(slog.DiscardHandler)}
	w := httptest.NewRecorder()
	s.writeError(w, err)
	var e envelope
	if jerr := json.Unmarshal(w.Body.Bytes(), &e); jerr != nil {
		t.Fatalf("%v rendered as %s: %v", err, w.Body, jerr)
	}
	return w, e
}

// Every code the state returns is answered with Google's HTTP status for
// it, its name and its message; an error without fields has no details,
// one with fields a google.rpc.BadRequest naming them; a Retry-After is
// sent in whole seconds, rounded up.
func TestStateErrorsAnsweredWithTheirStatus(t *testing.T) {
	for code, status := range map[state.Code]int{
		state.InvalidArgument: 400, state.FailedPrecondition: 400, state.NotFound: 404, state.AlreadyExists: 409,
		state.ResourceExhausted: 429, state.Internal: 500, state.Unimplemented: 501, state.Unavailable: 503,
	} {
		w, e := render(t, state.Errorf(code, "it is %s", code))
		if w.Code != status || e.Error.Code != status || e.Error.Status != string(code) || e.Error.Message != "it is "+string(code) || len(e.Error.Details) != 0 {
			t.Errorf("%s: %d %s, want %d with no details", code, w.Code, w.Body, status)
		}
	}
	_, e := render(t, state.Violations("bad", []fieldViolation{{Field: "f", Description: "d"}}))
	if len(e.Error.Details) != 1 || e.Error.Details[0].Type != "type.googleapis.com/google.rpc.BadRequest" ||
		len(e.Error.Details[0].FieldViolations) != 1 || e.Error.Details[0].FieldViolations[0] != (fieldViolation{Field: "f", Description: "d"}) {
		t.Errorf("violations rendered as %+v", e)
	}
	w, _ := render(t, &state.Error{Code: state.Unavailable, Message: "busy", RetryAfter: 1500 * time.Millisecond})
	if w.Header().Get("Retry-After") != "2" {
		t.Errorf("Retry-After %q for 1.5 s, want 2", w.Header().Get("Retry-After"))
	}
}

// A search's error about a field is an INVALID_ARGUMENT naming it; an error
// neither the state nor the search made is an internal fault.
func TestSearchAndInternalErrors(t *testing.T) {
	w, e := render(t, &search.FieldError{Field: "order_by", Message: "invalid order_by: x", Description: "x"})
	if w.Code != http.StatusBadRequest || e.Error.Status != "INVALID_ARGUMENT" || e.Error.Message != "invalid order_by: x" ||
		len(e.Error.Details) != 1 || e.Error.Details[0].FieldViolations[0] != (fieldViolation{Field: "order_by", Description: "x"}) {
		t.Errorf("a field error rendered as %d %s", w.Code, w.Body)
	}
	w, e = render(t, errors.New("disk on fire"))
	if w.Code != http.StatusInternalServerError || e.Error.Status != "INTERNAL" || e.Error.Message != "internal error: disk on fire" {
		t.Errorf("an internal fault rendered as %d %s", w.Code, w.Body)
	}
}
