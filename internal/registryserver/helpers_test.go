package registryserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/apphub/v1"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/registryservertest"
)

const parent = "projects/p1/locations/global"

// urnOf is the id the server gives the record derived from service id
// (agentId, mcpServerId, endpointId; kind agent, mcp or endpoint) under parent.
func urnOf(kind, id string) string {
	return "urn:" + kind + ":projects-p1:projects:p1:locations:global:agentregistry:services:" + id
}

// idOf is the last segment of a resource name: the service id of a derived record.
func idOf(name string) string { return name[strings.LastIndexByte(name, '/')+1:] }

// idsOf is the ids of items (each named by name), in their order, separated by spaces.
func idsOf[T any](items []T, name func(T) string) string {
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = idOf(name(it))
	}
	return strings.Join(ids, " ")
}

type env struct {
	url string
	ar  *agentregistry.APIService
	ah  *apphub.APIService

	closeFn func()
}

// start runs a server and the official generated clients against it.
func start(t *testing.T, opts registryserver.Options, clientOpts ...option.ClientOption) *env {
	t.Helper()
	_, ts := registryservertest.Start(t, opts)
	co := append([]option.ClientOption{option.WithEndpoint(ts.URL + "/"), option.WithoutAuthentication()}, clientOpts...)
	ctx := context.Background()
	ar, err := agentregistry.NewService(ctx, co...)
	if err != nil {
		t.Fatal(err)
	}
	ah, err := apphub.NewService(ctx, co...)
	if err != nil {
		t.Fatal(err)
	}
	return &env{url: ts.URL, ar: ar, ah: ah}
}

type skill struct {
	id, name, desc string
	tags, examples []string
}

// card builds a valid A2A 0.3 agent card.
func card(name, desc string, skills ...skill) json.RawMessage {
	var sk []map[string]any
	for _, s := range skills {
		m := map[string]any{"id": s.id, "name": s.name, "description": s.desc, "tags": s.tags}
		if s.tags == nil {
			m["tags"] = []string{}
		}
		if len(s.examples) > 0 {
			m["examples"] = s.examples
		}
		sk = append(sk, m)
	}
	if sk == nil {
		sk = []map[string]any{}
	}
	b, _ := json.Marshal(map[string]any{
		"protocolVersion": "0.3.0", "name": name, "description": desc, "version": "1.0.0",
		"url":                "https://agents.example.test/" + strings.ReplaceAll(strings.ToLower(name), " ", "-"),
		"preferredTransport": "JSONRPC",
		"capabilities":       map[string]any{}, "defaultInputModes": []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"},
		"skills": sk,
	})
	return b
}

const toolSpec = `{"tools":[
 {"name":"get_invoice","title":"Get invoice","description":"Fetches an invoice by number.","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"openWorldHint":false}},
 {"name":"delete_invoice","description":"Deletes an invoice.","inputSchema":{"type":"object"}}]}`

func agentService(name, desc string, skills ...skill) *agentregistry.Service {
	return &agentregistry.Service{
		DisplayName: name,
		AgentSpec:   &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: googleapi.RawMessage(card(name, desc, skills...))},
	}
}

func (e *env) create(t *testing.T, id string, svc *agentregistry.Service) *agentregistry.Operation {
	t.Helper()
	op, err := e.ar.Projects.Locations.Services.Create(parent, svc).ServiceId(id).Do()
	if err != nil {
		t.Fatalf("create %s: %v", id, err)
	}
	if !op.Done || op.Error != nil {
		t.Fatalf("create %s: operation not done or failed: %+v", id, op)
	}
	return op
}

// as is v as a T, or the test fails: the values a test decodes have the
// types it expects, and a wrong one is the test's own bug.
func as[T any](t testing.TB, v any) T {
	t.Helper()
	x, ok := v.(T)
	if !ok {
		t.Fatalf("%T is not a %T", v, x)
	}
	return x
}

// mustClose closes c (a server or its data file), or the test fails: a test
// that reopens the file needs it released.
func mustClose(t testing.TB, c io.Closer) {
	t.Helper()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

// apiErr asserts err is a googleapi.Error with the HTTP code and status.
func apiErr(t *testing.T, err error, code int, status string) {
	t.Helper()
	_ = asAPIErr(t, err, code, status)
}

// asAPIErr is err as a googleapi.Error with the HTTP code and status, or the
// test fails: for a test that looks further into the error.
func asAPIErr(t *testing.T, err error, code int, status string) *googleapi.Error {
	t.Helper()
	var ge *googleapi.Error
	if !errors.As(err, &ge) {
		t.Fatalf("want googleapi error %d %s, got %v", code, status, err)
	}
	if ge.Code != code {
		t.Fatalf("want HTTP %d, got %d: %s", code, ge.Code, ge.Message)
	}
	var env struct {
		Error struct {
			Status string `json:"status"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(ge.Body), &env); err != nil || env.Error.Status != status {
		t.Fatalf("want status %s, got body %s", status, ge.Body)
	}
	return ge
}

// violations returns the fieldViolations of a google.rpc.BadRequest detail.
func violations(t *testing.T, ge *googleapi.Error) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, d := range ge.Details {
		m, _ := d.(map[string]any)
		if m["@type"] != "type.googleapis.com/google.rpc.BadRequest" {
			continue
		}
		fv, _ := m["fieldViolations"].([]any)
		for _, v := range fv {
			vm := as[map[string]any](t, v)
			out[as[string](t, vm["field"])] = fmt.Sprint(vm["description"])
		}
	}
	return out
}

type bearer struct {
	token string
	rt    http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.rt.RoundTrip(r)
}

func waitDone(t *testing.T, e *env, name string) *agentregistry.Operation {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		op, err := e.ar.Projects.Locations.Operations.Get(name).Do()
		if err != nil {
			t.Fatal(err)
		}
		if op.Done {
			return op
		}
		if time.Now().After(deadline) {
			t.Fatalf("operation %s not done", name)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (e *env) close() { e.closeFn() }

// startOn serves an existing server (for restart tests).
func startOn(t *testing.T, srv *registryserver.Server) *env {
	t.Helper()
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	ctx := context.Background()
	co := []option.ClientOption{option.WithEndpoint(ts.URL + "/"), option.WithoutAuthentication()}
	ar, err := agentregistry.NewService(ctx, co...)
	if err != nil {
		t.Fatal(err)
	}
	ah, err := apphub.NewService(ctx, co...)
	if err != nil {
		t.Fatal(err)
	}
	return &env{url: ts.URL, ar: ar, ah: ah, closeFn: ts.Close}
}

// do sends one request to srv and returns the answer.
func do(t *testing.T, srv http.Handler, method, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest(method, path, strings.NewReader(body)))
	return w
}
