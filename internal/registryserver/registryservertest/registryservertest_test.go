package registryservertest_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/registryservertest"
)

const parent = "projects/p1/locations/global"

type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// client returns the generated client, sending token when it is not empty.
func client(t *testing.T, url, token string) *agentregistry.APIService {
	t.Helper()
	opts := []option.ClientOption{option.WithEndpoint(url + "/"), option.WithoutAuthentication()}
	if token != "" {
		opts = []option.ClientOption{option.WithEndpoint(url + "/"), option.WithHTTPClient(&http.Client{Transport: bearer(token)})}
	}
	c, err := agentregistry.NewService(context.Background(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func service() *agentregistry.Service {
	return &agentregistry.Service{EndpointSpec: &agentregistry.EndpointSpec{Type: "NO_SPEC"}}
}

// wantCode fails the test unless err is a googleapi.Error with the HTTP code.
func wantCode(t *testing.T, err error, code int) {
	t.Helper()
	_ = asCodeErr(t, err, code)
}

// asCodeErr is err as a googleapi.Error with the HTTP code, or the test fails.
func asCodeErr(t *testing.T, err error, code int) *googleapi.Error {
	t.Helper()
	var ge *googleapi.Error
	if !errors.As(err, &ge) || ge.Code != code {
		t.Fatalf("want HTTP %d, got %v", code, err)
	}
	return ge
}

func TestFaults(t *testing.T) {
	srv, ts := registryservertest.Start(t, registryserver.Options{})
	svcs := client(t, ts.URL, "").Projects.Locations.Services

	// Status fault with Retry-After, once.
	srv.InjectFault(registryservertest.Fault{Method: "GET", PathContains: "/services", Status: 429, RetryAfter: 2 * time.Second, Times: 1})
	_, err := svcs.List(parent).Do()
	ge := asCodeErr(t, err, 429)
	if ge.Header.Get("Retry-After") != "2" || ge.Message != "injected fault: Too Many Requests" {
		t.Fatalf("Retry-After %q, message %q", ge.Header.Get("Retry-After"), ge.Message)
	}
	if _, err := svcs.List(parent).Do(); err != nil {
		t.Fatalf("fault should apply once: %v", err)
	}

	// DropAfterCommit: the client sees a failure, the write happened.
	srv.InjectFault(registryservertest.Fault{Method: "POST", DropAfterCommit: true, Times: 1})
	const rid = "1d7e9a52-6a9b-4d0e-8c4f-3f1b2a7c6e55"
	if _, err := svcs.Create(parent, service()).ServiceId("dropped").RequestId(rid).Do(); err == nil {
		t.Fatal("want a transport error")
	}
	if _, err := svcs.Get(parent + "/services/dropped").Do(); err != nil {
		t.Fatalf("dropped write not committed: %v", err)
	}
	// The client retries with the same request id and gets the operation.
	if op, err := svcs.Create(parent, service()).ServiceId("dropped").RequestId(rid).Do(); err != nil || !op.Done {
		t.Fatalf("retry after drop: %v", err)
	}

	// OperationError: the operation fails and nothing is written.
	srv.InjectFault(registryservertest.Fault{Method: "POST", PathContains: "/services", OperationError: &registryservertest.RPCStatus{Code: 10, Message: "aborted by test"}})
	op, err := svcs.Create(parent, service()).ServiceId("failing").Do()
	if err != nil || !op.Done || op.Error == nil || op.Error.Code != 10 || op.Error.Message != "aborted by test" {
		t.Fatalf("operation error: %v %+v", err, op)
	}
	_, err = svcs.Get(parent + "/services/failing").Do()
	wantCode(t, err, 404)

	// Delay: a client deadline shorter than the delay expires.
	srv.ClearFaults()
	srv.InjectFault(registryservertest.Fault{Delay: 500 * time.Millisecond, Times: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := svcs.List(parent).Context(ctx).Do(); err == nil {
		t.Fatal("want a deadline error")
	}
	srv.ClearFaults()

	// Request accounting.
	srv.ResetRequests()
	if len(srv.Requests()) != 0 {
		t.Fatal("requests not reset")
	}
	_, _ = svcs.Get(parent + "/services/dropped").Do()
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Method != "GET" || reqs[0].Path != "/v1/"+parent+"/services/dropped" || reqs[0].Query.Get("alt") != "json" {
		t.Fatalf("recorded %+v", reqs)
	}
}

// TestOperationErrorFollowsOperationDelay: an injected failing operation is
// unfinished until the server's OperationDelay has passed, like a real one,
// so that clients poll it.
func TestOperationErrorFollowsOperationDelay(t *testing.T) {
	srv, ts := registryservertest.Start(t, registryserver.Options{OperationDelay: 100 * time.Millisecond})
	ar := client(t, ts.URL, "")
	srv.InjectFault(registryservertest.Fault{Method: "DELETE", OperationError: &registryservertest.RPCStatus{Code: 9, Message: "in use"}, Times: 1})
	op, err := ar.Projects.Locations.Services.Delete(parent + "/services/any").Do()
	if err != nil || op.Done {
		t.Fatalf("want an unfinished operation, got %+v, %v", op, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !op.Done && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		if op, err = ar.Projects.Locations.Operations.Get(op.Name).Do(); err != nil {
			t.Fatal(err)
		}
	}
	if !op.Done || op.Error == nil || op.Error.Code != 9 || op.Error.Message != "in use" {
		t.Fatalf("operation %+v", op)
	}
}

// TestHooksActAfterAuthentication: a request without the token is answered
// 401 by the server, and neither recorded nor faulted.
func TestHooksActAfterAuthentication(t *testing.T) {
	srv, ts := registryservertest.Start(t, registryserver.Options{Token: "s3cret"})
	srv.InjectFault(registryservertest.Fault{Status: 503})
	anon := client(t, ts.URL, "").Projects.Locations.Services
	for range 3 {
		_, err := anon.List(parent).Do()
		wantCode(t, err, 401)
	}
	if got := srv.Requests(); len(got) != 0 {
		t.Fatalf("unauthenticated requests were recorded: %+v", got)
	}
	_, err := client(t, ts.URL, "s3cret").Projects.Locations.Services.List(parent).Do()
	wantCode(t, err, 503)
	if got := srv.Requests(); len(got) != 1 {
		t.Fatalf("want the one authenticated request recorded, got %+v", got)
	}
}

// TestDelayedWriteWhoseClientGaveUpIsNotApplied: a Delay fault on a write
// stands for a registry slower than the client's deadline; once the client
// has gone, the write must not happen. The server sees a client leave only
// after reading the request body, so a delayed write whose body was left
// unread went through after the delay, in the middle of a later test step.
func TestDelayedWriteWhoseClientGaveUpIsNotApplied(t *testing.T) {
	srv, ts := registryservertest.Start(t, registryserver.Options{})
	svcs := client(t, ts.URL, "").Projects.Locations.Services
	if _, err := svcs.Create(parent, service()).ServiceId("slow-patch").Do(); err != nil {
		t.Fatal(err)
	}
	const delay = 500 * time.Millisecond
	srv.InjectFault(registryservertest.Fault{Method: "PATCH", Delay: delay, Times: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	patch := &agentregistry.Service{DisplayName: "changed by a client that gave up"}
	if _, err := svcs.Patch(parent+"/services/slow-patch", patch).UpdateMask("displayName").Context(ctx).Do(); err == nil {
		t.Fatal("want a deadline error")
	}
	time.Sleep(3 * delay)
	got, err := svcs.Get(parent + "/services/slow-patch").Do()
	if err != nil {
		t.Fatal(err)
	}
	if got.DisplayName != "" {
		t.Fatalf("the delayed PATCH was applied after its client gave up: displayName %q", got.DisplayName)
	}
}
