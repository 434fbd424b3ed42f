package registryclient

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"google.golang.org/api/agentregistry/v1"
)

func newAgentService(card string) *agentregistry.Service {
	return &agentregistry.Service{
		DisplayName: "Planner",
		AgentSpec:   &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: []byte(card)},
	}
}

func TestCreateServicePollsTheOperationUntilDone(t *testing.T) {
	const opName = testParent + "/operations/op-1"
	var polls atomic.Int32
	srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
		switch {
		case r.Method == "POST":
			if got := q.Query["serviceId"]; len(got) != 1 || got[0] != "planner" {
				t.Errorf("serviceId = %v", got)
			}
			writeJSON(w, 200, map[string]any{"name": opName})
		case r.Method == "GET" && q.Path == "/v1/"+opName:
			if polls.Add(1) < 3 {
				writeJSON(w, 200, map[string]any{"name": opName, "done": false})
				return
			}
			resp := agentService(`{"name":"a","version":"1"}`)
			resp["@type"] = "type.googleapis.com/google.cloud.agentregistry.v1.Service"
			resp["registryResource"] = testParent + "/agents/planner"
			writeJSON(w, 200, map[string]any{"name": opName, "done": true, "response": resp})
		default:
			writeError(w, 404, "NOT_FOUND", "unexpected "+r.Method+" "+q.Path)
		}
	})
	c := testClient(t, srv.URL)
	svc, err := c.CreateService(testCtx(t), testParent, "planner", newAgentService(`{"name":"a","version":"1"}`))
	if err != nil {
		t.Fatalf("CreateService: %v", err)
	}
	if svc.Name != svcName || svc.RegistryResource != testParent+"/agents/planner" {
		t.Errorf("service = %+v", svc)
	}
	if n := polls.Load(); n != 3 {
		t.Errorf("operations.get calls = %d, want 3", n)
	}
	post := postsTo(rec, "/v1/"+testParent+"/services")[0]
	if id := post.Query["requestId"]; len(id) != 1 || len(id[0]) != 36 {
		t.Errorf("requestId = %v, want one UUID", id)
	}
	var sent map[string]any
	if err := json.Unmarshal(post.Body, &sent); err != nil {
		t.Fatal(err)
	}
	if spec, _ := sent["agentSpec"].(map[string]any); spec["type"] != "A2A_AGENT_CARD" {
		t.Errorf("body = %s", post.Body)
	}
}

func TestCreateServiceGetsTheServiceWhenTheResponseIsEmpty(t *testing.T) {
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
		switch {
		case r.Method == "POST":
			writeJSON(w, 200, map[string]any{"name": "operations/x", "done": true})
		case r.Method == "GET" && q.Path == "/v1/"+svcName:
			writeJSON(w, 200, agentService(`{"name":"from-get"}`))
		default:
			writeError(w, 404, "NOT_FOUND", "unexpected")
		}
	})
	c := testClient(t, srv.URL)
	svc, err := c.CreateService(testCtx(t), testParent, "planner", newAgentService(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svc.AgentSpec.Content), "from-get") {
		t.Errorf("service = %+v, want the one read with GET", svc)
	}
}

func TestOperationErrorIsSurfaced(t *testing.T) {
	const opName = testParent + "/operations/op-2"
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
		if r.Method == "POST" {
			writeJSON(w, 200, map[string]any{"name": opName})
			return
		}
		writeJSON(w, 200, map[string]any{"name": opName, "done": true, "error": map[string]any{
			"code": 3, "message": "agent card is invalid",
			"details": []any{map[string]any{
				"@type": "type.googleapis.com/google.rpc.BadRequest",
				"fieldViolations": []any{map[string]any{
					"field": "agent_spec.content/skills/0", "description": "tags is required"}},
			}},
		}})
	})
	c := testClient(t, srv.URL)
	_, err := c.CreateService(testCtx(t), testParent, "planner", newAgentService(`{}`))
	var ae *APIError
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v (%T), want *APIError", err, err)
	}
	if ae.Code != 400 || ae.Status != "INVALID_ARGUMENT" || ae.Message != "agent card is invalid" || ae.Operation != opName {
		t.Errorf("APIError = %+v", ae)
	}
	want := "agent registry operation " + opName + " failed with 400 INVALID_ARGUMENT: agent card is invalid; field agent_spec.content/skills/0: tags is required"
	if err.Error() != want {
		t.Errorf("Error() =\n%s\nwant\n%s", err.Error(), want)
	}
}

