package registryclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"google.golang.org/api/googleapi"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
)

// API names used in error messages.
const (
	apiRegistry = "agent registry"
	apiAppHub   = "App Hub"
)

// FieldViolation is one google.rpc.BadRequest field violation.
type FieldViolation struct {
	Field       string
	Description string
}

// APIError is an error answered by the registry or App Hub, either as an HTTP
// error or as the error of a long-running operation.
type APIError struct {
	// Code is the HTTP status code (for an operation error, the HTTP code that
	// corresponds to its google.rpc.Code).
	Code int
	// Status is the canonical status name, e.g. "INVALID_ARGUMENT", when known.
	Status  string
	Message string
	// FieldViolations come from google.rpc.BadRequest details.
	FieldViolations []FieldViolation
	// Reason is the google.rpc.ErrorInfo reason, when the server sent one.
	Reason string
	// API is the service that answered: "agent registry" or "App Hub".
	API string
	// Operation is the name of the long-running operation that failed, if any.
	Operation string

	err error
}

// Error reads like "agent registry returned 400 INVALID_ARGUMENT: <message>;
// field agent_spec.content/skills/0: <description>".
func (e *APIError) Error() string {
	var b strings.Builder
	api := e.API
	if api == "" {
		api = apiRegistry
	}
	b.WriteString(api)
	if e.Operation != "" {
		fmt.Fprintf(&b, " operation %s failed with", e.Operation)
	} else {
		b.WriteString(" returned")
	}
	if e.Code != 0 {
		fmt.Fprintf(&b, " %d", e.Code)
	}
	if e.Status != "" {
		b.WriteString(" " + e.Status)
	}
	if e.Code == 0 && e.Status == "" {
		b.WriteString(" an error")
	}
	msg := strings.TrimSpace(e.Message)
	if msg == "" && e.Code != 0 {
		msg = http.StatusText(e.Code)
	}
	if msg != "" {
		b.WriteString(": " + msg)
	}
	for _, v := range e.FieldViolations {
		if v.Description != "" && strings.Contains(msg, v.Field) && strings.Contains(msg, v.Description) {
			continue // the message already says it
		}
		b.WriteString("; field ")
		b.WriteString(v.Field)
		if v.Description != "" {
			b.WriteString(": " + v.Description)
		}
	}
	return b.String()
}

// Unwrap returns the underlying *googleapi.Error, if any.
func (e *APIError) Unwrap() error { return e.err }

// IsNotFound reports whether err is (or wraps) a 404 / NOT_FOUND answer.
func IsNotFound(err error) bool {
	return hasCode(err, http.StatusNotFound, "NOT_FOUND")
}

// IsAlreadyExists reports whether err is (or wraps) a 409 ALREADY_EXISTS answer.
func IsAlreadyExists(err error) bool {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Status == "ALREADY_EXISTS" || (ae.Status == "" && ae.Code == http.StatusConflict)
	}
	var ge *googleapi.Error
	return errors.As(err, &ge) && ge.Code == http.StatusConflict
}

func hasCode(err error, code int, status string) bool {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Code == code || ae.Status == status
	}
	var ge *googleapi.Error
	return errors.As(err, &ge) && ge.Code == code
}

