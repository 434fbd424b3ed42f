package registryclient

// Edges of the defaults, the error reading, the operation polling and the
// workload re-send that the mutation run (make mutation) found untested.

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/api/googleapi"
)

func TestWithDefaults(t *testing.T) {
	d := withDefaults(Config{})
	if d.RetryMax != 6 || d.RetryWaitMin != 200*time.Millisecond || d.RetryWaitMax != 10*time.Second ||
		d.PollInterval != 500*time.Millisecond || d.PollMaxInterval != 5*time.Second {
		t.Errorf("withDefaults(zero) = %+v", d)
	}
	if d.UserAgent != UserAgentProduct+"/dev" {
		t.Errorf("UserAgent = %q", d.UserAgent)
	}
	// Negative values: retries off, the waits back to the defaults.
	n := withDefaults(Config{RetryMax: -1, RetryWaitMin: -1, RetryWaitMax: -1, PollInterval: -1, PollMaxInterval: -1})
	if n.RetryMax != 0 || n.RetryWaitMin != 200*time.Millisecond || n.RetryWaitMax != 10*time.Second ||
		n.PollInterval != 500*time.Millisecond || n.PollMaxInterval != 5*time.Second {
		t.Errorf("withDefaults(negative) = %+v", n)
	}
	// Values given are kept.
	g := withDefaults(Config{RetryMax: 2, RetryWaitMin: time.Second, RetryWaitMax: 3 * time.Second,
		PollInterval: 2 * time.Second, PollMaxInterval: 4 * time.Second, UserAgent: "1.2.3"})
	if g.RetryMax != 2 || g.RetryWaitMin != time.Second || g.RetryWaitMax != 3*time.Second ||
		g.PollInterval != 2*time.Second || g.PollMaxInterval != 4*time.Second || g.UserAgent != UserAgentProduct+"/1.2.3" {
		t.Errorf("withDefaults(given) = %+v", g)
	}
	// A maximum below its minimum is raised to it.
	r := withDefaults(Config{RetryWaitMin: 2 * time.Second, RetryWaitMax: time.Second,
		PollInterval: 3 * time.Second, PollMaxInterval: time.Second})
	if r.RetryWaitMax != 2*time.Second || r.PollMaxInterval != 3*time.Second {
		t.Errorf("withDefaults(max < min) = %+v", r)
	}
}