func TestHTTPErrorWithFieldViolations(t *testing.T) {
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		writeError(w, 400, "INVALID_ARGUMENT", "invalid agent card", map[string]any{
			"@type": "type.googleapis.com/google.rpc.BadRequest",
			"fieldViolations": []any{
				map[string]any{"field": "agent_spec.content/skills/0", "description": "tags is required"},
				map[string]any{"field": "service_id", "description": "must start with a letter"},
			},
		}, map[string]any{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "INVALID_SPEC"})
	})
	c := testClient(t, srv.URL)
	_, err := c.CreateService(testCtx(t), testParent, "planner", newAgentService(`{}`))
	want := "agent registry returned 400 INVALID_ARGUMENT: invalid agent card; field agent_spec.content/skills/0: tags is required; field service_id: must start with a letter"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
	var ae *APIError
	if !errors.As(err, &ae) || ae.Reason != "INVALID_SPEC" || len(ae.FieldViolations) != 2 {
		t.Errorf("APIError = %+v", ae)
	}
	if IsNotFound(err) || IsAlreadyExists(err) {
		t.Error("a 400 is neither NOT_FOUND nor ALREADY_EXISTS")
	}
}

func TestNonJSONErrorBody(t *testing.T) {
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(403)
		_, _ = w.Write([]byte("<html>\n<body>Forbidden by proxy</body></html>"))
	})
	c := testClient(t, srv.URL)
	_, err := c.GetService(testCtx(t), svcName)
	if err == nil || !strings.HasPrefix(err.Error(), "agent registry returned 403") || !strings.Contains(err.Error(), "Forbidden by proxy") {
		t.Errorf("err = %v", err)
	}
}

func TestIsNotFound(t *testing.T) {
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		writeError(w, 404, "NOT_FOUND", "service planner not found")
	})
	c := testClient(t, srv.URL)
	_, err := c.GetService(testCtx(t), svcName)
	if !IsNotFound(err) {
		t.Errorf("IsNotFound(%v) = false", err)
	}
	if IsNotFound(errors.New("x")) || IsNotFound(nil) {
		t.Error("IsNotFound of a plain error")
	}
}

// alreadyExistsServer answers the create with 409 and the GET with existing.
func alreadyExistsServer(t *testing.T, existing map[string]any) (string, *recorder) {
	srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
		switch {
		case r.Method == "POST":
			writeError(w, 409, "ALREADY_EXISTS", "service planner already exists")
		case r.Method == "GET" && q.Path == "/v1/"+svcName:
			writeJSON(w, 200, existing)
		default:
			writeError(w, 404, "NOT_FOUND", "unexpected")
		}
	})
	return srv.URL, rec
}

func TestCreateServiceAdoptsAnIdenticalExistingService(t *testing.T) {
	// Same document, other key order, spacing and number spelling.
	existing := agentService(`{"version":"1","skills":[{"id":"s","n":1.0}],"name":"a"}`)
	url, rec := alreadyExistsServer(t, existing)
	c := testClient(t, url)
	svc, err := c.CreateService(testCtx(t), testParent, "planner",
		newAgentService(`{ "name": "a", "skills": [ {"n": 1, "id": "s"} ], "version": "1" }`))
	if err != nil {
		t.Fatalf("CreateService: %v", err)
	}
	if svc.Name != svcName {
		t.Errorf("adopted %+v", svc)
	}
	if rec.gets("/v1/"+svcName) != 1 {
		t.Error("the existing service was not read")
	}
}

func TestCreateServiceConflict(t *testing.T) {
	tests := []struct {
		name     string
		existing map[string]any
		want     string
	}{
		{"card", agentService(`{"name":"other"}`), "with a different agent card;"},
		{"display name", func() map[string]any {
			s := agentService(`{"name":"a"}`)
			s["displayName"] = "Other"
			return s
		}(), "with a different display name;"},
		{"description", func() map[string]any {
			s := agentService(`{"name":"a"}`)
			s["description"] = "x"
			return s
		}(), "with a different description;"},
		{"kind", map[string]any{"name": svcName, "displayName": "Planner",
			"mcpServerSpec": map[string]any{"type": "TOOL_SPEC", "content": map[string]any{"tools": []any{}}}},
			"with a different kind (MCP server, not agent);"},
		{"type", map[string]any{"name": svcName, "displayName": "Planner",
			"agentSpec": map[string]any{"type": "NO_SPEC"}},
			"with a different spec type (NO_SPEC, not A2A_AGENT_CARD);"},
		{"interfaces", func() map[string]any {
			s := agentService(`{"name":"a"}`)
			s["interfaces"] = []any{map[string]any{"url": "https://a.example.com", "protocolBinding": "JSONRPC"}}
			return s
		}(), "with different interfaces;"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, _ := alreadyExistsServer(t, tt.existing)
			c := testClient(t, url)
			_, err := c.CreateService(testCtx(t), testParent, "planner", newAgentService(`{"name":"a"}`))
			var ce *ConflictError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want *ConflictError", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "service "+svcName+" already exists ") || !strings.Contains(msg, tt.want) ||
				!strings.HasSuffix(msg, "import it or choose another service_id") {
				t.Errorf("message = %q, want it to contain %q", msg, tt.want)
			}
			if !IsAlreadyExists(err) {
				t.Error("IsAlreadyExists(conflict) = false")
			}
		})
	}
}

