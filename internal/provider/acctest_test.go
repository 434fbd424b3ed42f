package provider

// The acceptance kit every acceptance test shares: a bundled registry server
// started for the test (httptest), the official Google client to seed it and
// to change records behind Terraform's back, the provider configuration that
// points at it, and checks of the write requests that reached it. CLI
// capabilities (what the CLI under test supports) are in acctest_cli_test.go.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/registryservertest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// testParent is the project and location of every test: the provider
// configuration's (testkit.ProviderConfig) and the default one of the resources.
const testParent = "projects/test-project/locations/global"

// testAccProviderFactories serves the provider in-process to OpenTofu (or
// Terraform), as main serves it.
var testAccProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"agentregistry": providerserver.NewProtocol6WithError(New("test")()),
}

// testRegistry is a bundled registry server started for one test, with two
// clients: the official generated one (api), to seed the registry as any other
// client would, and the provider's own without retries (client), for the
// checks: a fault the provider did not consume makes a check fail instead of
// being absorbed silently.
type testRegistry struct {
	t      *testing.T
	srv    *registryservertest.Server
	ts     *httptest.Server
	URL    string
	client *registryclient.Client
	api    *agentregistry.APIService
}

// startRegistry starts a registry server for the test (with opts, or the
// defaults). It needs no CLI, so it is safe to call before resource.Test
// decides to skip.
func startRegistry(t *testing.T, opts ...registryserver.Options) *testRegistry {
	t.Helper()
	var o registryserver.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	r := testkit.StartRegistry(t, o)
	return &testRegistry{t: t, srv: r.Srv, ts: r.TS, URL: r.URL, client: r.Client, api: r.API}
}

// config is the provider block for this registry followed by body.
func (r *testRegistry) config(body string) string { return testkit.ProviderConfig(r.URL) + body }

// ---------------------------------------------------------------------------
// Seeding: registrations are created through the server's HTTP API with the
// official Google client, as any other client of the registry would.

func (r *testRegistry) createService(id string, svc *agentregistry.Service) {
	r.t.Helper()
	op, err := r.api.Projects.Locations.Services.Create(testParent, svc).ServiceId(id).Context(context.Background()).Do()
	if err != nil {
		r.t.Fatalf("create service %s: %v", id, err)
	}
	for !op.Done {
		if op, err = r.api.Projects.Locations.Operations.Get(op.Name).Do(); err != nil {
			r.t.Fatalf("poll operation for service %s: %v", id, err)
		}
	}
	if op.Error != nil {
		r.t.Fatalf("create service %s: operation failed: %s", id, op.Error.Message)
	}
}

// editCard changes the card of the agent service name behind Terraform's
// back, through the official client, as a REST call would, and waits for the
// operation.
func (r *testRegistry) editCard(t *testing.T, name string, edit func(card map[string]any)) {
	t.Helper()
	svc, err := r.api.Projects.Locations.Services.Get(name).Do()
	if err != nil {
		t.Fatal(err)
	}
	var card map[string]any
	if err := json.Unmarshal(svc.AgentSpec.Content, &card); err != nil {
		t.Fatal(err)
	}
	edit(card)
	raw, _ := json.Marshal(card)
	op, err := r.api.Projects.Locations.Services.Patch(name,
		&agentregistry.Service{AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: raw}}).
		UpdateMask("agentSpec").Context(context.Background()).Do()
	if err != nil {
		t.Fatal(err)
	}
	for !op.Done {
		if op, err = r.api.Projects.Locations.Operations.Get(op.Name).Do(); err != nil {
			t.Fatal(err)
		}
	}
}

// agent registers an A2A agent from a card.
func (r *testRegistry) agent(id string, card map[string]any) {
	r.t.Helper()
	raw, err := json.Marshal(card)
	if err != nil {
		r.t.Fatal(err)
	}
	r.createService(id, &agentregistry.Service{
		AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: raw},
	})
}

