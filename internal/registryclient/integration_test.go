package registryclient_test

// Runs the client against the bundled registry server (internal/registryserver).

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/registryservertest"
)

const (
	parent     = "projects/p1/locations/global"
	testToken  = "local-test-token"
	invoiceSvc = parent + "/services/invoice-helper"
)

func readTestdata(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "spec", "testdata", rel))
	if err != nil {
		t.Fatalf("reading fixture: %v", err)
	}
	return b
}

func startServer(t *testing.T, delay time.Duration) (*registryservertest.Server, *registryclient.Client) {
	t.Helper()
	return startServerWith(t, registryserver.Options{OperationDelay: delay})
}

// startServerWith starts a server with opts and the test's token.
func startServerWith(t *testing.T, opts registryserver.Options) (*registryservertest.Server, *registryclient.Client) {
	t.Helper()
	opts.Token = testToken
	srv, ts := registryservertest.Start(t, opts)
	c, err := registryclient.New(context.Background(), registryclient.Config{
		Endpoint:        ts.URL,
		AppHubEndpoint:  ts.URL,
		AccessToken:     testToken,
		RetryWaitMin:    time.Millisecond,
		RetryWaitMax:    10 * time.Millisecond,
		PollInterval:    5 * time.Millisecond,
		PollMaxInterval: 20 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func agentSvc(card []byte) *agentregistry.Service {
	return &agentregistry.Service{
		DisplayName: "Invoice Helper",
		Description: "Answers questions about invoices.",
		AgentSpec:   &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: card},
	}
}

func TestIntegrationAgentLifecycle(t *testing.T) {
	_, c := startServer(t, 30*time.Millisecond)
	ctx := ctxFor(t)
	card := readTestdata(t, "card/valid-0.3.json")

	created, err := c.CreateService(ctx, parent, "invoice-helper", agentSvc(card))
	if err != nil {
		t.Fatalf("CreateService: %v", err)
	}
	if created.Name != invoiceSvc || created.RegistryResource == "" {
		t.Fatalf("created = %+v", created)
	}

	got, err := c.GetService(ctx, invoiceSvc)
	if err != nil || got.DisplayName != "Invoice Helper" {
		t.Fatalf("GetService = %+v, %v", got, err)
	}
	agent, err := c.GetAgent(ctx, created.RegistryResource)
	if err != nil {
		t.Fatalf("GetAgent(%s): %v", created.RegistryResource, err)
	}
	if len(agent.Skills) != 2 {
		t.Errorf("derived agent skills = %d, want 2", len(agent.Skills))
	}

	// Creating the same service again adopts it; a different card conflicts.
	again, err := c.CreateService(ctx, parent, "invoice-helper", agentSvc(card))
	if err != nil || again.Name != invoiceSvc {
		t.Errorf("re-create of an identical service = %+v, %v; want it adopted", again, err)
	}
	other := strings.Replace(string(card), "Invoice Helper", "Other Helper", 1)
	_, err = c.CreateService(ctx, parent, "invoice-helper", agentSvc([]byte(other)))
	var conflict *registryclient.ConflictError
	if !errors.As(err, &conflict) || !strings.Contains(err.Error(), "different agent card") {
		t.Errorf("create with another card: err = %v, want a conflict", err)
	}

	found, err := c.SearchAgents(ctx, parent, "skills.tags:billing", 0)
	if err != nil || len(found) != 1 || found[0].Name != created.RegistryResource {
		t.Errorf("SearchAgents(skills.tags:billing) = %v, %v", names(found), err)
	}
	none, err := c.SearchAgents(ctx, parent, "skills.tags:nothing-like-this", 0)
	if err != nil || len(none) != 0 {
		t.Errorf("SearchAgents(no match) = %v, %v", names(none), err)
	}

	upd := agentSvc(card)
	upd.Name = invoiceSvc
	upd.Description = "Now with refunds."
	updated, err := c.UpdateService(ctx, upd, []string{"description"})
	if err != nil || updated.Description != "Now with refunds." {
		t.Fatalf("UpdateService = %+v, %v", updated, err)
	}

	if err := c.DeleteService(ctx, invoiceSvc); err != nil {
		t.Fatalf("DeleteService: %v", err)
	}
	if _, err := c.GetService(ctx, invoiceSvc); !registryclient.IsNotFound(err) {
		t.Errorf("GetService after delete: err = %v, want NOT_FOUND", err)
	}
	if err := c.DeleteService(ctx, invoiceSvc); !registryclient.IsNotFound(err) {
		t.Errorf("second DeleteService: err = %v, want NOT_FOUND", err)
	}
}

func TestIntegrationMcpServer(t *testing.T) {
	_, c := startServer(t, 0)
	ctx := ctxFor(t)
	svc := &agentregistry.Service{
		DisplayName:   "Invoices MCP",
		McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: readTestdata(t, "tools/valid.json")},
		Interfaces:    []*agentregistry.Interface{{Url: "https://mcp.example.test/mcp", ProtocolBinding: "JSONRPC"}},
	}
	created, err := c.CreateService(ctx, parent, "invoices-mcp", svc)
	if err != nil {
		t.Fatalf("CreateService: %v", err)
	}
	m, err := c.GetMcpServer(ctx, created.RegistryResource)
	if err != nil {
		t.Fatalf("GetMcpServer: %v", err)
	}
	found, err := c.SearchMcpServers(ctx, parent, "displayName:invoices", 0)
	if err != nil || len(found) != 1 || found[0].Name != m.Name {
		t.Errorf("SearchMcpServers = %d results, %v", len(found), err)
	}
}

func TestIntegrationInvalidCardIsReportedWithFields(t *testing.T) {
	_, c := startServer(t, 0)
	_, err := c.CreateService(ctxFor(t), parent, "broken", agentSvc([]byte(`{"name":"x"}`)))
	var ae *registryclient.APIError
	if !errors.As(err, &ae) || ae.Code != 400 || ae.Status != "INVALID_ARGUMENT" || len(ae.FieldViolations) == 0 {
		t.Fatalf("err = %v, want a 400 INVALID_ARGUMENT with field violations", err)
	}
	if testing.Verbose() {
		t.Log(err)
	}
	if !strings.HasPrefix(err.Error(), "agent registry returned 400 INVALID_ARGUMENT: ") || !strings.Contains(err.Error(), ae.FieldViolations[0].Field) {
		t.Errorf("Error() = %q", err.Error())
	}
}

func TestIntegrationTokenRequired(t *testing.T) {
	_, ts := registryservertest.Start(t, registryserver.Options{Token: testToken})
	c, err := registryclient.New(context.Background(), registryclient.Config{Endpoint: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetService(ctxFor(t), invoiceSvc)
	var ae *registryclient.APIError
	if !errors.As(err, &ae) || ae.Code != http.StatusUnauthorized {
		t.Errorf("without a token: err = %v, want 401", err)
	}
}

func TestIntegrationFaults(t *testing.T) {
	srv, c := startServer(t, 10*time.Millisecond)
	ctx := ctxFor(t)
	card := readTestdata(t, "card/valid-0.3.json")

	// The create is committed but its answer is lost: the retry (same
	// requestId) must not create twice, and must succeed.
	srv.InjectFault(registryservertest.Fault{Method: "POST", PathContains: "/services", DropAfterCommit: true, Times: 1})
	// The first poll is rate limited.
	srv.InjectFault(registryservertest.Fault{Method: "GET", PathContains: "/operations/", Status: 429, RetryAfter: time.Second, Times: 1})
	srv.ResetRequests()
	if _, err := c.CreateService(ctx, parent, "invoice-helper", agentSvc(card)); err != nil {
		t.Fatalf("CreateService through faults: %v", err)
	}
	var ids []string
	for _, r := range srv.Requests() {
		if r.Method == "POST" && strings.HasSuffix(r.Path, "/services") {
			ids = append(ids, r.Query.Get("requestId"))
		}
	}
	if len(ids) != 2 || ids[0] == "" || ids[0] != ids[1] {
		t.Errorf("create requestIds = %q, want two equal ones", ids)
	}
	all, err := c.Registry().Projects.Locations.Services.List(parent).Context(ctx).Do()
	if err != nil || len(all.Services) != 1 {
		t.Errorf("services after the retried create = %d, %v; want 1", len(all.Services), err)
	}

	srv.InjectFault(registryservertest.Fault{Method: "DELETE", OperationError: &registryservertest.RPCStatus{Code: 9, Message: "the service is in use"}, Times: 1})
	err = c.DeleteService(ctx, invoiceSvc)
	var ae *registryclient.APIError
	if !errors.As(err, &ae) || ae.Status != "FAILED_PRECONDITION" || !strings.Contains(err.Error(), "the service is in use") {
		t.Errorf("DeleteService with an operation error: %v", err)
	}
}

func TestIntegrationAgentProperties(t *testing.T) {
	// The server accepts the write only when told to: App Hub's is output only.
	_, c := startServerWith(t, registryserver.Options{OperationDelay: 10 * time.Millisecond, AppHubWritable: true})
	ctx := ctxFor(t)
	const workload = parent + "/applications/billing/workloads/invoice-helper"
	props := json.RawMessage(readTestdata(t, "properties/valid.json"))

	if _, err := c.SetWorkloadMetadata(ctx, workload, registryclient.AgentPropertiesKey, props, false); !registryclient.IsNotFound(err) {
		t.Errorf("without allowMissing: err = %v, want NOT_FOUND", err)
	}
	w, err := c.SetWorkloadMetadata(ctx, workload, registryclient.AgentPropertiesKey, props, true)
	if err != nil {
		t.Fatalf("SetWorkloadMetadata: %v", err)
	}
	if w.WorkloadProperties == nil || len(w.WorkloadProperties.ExtendedMetadata[registryclient.AgentPropertiesKey].MetadataStruct) == 0 {
		t.Fatalf("workload = %+v", w)
	}
	got, err := c.GetWorkload(ctx, workload)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	_ = json.Unmarshal(props, &a)
	_ = json.Unmarshal(got.WorkloadProperties.ExtendedMetadata[registryclient.AgentPropertiesKey].MetadataStruct, &b)
	if ja, jb := mustJSON(a), mustJSON(b); ja != jb {
		t.Errorf("stored properties = %s, want %s", jb, ja)
	}

	w, err = c.SetWorkloadMetadata(ctx, workload, registryclient.AgentPropertiesKey, nil, false)
	if err != nil {
		t.Fatalf("remove: %v", err)
	}
	if w.WorkloadProperties != nil {
		if _, ok := w.WorkloadProperties.ExtendedMetadata[registryclient.AgentPropertiesKey]; ok {
			t.Error("AgentProperties still present after removal")
		}
	}
}

func names(as []*agentregistry.Agent) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