func TestCreateServiceIsSentAgainWithTheSameRequestIDWhenPollingFails(t *testing.T) {
	var posts atomic.Int32
	srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
		switch {
		case r.Method == "POST":
			if posts.Add(1) == 1 {
				writeJSON(w, 200, map[string]any{"name": "operations/lost"})
				return
			}
			writeJSON(w, 200, map[string]any{"name": "operations/found", "done": true,
				"response": agentService(`{}`)})
		case q.Path == "/v1/operations/lost":
			writeError(w, 404, "NOT_FOUND", "operation not found")
		default:
			writeError(w, 404, "NOT_FOUND", "unexpected")
		}
	})
	c := testClient(t, srv.URL)
	if _, err := c.CreateService(testCtx(t), testParent, "planner", newAgentService(`{}`)); err != nil {
		t.Fatalf("CreateService: %v", err)
	}
	p := postsTo(rec, "/v1/"+testParent+"/services")
	if len(p) != 2 {
		t.Fatalf("creates sent = %d, want 2", len(p))
	}
	if p[0].Query.Get("requestId") != p[1].Query.Get("requestId") {
		t.Errorf("requestIds differ: %q, %q", p[0].Query.Get("requestId"), p[1].Query.Get("requestId"))
	}
}

func TestUpdateServiceSendsMaskAndRequestID(t *testing.T) {
	srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
		switch {
		case r.Method == "PATCH":
			writeJSON(w, 200, map[string]any{"name": "operations/u", "done": false})
		case q.Path == "/v1/operations/u":
			s := agentService(`{"name":"b"}`)
			s["description"] = "new"
			writeJSON(w, 200, map[string]any{"name": "operations/u", "done": true, "response": s})
		default:
			writeError(w, 404, "NOT_FOUND", "unexpected")
		}
	})
	c := testClient(t, srv.URL)
	in := newAgentService(`{"name":"b"}`)
	in.Name = svcName
	in.Description = "new"
	out, err := c.UpdateService(testCtx(t), in, []string{"agentSpec.content", "description"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Description != "new" {
		t.Errorf("out = %+v", out)
	}
	patch := rec.all()[0]
	if patch.Path != "/v1/"+svcName || patch.Query.Get("updateMask") != "agentSpec.content,description" || patch.Query.Get("requestId") == "" {
		t.Errorf("PATCH %s?%s", patch.Path, patch.RawQuery)
	}
}

func TestDeleteService(t *testing.T) {
	srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
		switch {
		case r.Method == "DELETE":
			writeJSON(w, 200, map[string]any{"name": "operations/d"})
		case q.Path == "/v1/operations/d":
			writeJSON(w, 200, map[string]any{"name": "operations/d", "done": true, "response": map[string]any{"@type": "type.googleapis.com/google.protobuf.Empty"}})
		default:
			writeError(w, 404, "NOT_FOUND", "unexpected")
		}
	})
	c := testClient(t, srv.URL)
	if err := c.DeleteService(testCtx(t), svcName); err != nil {
		t.Fatal(err)
	}
	if del := rec.all()[0]; del.Method != "DELETE" || del.Query.Get("requestId") == "" {
		t.Errorf("first request = %s %s?%s", del.Method, del.Path, del.RawQuery)
	}
}

func TestDeleteMissingServiceIsNotFound(t *testing.T) {
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		writeError(w, 404, "NOT_FOUND", "no such service")
	})
	c := testClient(t, srv.URL)
	if err := c.DeleteService(testCtx(t), svcName); !IsNotFound(err) {
		t.Errorf("err = %v, want NOT_FOUND", err)
	}
}