func TestAPIErrorText(t *testing.T) {
	tests := []struct {
		e    *APIError
		want string
	}{
		{&APIError{API: "agent registry"}, "agent registry returned an error"},
		{&APIError{API: "agent registry", Status: "ABORTED"}, "agent registry returned ABORTED"},
		{&APIError{API: "agent registry", Code: 404}, "agent registry returned 404: Not Found"},
		{&APIError{API: "agent registry", Code: 404, Message: "no such service"}, "agent registry returned 404: no such service"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestIsAlreadyExistsAndIsNotFound(t *testing.T) {
	tests := []struct {
		err              error
		exists, notFound bool
	}{
		{&APIError{Status: "ALREADY_EXISTS", Code: 409}, true, false},
		{&APIError{Code: 409}, true, false},
		{&APIError{Status: "ABORTED", Code: 409}, false, false},
		{&APIError{Code: 404}, false, true},
		{&APIError{Status: "NOT_FOUND"}, false, true},
		{&googleapi.Error{Code: 409}, true, false},
		{&googleapi.Error{Code: 404}, false, true},
		{&googleapi.Error{Code: 500}, false, false},
		{errors.New("plain"), false, false},
		{nil, false, false},
	}
	for _, tt := range tests {
		if got := IsAlreadyExists(tt.err); got != tt.exists {
			t.Errorf("IsAlreadyExists(%#v) = %v", tt.err, got)
		}
		if got := IsNotFound(tt.err); got != tt.notFound {
			t.Errorf("IsNotFound(%#v) = %v", tt.err, got)
		}
	}
}

func TestWrapErrorReadsTheBody(t *testing.T) {
	// An envelope without a message keeps the error's own message.
	err := wrapError("agent registry", &googleapi.Error{Code: 400, Message: "outer",
		Body: `{"error":{"code":400,"status":"INVALID_ARGUMENT"}}`})
	var ae *APIError
	if !errors.As(err, &ae) || ae.Message != "outer" || ae.Status != "INVALID_ARGUMENT" {
		t.Errorf("no message in the envelope: %#v", err)
	}
	err = wrapError("agent registry", &googleapi.Error{Code: 400, Message: "outer",
		Body: `{"error":{"code":400,"message":"inner","status":"INVALID_ARGUMENT"}}`})
	if !errors.As(err, &ae) || ae.Message != "inner" {
		t.Errorf("message in the envelope: %#v", err)
	}
	// Field violations only in the parsed details (a body that is not an envelope).
	err = wrapError("agent registry", &googleapi.Error{Code: 400, Body: "not json",
		Details: []any{map[string]any{"@type": "type.googleapis.com/google.rpc.BadRequest",
			"fieldViolations": []any{map[string]any{"field": "agent_spec", "description": "bad"}}}}})
	if !errors.As(err, &ae) || len(ae.FieldViolations) != 1 || ae.FieldViolations[0].Field != "agent_spec" {
		t.Errorf("details outside the body: %#v", err)
	}
	if err := wrapError("x", nil); err != nil {
		t.Errorf("wrapError(nil) = %v", err)
	}
}

func TestSummarizeBody(t *testing.T) {
	exact := strings.Repeat("a", 300)
	if got := summarizeBody(exact); got != exact {
		t.Errorf("300 bytes: got %d bytes", len(got))
	}
	long := strings.Repeat("b", 301)
	if got := summarizeBody(long); got != long[:300]+"..." {
		t.Errorf("301 bytes: got %q", got)
	}
	if got := summarizeBody(" a \n\t b "); got != "a b" {
		t.Errorf("spaces: got %q", got)
	}
}

func TestPaginatePageSize(t *testing.T) {
	c := &Client{}
	for _, tt := range []struct {
		limit int
		want  int64
	}{{0, 100}, {3, 3}, {99, 99}, {100, 100}, {150, 100}} {
		var sizes []int64
		_, err := paginate(context.Background(), c, "test", tt.limit, func(_ context.Context, pageSize int64, token string) ([]int, string, error) {
			sizes = append(sizes, pageSize)
			return []int{1}, "", nil
		})
		if err != nil || len(sizes) != 1 || sizes[0] != tt.want {
			t.Errorf("paginate(%d): page sizes %v, %v; want %d", tt.limit, sizes, err, tt.want)
		}
	}
}

// A poll that answers without the operation's name keeps polling it by the
// name it had.
func TestPollAnswerWithoutANameKeepsTheName(t *testing.T) {
	var polls atomic.Int32
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
		switch {
		case r.Method == "DELETE":
			writeJSON(w, 200, map[string]any{"name": "operations/d"})
		case q.Path == "/v1/operations/d" && polls.Add(1) == 1:
			writeJSON(w, 200, map[string]any{"done": false})
		case q.Path == "/v1/operations/d":
			writeJSON(w, 200, map[string]any{"name": "operations/d", "done": true})
		default:
			writeError(w, 404, "NOT_FOUND", "unexpected")
		}
	})
	c := testClient(t, srv.URL)
	if err := c.DeleteService(testCtx(t), svcName); err != nil {
		t.Fatalf("DeleteService: %v", err)
	}
	if polls.Load() != 2 {
		t.Errorf("polls = %d, want 2", polls.Load())
	}
}

// The workload patch: the operation's response is the workload (not a read
// after it); a response without a name, or none, falls back to a read.
func TestSetWorkloadMetadataTakesTheOperationResponse(t *testing.T) {
	for _, tt := range []struct {
		name     string
		response any
		want     string // the workload's description in the result
	}{
		{"workload in the response", map[string]any{"name": workloadName, "description": "from the operation"}, "from the operation"},
		{"response without a name", map[string]any{"description": "nameless"}, "from the read"},
		{"no response", nil, "from the read"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
				switch {
				case r.Method == "GET" && q.Path == "/v1/"+workloadName:
					writeJSON(w, 200, map[string]any{"name": workloadName, "description": "from the read"})
				case r.Method == "PATCH":
					writeJSON(w, 200, map[string]any{"name": "operations/w"})
				case q.Path == "/v1/operations/w":
					op := map[string]any{"name": "operations/w", "done": true}
					if tt.response != nil {
						op["response"] = tt.response
					}
					writeJSON(w, 200, op)
				default:
					writeError(w, 404, "NOT_FOUND", "unexpected")
				}
			})
			c := testClient(t, srv.URL)
			got, err := c.SetWorkloadMetadata(testCtx(t), workloadName, AgentPropertiesKey, []byte(`{"a":1}`), false)
			if err != nil || got.Description != tt.want {
				t.Fatalf("SetWorkloadMetadata = %+v, %v; want description %q", got, err, tt.want)
			}
		})
	}
}

