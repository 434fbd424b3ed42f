package registryclient

import (
	"net/http"
	"testing"
)

// A failed operation's google.rpc.Code becomes the status name and the HTTP
// status the REST API gives the same error (google/rpc/code.proto), and a
// code outside the enum a name that shows its number.
func TestOperationError_mapsEveryRPCCode(t *testing.T) {
	for code, want := range map[int64]struct {
		status string
		http   int
	}{
		-1: {"CODE_-1", http.StatusInternalServerError},
		0:  {"OK", http.StatusOK},
		1:  {"CANCELLED", 499},
		2:  {"UNKNOWN", http.StatusInternalServerError},
		3:  {"INVALID_ARGUMENT", http.StatusBadRequest},
		4:  {"DEADLINE_EXCEEDED", http.StatusGatewayTimeout},
		5:  {"NOT_FOUND", http.StatusNotFound},
		6:  {"ALREADY_EXISTS", http.StatusConflict},
		7:  {"PERMISSION_DENIED", http.StatusForbidden},
		8:  {"RESOURCE_EXHAUSTED", http.StatusTooManyRequests},
		9:  {"FAILED_PRECONDITION", http.StatusBadRequest},
		10: {"ABORTED", http.StatusConflict},
		11: {"OUT_OF_RANGE", http.StatusBadRequest},
		12: {"UNIMPLEMENTED", http.StatusNotImplemented},
		13: {"INTERNAL", http.StatusInternalServerError},
		14: {"UNAVAILABLE", http.StatusServiceUnavailable},
		15: {"DATA_LOSS", http.StatusInternalServerError},
		16: {"UNAUTHENTICATED", http.StatusUnauthorized},
		17: {"CODE_17", http.StatusInternalServerError},
	} {
		e := operationError("agentregistry", "operations/op-1", code, "failed", nil)
		if e.Status != want.status || e.Code != want.http {
			t.Errorf("code %d: %s %d, want %s %d", code, e.Status, e.Code, want.status, want.http)
		}
	}
}