func TestPollingStopsWhenTheContextEnds(t *testing.T) {
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		writeJSON(w, 200, map[string]any{"name": "operations/forever", "done": false})
	})
	c := testClient(t, srv.URL)
	ctx, cancel := contextWithTimeout(t, 100)
	defer cancel()
	_, err := c.CreateService(ctx, testParent, "planner", newAgentService(`{}`))
	if err == nil || !strings.Contains(err.Error(), "operations/forever") || !strings.Contains(err.Error(), "deadline exceeded") {
		t.Errorf("err = %v", err)
	}
}

func TestGetAgentAndMcpServer(t *testing.T) {
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
		name := strings.TrimPrefix(q.Path, "/v1/")
		writeJSON(w, 200, map[string]any{"name": name, "displayName": "d"})
	})
	c := testClient(t, srv.URL)
	a, err := c.GetAgent(testCtx(t), testParent+"/agents/a1")
	if err != nil || a.Name != testParent+"/agents/a1" {
		t.Errorf("GetAgent = %+v, %v", a, err)
	}
	m, err := c.GetMcpServer(testCtx(t), testParent+"/mcpServers/m1")
	if err != nil || m.Name != testParent+"/mcpServers/m1" {
		t.Errorf("GetMcpServer = %+v, %v", m, err)
	}
}

func TestJSONEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{`{"a":1,"b":[1,2]}`, `{ "b": [1, 2], "a": 1.0 }`, true},
		{`{"a":1e2}`, `{"a":100}`, true},
		{`{"a":1}`, `{"a":2}`, false},
		{`{"a":[1,2]}`, `{"a":[2,1]}`, false},
		{``, `null`, true},
		{``, `{}`, false},
		{`{"a":"x"}`, `{"a":"x","b":null}`, false},
		// As the registry stores them: its numbers are doubles, so what it echoes
		// of 2^53 + 1 is 2^53, the same stored document; other numbers differ.
		{`{"id":9007199254740993}`, `{"id":9007199254740992}`, true},
		{`{"id":9007199254740993}`, `{"id":9007199254740995}`, false},
		{`{"id":9007199254740994}`, `{"id":9007199254740992}`, false},
		{`{"a":-0.0}`, `{"a":0}`, true},
		// A document jsoncanon refuses equals only its own text.
		{`{"a":1,"a":2}`, `{"a":1,"a":2}`, true},
		{`{"a":1,"a":2}`, `{"a":2}`, false},
	}
	for _, tt := range tests {
		if got := jsonEqual([]byte(tt.a), []byte(tt.b)); got != tt.want {
			t.Errorf("jsonEqual(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestErrorDoesNotRepeatViolationsTheMessageAlreadyHas(t *testing.T) {
	e := &APIError{Code: 400, Status: "INVALID_ARGUMENT",
		Message: "invalid service: agent_spec.content: bad card",
		FieldViolations: []FieldViolation{
			{Field: "agent_spec.content", Description: "bad card"},
			{Field: "service_id", Description: "too short"},
		}}
	want := "agent registry returned 400 INVALID_ARGUMENT: invalid service: agent_spec.content: bad card; field service_id: too short"
	if e.Error() != want {
		t.Errorf("Error() = %q\nwant %q", e.Error(), want)
	}
}

// Interfaces are the same when each pair has the same URL and protocol
// binding, in the same order; a null entry matches nothing.
func TestSameInterfaces(t *testing.T) {
	i := func(url, binding string) *agentregistry.Interface {
		return &agentregistry.Interface{Url: url, ProtocolBinding: binding}
	}
	a := i("https://a.example.com", "JSONRPC")
	for _, c := range []struct {
		name string
		x, y []*agentregistry.Interface
		want bool
	}{
		{"same", []*agentregistry.Interface{a}, []*agentregistry.Interface{i("https://a.example.com", "JSONRPC")}, true},
		{"none", nil, []*agentregistry.Interface{}, true},
		{"other URL", []*agentregistry.Interface{a}, []*agentregistry.Interface{i("https://b.example.com", "JSONRPC")}, false},
		{"other binding", []*agentregistry.Interface{a}, []*agentregistry.Interface{i("https://a.example.com", "GRPC")}, false},
		{"null entry", []*agentregistry.Interface{nil}, []*agentregistry.Interface{a}, false},
		{"null entries", []*agentregistry.Interface{nil}, []*agentregistry.Interface{nil}, false},
		{"order", []*agentregistry.Interface{a, i("https://b.example.com", "GRPC")}, []*agentregistry.Interface{i("https://b.example.com", "GRPC"), a}, false},
	} {
		if got := sameInterfaces(c.x, c.y); got != c.want || sameInterfaces(c.y, c.x) != c.want {
			t.Errorf("%s: sameInterfaces = %v, want %v (both ways)", c.name, got, c.want)
		}
	}
}