// A workload patch whose operation is lost every time is sent three times in
// all, with one requestId, and then fails.
func TestSetWorkloadMetadataIsSentAtMostThreeTimes(t *testing.T) {
	srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
		switch {
		case r.Method == "GET" && q.Path == "/v1/"+workloadName:
			writeJSON(w, 200, map[string]any{"name": workloadName})
		case r.Method == "PATCH":
			writeJSON(w, 200, map[string]any{"name": "operations/lost"})
		default:
			writeError(w, 404, "NOT_FOUND", "operation not found")
		}
	})
	c := testClient(t, srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := c.SetWorkloadMetadata(ctx, workloadName, AgentPropertiesKey, []byte(`{"a":1}`), false)
	if !IsNotFound(err) {
		t.Errorf("err = %v, want the lost operation's NOT_FOUND", err)
	}
	var ids []string
	for _, q := range rec.all() {
		if q.Method == "PATCH" {
			ids = append(ids, q.Query.Get("requestId"))
		}
	}
	if len(ids) != maxWriteAttempts || ids[0] == "" || ids[0] != ids[1] || ids[1] != ids[2] {
		t.Errorf("PATCH requestIds = %q, want %d equal ones", ids, maxWriteAttempts)
	}
}

// A search stops asking for pages once it has limit results.
func TestPaginateStopsAtTheLimit(t *testing.T) {
	c := &Client{}
	calls := 0
	two := func(_ context.Context, _ int64, token string) ([]int, string, error) {
		calls++
		return []int{calls, calls}, "next-" + token, nil
	}
	got, err := paginate(context.Background(), c, "test", 2, two)
	if err != nil || calls != 1 || len(got) != 2 {
		t.Errorf("paginate(2) with 2 results on the first page: %d pages, %v, %v; want 1", calls, got, err)
	}
	calls = 0
	got, err = paginate(context.Background(), c, "test", 3, two)
	if err != nil || calls != 2 || len(got) != 3 {
		t.Errorf("paginate(3) with 2 results a page: %d pages, %v, %v; want 2 pages, 3 results", calls, got, err)
	}
}

func TestJoinAnd(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want string
	}{
		{nil, "different content"},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a and b"},
		{[]string{"a", "b", "c"}, "a, b and c"},
	} {
		if got := joinAnd(tt.in); got != tt.want {
			t.Errorf("joinAnd(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestErrorHandler(t *testing.T) {
	resp := &http.Response{StatusCode: 503}
	if got, err := errorHandler(resp, errors.New("x"), 3); got != resp || err != nil {
		t.Errorf("with a response: %v, %v; want the response", got, err)
	}
	if _, err := errorHandler(nil, nil, 2); err == nil || err.Error() != "giving up after 2 attempt(s): no response" {
		t.Errorf("without a response or an error: %v", err)
	}
	if _, err := errorHandler(nil, context.Canceled, 1); err != context.Canceled {
		t.Errorf("canceled: %v, want context.Canceled as is", err)
	}
	cause := errors.New("connection reset")
	if _, err := errorHandler(nil, cause, 7); !errors.Is(err, cause) || !strings.HasPrefix(err.Error(), "giving up after 7 attempt(s)") {
		t.Errorf("connection error: %v", err)
	}
}