// mcpServer registers an MCP server from a tool spec.
func (r *testRegistry) mcpServer(id, displayName, description, url string, tools []map[string]any) {
	r.t.Helper()
	raw, err := json.Marshal(map[string]any{"tools": tools})
	if err != nil {
		r.t.Fatal(err)
	}
	r.createService(id, &agentregistry.Service{
		DisplayName:   displayName,
		Description:   description,
		Interfaces:    []*agentregistry.Interface{{Url: url, ProtocolBinding: "JSONRPC"}},
		McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: raw},
	})
}

// ---------------------------------------------------------------------------
// Write checks.

// writes lists the write requests (POST, PATCH, DELETE, PUT) that reached the
// server since the last ResetRequests, other than searches and operation polls.
func (r *testRegistry) writes() []string {
	var out []string
	for _, req := range r.srv.Requests() {
		switch req.Method {
		case http.MethodPost, http.MethodPatch, http.MethodDelete, http.MethodPut:
			if !strings.HasSuffix(req.Path, ":search") {
				out = append(out, req.Method+" "+req.Path)
			}
		}
	}
	return out
}

// writesOf lists the write requests of one method.
func (r *testRegistry) writesOf(method string) []string {
	var out []string
	for _, w := range r.writes() {
		if strings.HasPrefix(w, method+" ") {
			out = append(out, w)
		}
	}
	return out
}

// expectNoWrites fails the test when any write request reached the server.
func (r *testRegistry) expectNoWrites(t *testing.T) {
	t.Helper()
	if w := r.writes(); len(w) > 0 {
		t.Errorf("expected no write request to reach the registry, got %v", w)
	}
}

// noPatchCheck is a state check that fails when a PATCH reached the server
// since the last ResetRequests (called in the step's PreConfig).
type noPatchCheck struct{ r *testRegistry }

func (c noPatchCheck) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if p := c.r.writesOf("PATCH"); len(p) > 0 {
		resp.Error = fmt.Errorf("a reformatted document must not cost an API call, but the registry received %v", p)
	}
}

// patchMaskCheck is a state check that fails unless exactly one PATCH reached
// the server since the last ResetRequests, with exactly the given updateMask
// fields (in any order).
type patchMaskCheck struct {
	r    *testRegistry
	want []string
}

func (c patchMaskCheck) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	var masks []string
	for _, req := range c.r.srv.Requests() {
		if req.Method == "PATCH" {
			masks = append(masks, req.Query.Get("updateMask"))
		}
	}
	want := append([]string(nil), c.want...)
	sort.Strings(want)
	if len(masks) != 1 {
		resp.Error = fmt.Errorf("expected one PATCH with updateMask %v, got updateMasks %q", want, masks)
		return
	}
	got := strings.Split(masks[0], ",")
	sort.Strings(got)
	if !slices.Equal(got, want) {
		resp.Error = fmt.Errorf("the PATCH's updateMask is %q, want the fields %v: only what changed", masks[0], want)
	}
}

// sawPatchCheck is a state check that fails unless a PATCH reached the server
// since the last ResetRequests; it shows that noPatchCheck can fail.
type sawPatchCheck struct{ r *testRegistry }

func (c sawPatchCheck) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if len(c.r.writesOf("PATCH")) == 0 {
		resp.Error = fmt.Errorf("expected the update to send a PATCH, got writes %v", c.r.writes())
	}
}

// TestMain drops a TF_CLI_CONFIG_FILE that names no file (testkit.Main
// says why).
func TestMain(m *testing.M) {
	os.Exit(testkit.Main(m))
}

// as is v as a T, or the test fails: the values a test builds or decodes
// have the types it expects, and a wrong one is the test's own bug.
func as[T any](t testing.TB, v any) T {
	t.Helper()
	x, ok := v.(T)
	if !ok {
		t.Fatalf("%T is not a %T", v, x)
	}
	return x
}