// wrapError turns a *googleapi.Error into an *APIError; other errors pass
// through unchanged (nil stays nil).
func wrapError(api string, err error) error {
	var ge *googleapi.Error
	if err == nil || !errors.As(err, &ge) {
		return err
	}
	ae := &APIError{Code: ge.Code, Message: ge.Message, API: api, err: ge}

	var body struct {
		Error *struct {
			Code    int               `json:"code"`
			Message string            `json:"message"`
			Status  string            `json:"status"`
			Details []json.RawMessage `json:"details"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(ge.Body), &body) == nil && body.Error != nil {
		if body.Error.Message != "" {
			ae.Message = body.Error.Message
		}
		ae.Status = body.Error.Status
		ae.addDetails(body.Error.Details)
	} else if ae.Message == "" {
		ae.Message = summarizeBody(ge.Body)
	}
	if len(ae.FieldViolations) == 0 && len(ge.Details) > 0 {
		for _, d := range ge.Details {
			if raw, err := json.Marshal(d); err == nil {
				ae.addDetails([]json.RawMessage{raw})
			}
		}
	}
	ae.clean()
	return ae
}

// clean strips control characters and escape sequences from what the
// registry wrote, so that no message of its can drive the terminal that
// shows a diagnostic (clear the screen, set the title, fake an "Apply
// complete!"). Every APIError is cleaned as it is made.
func (e *APIError) clean() {
	e.Message = termsafe.Text(e.Message)
	e.Status = termsafe.Line(e.Status)
	e.Reason = termsafe.Line(e.Reason)
	e.Operation = termsafe.Line(e.Operation)
	for i, v := range e.FieldViolations {
		e.FieldViolations[i] = FieldViolation{Field: termsafe.Line(v.Field), Description: termsafe.Text(v.Description)}
	}
}

// operationError converts the google.rpc.Status of a failed operation.
func operationError(api, opName string, code int64, message string, details []googleapi.RawMessage) *APIError {
	name, httpCode := rpcCode(code)
	ae := &APIError{Code: httpCode, Status: name, Message: message, API: api, Operation: opName}
	raws := make([]json.RawMessage, len(details))
	for i, d := range details {
		raws[i] = json.RawMessage(d)
	}
	ae.addDetails(raws)
	ae.clean()
	return ae
}

func (e *APIError) addDetails(details []json.RawMessage) {
	for _, raw := range details {
		var d struct {
			Type            string `json:"@type"`
			Reason          string `json:"reason"`
			FieldViolations []struct {
				Field       string `json:"field"`
				Description string `json:"description"`
			} `json:"fieldViolations"`
		}
		if json.Unmarshal(raw, &d) != nil {
			continue
		}
		switch {
		case strings.HasSuffix(d.Type, "google.rpc.BadRequest"):
			for _, v := range d.FieldViolations {
				e.FieldViolations = append(e.FieldViolations, FieldViolation{Field: v.Field, Description: v.Description})
			}
		case strings.HasSuffix(d.Type, "google.rpc.ErrorInfo"):
			if e.Reason == "" {
				e.Reason = d.Reason
			}
		}
	}
}

// summarizeBody keeps a non-JSON error body readable in a diagnostic.
func summarizeBody(body string) string {
	body = strings.Join(strings.Fields(termsafe.Line(body)), " ")
	const limit = 300
	if len(body) > limit {
		body = body[:limit] + "..."
	}
	return body
}

// rpcCodes are the google.rpc.Code values, by number, with their names and
// HTTP statuses (google/rpc/code.proto).
var rpcCodes = [...]struct {
	name   string
	status int
}{
	{"OK", http.StatusOK},
	{"CANCELLED", 499},
	{"UNKNOWN", http.StatusInternalServerError},
	{"INVALID_ARGUMENT", http.StatusBadRequest},
	{"DEADLINE_EXCEEDED", http.StatusGatewayTimeout},
	{"NOT_FOUND", http.StatusNotFound},
	{"ALREADY_EXISTS", http.StatusConflict},
	{"PERMISSION_DENIED", http.StatusForbidden},
	{"RESOURCE_EXHAUSTED", http.StatusTooManyRequests},
	{"FAILED_PRECONDITION", http.StatusBadRequest},
	{"ABORTED", http.StatusConflict},
	{"OUT_OF_RANGE", http.StatusBadRequest},
	{"UNIMPLEMENTED", http.StatusNotImplemented},
	{"INTERNAL", http.StatusInternalServerError},
	{"UNAVAILABLE", http.StatusServiceUnavailable},
	{"DATA_LOSS", http.StatusInternalServerError},
	{"UNAUTHENTICATED", http.StatusUnauthorized},
}

// rpcCode maps a google.rpc.Code to its name and HTTP status.
func rpcCode(code int64) (string, int) {
	if code >= 0 && code < int64(len(rpcCodes)) {
		return rpcCodes[code].name, rpcCodes[code].status
	}
	return fmt.Sprintf("CODE_%d", code), http.StatusInternalServerError
}
