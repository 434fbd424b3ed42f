package registryserver_test

// Conformance: the official generated clients (google.golang.org/api
// agentregistry/v1 and apphub/v1) against the server over HTTP.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/apphub/v1"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

const rid1 = "6f1c7b8e-3a44-4c1e-9f0d-2b7a1e5c9d01"

func TestServiceLifecycle(t *testing.T) {
	e := start(t, registryserver.Options{})
	svcs := e.ar.Projects.Locations.Services
	in := agentService("Invoice Helper", "Answers questions about invoices.",
		skill{id: "lookup", name: "Look up", desc: "Finds an invoice.", tags: []string{"billing"}})

	// A create retried with the same request id returns the same operation and creates once.
	var ops []string
	for range 3 {
		op, err := svcs.Create(parent, in).ServiceId("invoice-helper").RequestId(rid1).Do()
		if err != nil {
			t.Fatal(err)
		}
		if !op.Done {
			t.Fatalf("operation not done with OperationDelay 0: %+v", op)
		}
		ops = append(ops, op.Name)
	}
	if ops[0] != ops[1] || ops[1] != ops[2] || !strings.HasPrefix(ops[0], parent+"/operations/") {
		t.Fatalf("retried create returned different operations: %v", ops)
	}
	var resp map[string]any
	op, _ := e.ar.Projects.Locations.Operations.Get(ops[0]).Do()
	if err := json.Unmarshal(op.Response, &resp); err != nil || resp["@type"] != "type.googleapis.com/google.cloud.agentregistry.v1.Service" {
		t.Fatalf("operation response: %s (%v)", op.Response, err)
	}
	list, err := svcs.List(parent).Do()
	if err != nil || len(list.Services) != 1 {
		t.Fatalf("want 1 service after 3 retried creates, got %d (%v)", len(list.Services), err)
	}

	// A new request id for an existing id is ALREADY_EXISTS.
	_, err = svcs.Create(parent, in).ServiceId("invoice-helper").RequestId("6f1c7b8e-3a44-4c1e-9f0d-2b7a1e5c9d02").Do()
	apiErr(t, err, 409, "ALREADY_EXISTS")
	// The same request id on another request is refused rather than ignored.
	_, err = svcs.Create(parent, in).ServiceId("other-helper").RequestId(rid1).Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")

	name := parent + "/services/invoice-helper"
	got, err := svcs.Get(name).Do()
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != name || got.DisplayName != "Invoice Helper" || got.CreateTime == "" || got.UpdateTime == "" ||
		got.RegistryResource != parent+"/agents/invoice-helper" || got.AgentSpec.Type != "A2A_AGENT_CARD" {
		t.Fatalf("unexpected service: %+v", got)
	}

	// Patch only the description; the display name is outside the mask and kept.
	op, err = svcs.Patch(name, &agentregistry.Service{Description: "New words", DisplayName: "ignored"}).UpdateMask("description").Do()
	if err != nil || !op.Done {
		t.Fatalf("patch: %v %+v", err, op)
	}
	got, _ = svcs.Get(name).Do()
	if got.Description != "New words" || got.DisplayName != "Invoice Helper" {
		t.Fatalf("patch applied wrongly: %+v", got)
	}
	// Patching the card updates the derived agent.
	newCard := card("Invoice Helper", "Now with refunds.", skill{id: "refund", name: "Refund", desc: "Refunds an invoice.", tags: []string{"refunds"}})
	if _, err := svcs.Patch(name, &agentregistry.Service{AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: googleapi.RawMessage(newCard)}}).
		UpdateMask("agentSpec.content").Do(); err != nil {
		t.Fatal(err)
	}
	ag, err := e.ar.Projects.Locations.Agents.Get(parent + "/agents/invoice-helper").Do()
	if err != nil || len(ag.Skills) != 1 || ag.Skills[0].Id != "refund" || ag.Description != "Now with refunds." {
		t.Fatalf("derived agent not updated: %+v %v", ag, err)
	}

	// The spec type is immutable.
	_, err = svcs.Patch(name, &agentregistry.Service{McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: googleapi.RawMessage(toolSpec)}}).
		UpdateMask("mcpServerSpec").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	_, err = svcs.Patch(name, &agentregistry.Service{AgentSpec: &agentregistry.AgentSpec{Type: "NO_SPEC"}}).UpdateMask("agentSpec").Do()
	ge := asAPIErr(t, err, 400, "INVALID_ARGUMENT")
	if v := violations(t, ge); !strings.Contains(v["agent_spec.type"], "immutable") {
		t.Fatalf("want an immutable violation on agent_spec.type, got %v", v)
	}
	_, err = svcs.Patch(name, &agentregistry.Service{}).UpdateMask("createTime").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")

	// Delete, retried with the same request id: one deletion, same operation.
	const rid = "0b8f0f3e-1c1d-4b57-8f5e-0d5f7f1f2a10"
	d1, err := svcs.Delete(name).RequestId(rid).Do()
	if err != nil {
		t.Fatal(err)
	}
	d2, err := svcs.Delete(name).RequestId(rid).Do()
	if err != nil || d1.Name != d2.Name {
		t.Fatalf("retried delete: %v %s %s", err, d1.Name, d2.Name)
	}
	if !bytes.Contains(d1.Response, []byte("google.protobuf.Empty")) {
		t.Fatalf("delete response: %s", d1.Response)
	}
	_, err = svcs.Get(name).Do()
	apiErr(t, err, 404, "NOT_FOUND")
	_, err = e.ar.Projects.Locations.Agents.Get(parent + "/agents/invoice-helper").Do()
	apiErr(t, err, 404, "NOT_FOUND")
	_, err = svcs.Delete(name).Do()
	apiErr(t, err, 404, "NOT_FOUND")
}

// AIP-134: a patch without an update mask updates every field the request
// carries and keeps the others, as a curl user sending a partial body expects.
func TestServicePatchWithoutAMask(t *testing.T) {
	e := start(t, registryserver.Options{})
	svcs := e.ar.Projects.Locations.Services
	name := parent + "/services/flights"
	e.create(t, "flights", &agentregistry.Service{DisplayName: "Flights", Description: "Books flights.",
		McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: googleapi.RawMessage(toolSpec)},
		Interfaces:    []*agentregistry.Interface{{Url: "https://flights.example.test/mcp", ProtocolBinding: "JSONRPC"}}})
	patch := func(in *agentregistry.Service) *agentregistry.Service {
		t.Helper()
		if op, err := svcs.Patch(name, in).Do(); err != nil || !op.Done || op.Error != nil {
			t.Fatalf("patch %+v: %v %+v", in, err, op)
		}
		got, err := svcs.Get(name).Do()
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	got := patch(&agentregistry.Service{Description: "Books and changes flights."})
	if got.Description != "Books and changes flights." || got.DisplayName != "Flights" || len(got.Interfaces) != 1 {
		t.Fatalf("description patch: %+v", got)
	}
	got = patch(&agentregistry.Service{DisplayName: "Flight desk"})
	if got.DisplayName != "Flight desk" || got.Description != "Books and changes flights." || len(got.Interfaces) != 1 {
		t.Fatalf("display name patch: %+v", got)
	}
	got = patch(&agentregistry.Service{Interfaces: []*agentregistry.Interface{{Url: "https://flights.example.test/v2", ProtocolBinding: "HTTP_JSON"}}})
	if len(got.Interfaces) != 1 || got.Interfaces[0].Url != "https://flights.example.test/v2" || got.DisplayName != "Flight desk" {
		t.Fatalf("interfaces patch: %+v", got)
	}
	oneTool := `{"tools":[{"name":"book","inputSchema":{"type":"object"}}]}`
	got = patch(&agentregistry.Service{McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: googleapi.RawMessage(oneTool)}})
	if got.McpServerSpec == nil || !strings.Contains(string(got.McpServerSpec.Content), `"book"`) || got.DisplayName != "Flight desk" || len(got.Interfaces) != 1 {
		t.Fatalf("spec patch: %+v", got)
	}
	// A spec of another kind is in the request, so it is in the implied mask and refused.
	_, err := svcs.Patch(name, &agentregistry.Service{EndpointSpec: &agentregistry.EndpointSpec{Type: "NO_SPEC"}}).Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
}

// A service whose agent spec carries no card still derives an agent; its
// interfaces are the agent's one CUSTOM protocol.
func TestDerivedAgentWithoutACard(t *testing.T) {
	e := start(t, registryserver.Options{})
	ifs := []*agentregistry.Interface{{Url: "https://legacy.example.test/rpc", ProtocolBinding: "GRPC"}}
	e.create(t, "legacy-agent", &agentregistry.Service{DisplayName: "Legacy", AgentSpec: &agentregistry.AgentSpec{Type: "NO_SPEC"}, Interfaces: ifs})
	e.create(t, "bare-agent", &agentregistry.Service{AgentSpec: &agentregistry.AgentSpec{Type: "NO_SPEC"}})
	ag, err := e.ar.Projects.Locations.Agents.Get(parent + "/agents/legacy-agent").Do()
	if err != nil {
		t.Fatal(err)
	}
	if ag.Card != nil || ag.DisplayName != "Legacy" || len(ag.Protocols) != 1 || ag.Protocols[0].Type != "CUSTOM" ||
		len(ag.Protocols[0].Interfaces) != 1 || ag.Protocols[0].Interfaces[0].Url != ifs[0].Url || ag.Protocols[0].Interfaces[0].ProtocolBinding != "GRPC" {
		b, _ := json.Marshal(ag)
		t.Fatalf("agent without a card: %s", b)
	}
	bare, err := e.ar.Projects.Locations.Agents.Get(parent + "/agents/bare-agent").Do()
	if err != nil || bare.Card != nil || len(bare.Protocols) != 0 {
		t.Fatalf("agent without a card or interfaces: %+v %v", bare, err)
	}
}

func TestServiceValidation(t *testing.T) {
	e := start(t, registryserver.Options{})
	svcs := e.ar.Projects.Locations.Services
	for _, id := range []string{"abc", "1abc", "Abcd", "ab_cd", strings.Repeat("a", 64)} {
		_, err := svcs.Create(parent, agentService("X", "Y")).ServiceId(id).Do()
		ge := asAPIErr(t, err, 400, "INVALID_ARGUMENT")
		if _, ok := violations(t, ge)["service_id"]; !ok {
			t.Errorf("service id %q: no service_id violation", id)
		}
	}
	cases := map[string]struct {
		svc   *agentregistry.Service
		field string
	}{
		"long display name": {&agentregistry.Service{DisplayName: strings.Repeat("x", 64), EndpointSpec: &agentregistry.EndpointSpec{Type: "NO_SPEC"}}, "display_name"},
		"long description":  {&agentregistry.Service{Description: strings.Repeat("x", 2049), EndpointSpec: &agentregistry.EndpointSpec{Type: "NO_SPEC"}}, "description"},
		"no spec":           {&agentregistry.Service{}, "agent_spec"},
		"two specs": {&agentregistry.Service{AgentSpec: &agentregistry.AgentSpec{Type: "NO_SPEC"},
			EndpointSpec: &agentregistry.EndpointSpec{Type: "NO_SPEC"}}, "agent_spec"},
		"card with interfaces": {&agentregistry.Service{
			AgentSpec:  &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: googleapi.RawMessage(card("A", "B"))},
			Interfaces: []*agentregistry.Interface{{Url: "https://x.test", ProtocolBinding: "JSONRPC"}}}, "interfaces"},
		"bad type":        {&agentregistry.Service{McpServerSpec: &agentregistry.McpServerSpec{Type: "A2A_AGENT_CARD"}}, "mcp_server_spec.type"},
		"missing content": {&agentregistry.Service{AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD"}}, "agent_spec.content"},
		"content array": {&agentregistry.Service{McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC",
			Content: googleapi.RawMessage(`[1]`)}}, "mcp_server_spec.content"},
		"too big": {&agentregistry.Service{McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC",
			Content: googleapi.RawMessage(`{"tools":[],"x":"` + strings.Repeat("a", 10300) + `"}`)}}, "mcp_server_spec.content"},
		"interface without binding": {&agentregistry.Service{McpServerSpec: &agentregistry.McpServerSpec{Type: "NO_SPEC"},
			Interfaces: []*agentregistry.Interface{{Url: "https://x.test"}}}, "interfaces[0].protocol_binding"},
		"unknown binding": {&agentregistry.Service{McpServerSpec: &agentregistry.McpServerSpec{Type: "NO_SPEC"},
			Interfaces: []*agentregistry.Interface{{Url: "https://x.test", ProtocolBinding: "SOAP"}}}, "interfaces[0].protocol_binding"},
		"content without a spec": {&agentregistry.Service{EndpointSpec: &agentregistry.EndpointSpec{Type: "NO_SPEC",
			Content: googleapi.RawMessage(`{"tools":[]}`)}}, "endpoint_spec.content"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := svcs.Create(parent, c.svc).ServiceId("valid-id").Do()
			ge := asAPIErr(t, err, 400, "INVALID_ARGUMENT")
			if _, ok := violations(t, ge)[c.field]; !ok {
				t.Fatalf("want a violation on %s, got %v", c.field, violations(t, ge))
			}
		})
	}
	if _, err := svcs.List(parent).Do(); err != nil {
		t.Fatal(err)
	}
	if l, _ := svcs.List(parent).Do(); len(l.Services) != 0 {
		t.Fatalf("invalid creates left %d services", len(l.Services))
	}
}

// A service's document comes back from get as the state stored it (compact,
// keys sorted: the state's TestServiceContentIsStoredNormalised), not
// re-encoded on its way; a violation's description reaches the client in
// the state's words.
func TestServiceDocumentAndViolationOverTheWire(t *testing.T) {
	e := start(t, registryserver.Options{})
	sent := "{ \"tools\": [ {\"name\": \"t\", \"inputSchema\": {\"type\": \"object\"}} ] }"
	e.create(t, "normalised", &agentregistry.Service{McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: googleapi.RawMessage(sent)}})
	got, err := e.ar.Projects.Locations.Services.Get(parent + "/services/normalised").Do()
	if want := `{"tools":[{"inputSchema":{"type":"object"},"name":"t"}]}`; err != nil || string(got.McpServerSpec.Content) != want {
		t.Errorf("stored content %v (%v), want %s", got, err, want)
	}
	svc := &agentregistry.Service{McpServerSpec: &agentregistry.McpServerSpec{Type: "A2A_AGENT_CARD"}}
	_, err = e.ar.Projects.Locations.Services.Create(parent, svc).ServiceId("typed").Do()
	want := `must be one of NO_SPEC, TOOL_SPEC, got "A2A_AGENT_CARD"`
	if v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT")); len(v) != 1 || v["mcp_server_spec.type"] != want {
		t.Errorf("violations %v, want mcp_server_spec.type: %s", v, want)
	}
}

func TestBadCardFieldViolations(t *testing.T) {
	e := start(t, registryserver.Options{})
	bad := `{"protocolVersion":"0.3.0","name":"A","description":"B","version":"1","url":"https://a.test",
	 "capabilities":{},"defaultInputModes":[],"defaultOutputModes":[],
	 "skills":[{"id":"s","name":"S","description":"D","tags":"billing"}]}`
	_, err := e.ar.Projects.Locations.Services.Create(parent, &agentregistry.Service{
		AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: googleapi.RawMessage(bad)},
	}).ServiceId("bad-card").Do()
	ge := asAPIErr(t, err, 400, "INVALID_ARGUMENT")
	v := violations(t, ge)
	if _, ok := v["agent_spec.content/skills/0/tags"]; !ok {
		t.Fatalf("want a violation on agent_spec.content/skills/0/tags, got %v (%s)", v, ge.Body)
	}
	// An invalid tool spec too.
	_, err = e.ar.Projects.Locations.Services.Create(parent, &agentregistry.Service{
		McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: googleapi.RawMessage(`{"tools":[{"name":"x"}]}`)},
	}).ServiceId("bad-tools").Do()
	ge = asAPIErr(t, err, 400, "INVALID_ARGUMENT")
	if len(violations(t, ge)) == 0 {
		t.Fatalf("no field violations: %s", ge.Body)
	}
}

func TestListServicesPaging(t *testing.T) {
	e := start(t, registryserver.Options{})
	for i := range 7 {
		e.create(t, fmt.Sprintf("svc-%02d", i), &agentregistry.Service{DisplayName: fmt.Sprintf("S%d", i),
			EndpointSpec: &agentregistry.EndpointSpec{Type: "NO_SPEC"}})
	}
	var names []string
	pages := 0
	err := e.ar.Projects.Locations.Services.List(parent).PageSize(3).Pages(context.Background(), func(r *agentregistry.ListServicesResponse) error {
		pages++
		for _, s := range r.Services {
			names = append(names, s.Name)
		}
		return nil
	})
	if err != nil || pages != 3 || len(names) != 7 || !slices.IsSorted(names) {
		t.Fatalf("paging: err=%v pages=%d names=%v", err, pages, names)
	}
	l, err := e.ar.Projects.Locations.Services.List(parent).Filter(`displayName="S3"`).Do()
	if err != nil || len(l.Services) != 1 || l.Services[0].DisplayName != "S3" {
		t.Fatalf("filter: %v %+v", err, l)
	}
	_, err = e.ar.Projects.Locations.Services.List(parent).PageSize(-1).Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	// Another parent sees nothing.
	l, _ = e.ar.Projects.Locations.Services.List("projects/p2/locations/global").Do()
	if len(l.Services) != 0 {
		t.Fatalf("other parent lists %d services", len(l.Services))
	}
}

// The derived records through the generated client, for what the wire
// carries: the service names its record (registryResource), each kind is
// served by get and list and decodes with its URN, its card as a JSON
// object and its tools' hints (an MCP default of true arrives true); a
// missing record is 404 NOT_FOUND. What a record holds is the state's
// TestDerivedRecords.
func TestDerivedRecordsOverTheWire(t *testing.T) {
	e := start(t, registryserver.Options{})
	e.create(t, "invoice-helper", agentService("Invoice Helper", "Answers questions about invoices.",
		skill{id: "lookup", name: "Look up", desc: "Finds an invoice.", tags: []string{"billing", "invoices"}}))
	ag, err := e.ar.Projects.Locations.Agents.Get(parent + "/agents/invoice-helper").Do()
	if err != nil {
		t.Fatal(err)
	}
	if ag.AgentId != urnOf("agent", "invoice-helper") || ag.Card == nil || ag.Card.Type != "A2A_AGENT_CARD" || len(ag.Skills) != 1 ||
		len(ag.Protocols) != 1 || ag.Protocols[0].Interfaces[0].ProtocolBinding != "JSONRPC" {
		b, _ := json.Marshal(ag)
		t.Fatalf("unexpected agent: %s", b)
	}
	var c map[string]any
	if err := json.Unmarshal(ag.Card.Content, &c); err != nil || c["name"] != "Invoice Helper" {
		t.Fatalf("card content %s", ag.Card.Content)
	}

	e.create(t, "invoices-mcp", &agentregistry.Service{DisplayName: "Invoices MCP", Description: "Invoice tools",
		McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: googleapi.RawMessage(toolSpec)},
		Interfaces:    []*agentregistry.Interface{{Url: "https://mcp.example.test/mcp", ProtocolBinding: "HTTP_JSON"}}})
	svc, _ := e.ar.Projects.Locations.Services.Get(parent + "/services/invoices-mcp").Do()
	if svc.RegistryResource != parent+"/mcpServers/invoices-mcp" {
		t.Fatalf("registryResource %q", svc.RegistryResource)
	}
	m, err := e.ar.Projects.Locations.McpServers.Get(svc.RegistryResource).Do()
	if err != nil {
		t.Fatal(err)
	}
	if m.McpServerId != urnOf("mcp", "invoices-mcp") || len(m.Tools) != 2 || len(m.Interfaces) != 1 {
		t.Fatalf("unexpected mcp server %+v", m)
	}
	get, del := m.Tools[0], m.Tools[1]
	if !get.Annotations.ReadOnlyHint || get.Annotations.OpenWorldHint || !del.Annotations.DestructiveHint || !del.Annotations.OpenWorldHint {
		t.Fatalf("tool hints %+v %+v", get.Annotations, del.Annotations)
	}
	l, err := e.ar.Projects.Locations.McpServers.List(parent).Do()
	if err != nil || len(l.McpServers) != 1 {
		t.Fatalf("list mcp: %v %+v", err, l)
	}
	al, err := e.ar.Projects.Locations.Agents.List(parent).Do()
	if err != nil || len(al.Agents) != 1 {
		t.Fatalf("list agents: %v %+v", err, al)
	}
	_, err = e.ar.Projects.Locations.McpServers.Get(parent + "/mcpServers/nope").Do()
	apiErr(t, err, 404, "NOT_FOUND")
}

// A 1.0 card in ProtoJSON's other spelling (proto field names) is accepted and
// derived like its lowerCamelCase form.
func TestDerivedRecords_protoFieldNames(t *testing.T) {
	e := start(t, registryserver.Options{})
	card := `{"name": "Ledger", "description": "Keeps the ledger.", "version": "1.0.0",
	  "supported_interfaces": [{"url": "https://agents.example.test/ledger", "protocol_binding": "GRPC", "protocol_version": "1.0"}],
	  "default_input_modes": ["text/plain"],
	  "skills": [{"id": "post", "name": "Post an entry", "description": "Posts a ledger entry.", "tags": ["ledger"]}]}`
	e.create(t, "ledger", &agentregistry.Service{AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: googleapi.RawMessage(card)}})
	ag, err := e.ar.Projects.Locations.Agents.Get(parent + "/agents/ledger").Do()
	if err != nil {
		t.Fatal(err)
	}
	if len(ag.Protocols) != 1 || ag.Protocols[0].ProtocolVersion != "1.0" || len(ag.Protocols[0].Interfaces) != 1 ||
		ag.Protocols[0].Interfaces[0].Url != "https://agents.example.test/ledger" || ag.Protocols[0].Interfaces[0].ProtocolBinding != "GRPC" ||
		len(ag.Skills) != 1 || ag.Skills[0].Id != "post" {
		b, _ := json.Marshal(ag)
		t.Fatalf("unexpected agent: %s", b)
	}
}

func seedAgents(t *testing.T, e *env) {
	e.create(t, "trip-planner", agentService("Trip Planner", "Plans travel itineraries.",
		skill{id: "plan-trip", name: "Plan a trip", desc: "Builds a day by day travel plan.", tags: []string{"travel", "planning"}, examples: []string{"Plan a week in Rome"}},
		skill{id: "book-hotel", name: "Book hotel", desc: "Books hotels.", tags: []string{"booking"}}))
	e.create(t, "flight-booker", agentService("Flight Booker", "Books flights.",
		skill{id: "book-flight", name: "Book a flight", desc: "Books a flight ticket.", tags: []string{"booking", "travel"}}))
	e.create(t, "invoice-helper", agentService("Invoice Helper", "Answers questions about invoices.",
		skill{id: "lookup", name: "Look up", desc: "Finds an invoice.", tags: []string{"billing", "test"}}))
	e.create(t, "workshop-bot", agentService("Workshop Bot", "Runs workshops and plans sessions.",
		skill{id: "schedule", name: "Schedule", desc: "Schedules a workshop.", tags: []string{"events"}}))
}

func searchIDs(t *testing.T, e *env, q string) []string {
	t.Helper()
	var ids []string
	err := e.ar.Projects.Locations.Agents.Search(parent, &agentregistry.SearchAgentsRequest{SearchString: q}).
		Pages(context.Background(), func(r *agentregistry.SearchAgentsResponse) error {
			for _, a := range r.Agents {
				ids = append(ids, idOf(a.Name))
			}
			return nil
		})
	if err != nil {
		t.Fatalf("search %q: %v", q, err)
	}
	return ids
}

func TestSearchAgentsGrammar(t *testing.T) {
	e := start(t, registryserver.Options{})
	seedAgents(t, e)
	cases := []struct {
		q    string
		want string
	}{
		{"", "flight-booker invoice-helper trip-planner workshop-bot"},
		{"travel", "flight-booker trip-planner"},
		{"TRAVEL", "flight-booker trip-planner"},
		{"invoices", "invoice-helper"},
		{"skills.tags:booking", "flight-booker trip-planner"},
		{"skills.tags:test", "invoice-helper"},
		{"skills:hotels", "trip-planner"},
		{"skills.examples:rome", "trip-planner"},
		{"skills.id:book-flight", "flight-booker"},
		{"displayName:works*", "workshop-bot"},
		{"displayName:work", ""},
		// agentId is the URN (state/urn.go): = compares it whole, : matches its words.
		{"agentId=" + urnOf("agent", "trip-planner"), "trip-planner"},
		{"agentId=" + strings.ToUpper(urnOf("agent", "trip-planner")), "trip-planner"},
		{`agentId="` + urnOf("agent", "trip-planner") + `"`, "trip-planner"},
		{"agentId=trip-planner", ""},
		{"agentId:trip-planner", "trip-planner"},
		{"agentId=" + urnOf("agent", "trip"), ""},
		{"agentId=" + urnOf("agent", "trip") + "*", "trip-planner"},
		{"name:flight", "flight-booker"},
		{"plan*", "trip-planner workshop-bot"},
		{"planner OR booker", "flight-booker trip-planner"},
		{"travel AND booking", "flight-booker trip-planner"},
		{"travel booking", "flight-booker trip-planner"},
		{"travel NOT flights", "trip-planner"},
		{"NOT travel", "invoice-helper workshop-bot"},
		{"(invoice OR workshop) AND NOT billing", "workshop-bot"},
		{`description:"travel itineraries"`, "trip-planner"},
		{`description:"itineraries travel"`, ""},
		{`"day by day"`, "trip-planner"},
		{`skills.description:"books a fl*"`, "flight-booker"},
		{"skills.tags=booking", "flight-booker trip-planner"},
		{`displayName = "Trip Planner"`, "trip-planner"},
		{"nothingmatches", ""},
	}
	for _, c := range cases {
		got := strings.Join(searchIDs(t, e, c.q), " ")
		if got != c.want {
			t.Errorf("search %q: got [%s], want [%s]", c.q, got, c.want)
		}
	}
	// The index follows writes: change a card, delete a service.
	if _, err := e.ar.Projects.Locations.Services.Patch(parent+"/services/invoice-helper", &agentregistry.Service{
		AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: googleapi.RawMessage(card("Invoice Helper", "Now about receipts."))},
	}).UpdateMask("agentSpec").Do(); err != nil {
		t.Fatal(err)
	}
	if got := searchIDs(t, e, "invoices"); len(got) != 0 {
		t.Errorf("stale index after patch: %v", got)
	}
	if got := searchIDs(t, e, "receipts"); !slices.Equal(got, []string{"invoice-helper"}) {
		t.Errorf("index not updated after patch: %v", got)
	}
	if _, err := e.ar.Projects.Locations.Services.Delete(parent + "/services/flight-booker").Do(); err != nil {
		t.Fatal(err)
	}
	if got := searchIDs(t, e, "travel"); !slices.Equal(got, []string{"trip-planner"}) {
		t.Errorf("index not updated after delete: %v", got)
	}
}

func TestSearchMcpServers(t *testing.T) {
	e := start(t, registryserver.Options{})
	e.create(t, "invoices-mcp", &agentregistry.Service{DisplayName: "Invoices MCP",
		McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: googleapi.RawMessage(toolSpec)}})
	e.create(t, "weather-mcp", &agentregistry.Service{DisplayName: "Weather", Description: "Forecasts",
		McpServerSpec: &agentregistry.McpServerSpec{Type: "NO_SPEC"}})
	for q, want := range map[string]string{
		"tools.name:get_invoice": "invoices-mcp",
		"tools:deletes":          "invoices-mcp",
		"forecasts":              "weather-mcp",
		"mcpServerId=" + urnOf("mcp", "weather-mcp"): "weather-mcp",
		"mcpServerId=weather-mcp":                    "",
		"":                                           "invoices-mcp weather-mcp",
		"NOT tools.name:get*":                        "weather-mcp",
	} {
		r, err := e.ar.Projects.Locations.McpServers.Search(parent, &agentregistry.SearchMcpServersRequest{SearchString: q}).Do()
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		var ids []string
		for _, m := range r.McpServers {
			ids = append(ids, idOf(m.Name))
		}
		if got := strings.Join(ids, " "); got != want {
			t.Errorf("mcp search %q: got [%s] want [%s]", q, got, want)
		}
	}
	_, err := e.ar.Projects.Locations.McpServers.Search(parent, &agentregistry.SearchMcpServersRequest{SearchString: "skills:x"}).Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
}

func TestSearchPaging(t *testing.T) {
	e := start(t, registryserver.Options{})
	for i := range 25 {
		e.create(t, fmt.Sprintf("agent-%03d", i), agentService(fmt.Sprintf("Agent %d", i), "Common helper.",
			skill{id: "s", name: "S", desc: "Shared skill.", tags: []string{"shared"}}))
	}
	search := e.ar.Projects.Locations.Agents.Search
	var ids []string
	pages := 0
	err := search(parent, &agentregistry.SearchAgentsRequest{SearchString: "shared", PageSize: 10}).
		Pages(context.Background(), func(r *agentregistry.SearchAgentsResponse) error {
			pages++
			if pages < 3 && (len(r.Agents) != 10 || r.NextPageToken == "") {
				t.Errorf("page %d: %d agents, token %q", pages, len(r.Agents), r.NextPageToken)
			}
			for _, a := range r.Agents {
				ids = append(ids, idOf(a.Name))
			}
			return nil
		})
	if err != nil || pages != 3 || len(ids) != 25 || !slices.IsSorted(ids) {
		t.Fatalf("paging: %v pages=%d ids=%v", err, pages, ids)
	}
	// Default page size 20; large sizes are clamped (here fewer than 100 exist).
	r, _ := search(parent, &agentregistry.SearchAgentsRequest{SearchString: "shared"}).Do()
	if len(r.Agents) != 20 || r.NextPageToken == "" {
		t.Fatalf("default page: %d %q", len(r.Agents), r.NextPageToken)
	}
	// A token from one query is refused on another.
	_, err = search(parent, &agentregistry.SearchAgentsRequest{SearchString: "helper", PageToken: r.NextPageToken}).Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	_, err = search(parent, &agentregistry.SearchAgentsRequest{PageToken: "garbage!"}).Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	r, err = search(parent, &agentregistry.SearchAgentsRequest{PageSize: 100000}).Do()
	if err != nil || len(r.Agents) != 25 || r.NextPageToken != "" {
		t.Fatalf("clamped page: %v %d", err, len(r.Agents))
	}
	_, err = search(parent, &agentregistry.SearchAgentsRequest{PageSize: -1}).Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	// Agents list pages the same way.
	n := 0
	err = e.ar.Projects.Locations.Agents.List(parent).PageSize(7).Pages(context.Background(), func(r *agentregistry.ListAgentsResponse) error {
		n += len(r.Agents)
		return nil
	})
	if err != nil || n != 25 {
		t.Fatalf("agents list: %v %d", err, n)
	}
}

func TestSearchMalformedQuery(t *testing.T) {
	e := start(t, registryserver.Options{})
	for q, want := range map[string]string{
		"travel AND":    "position 11",
		"(travel":       "not closed",
		"colour:blue":   "unknown field",
		`"unterminated`: "not closed",
		"skills.tags:":  "expected a value",
		"a OR OR b":     "expected a search term",
		"tra*vel":       "only allowed at the end",
		"travel)":       "unexpected \")\"",
	} {
		_, err := e.ar.Projects.Locations.Agents.Search(parent, &agentregistry.SearchAgentsRequest{SearchString: q}).Do()
		ge := asAPIErr(t, err, 400, "INVALID_ARGUMENT")
		if !strings.Contains(ge.Message, want) {
			t.Errorf("query %q: message %q does not contain %q", q, ge.Message, want)
		}
		if _, ok := violations(t, ge)["search_string"]; !ok {
			t.Errorf("query %q: no search_string violation", q)
		}
	}
}

const agentProps = `{"displayName":"Invoice Helper","description":"Answers questions about invoices.","version":"2.1.0","framework":"google-adk",
 "skills":[{"id":"lookup-invoice","name":"Look up","description":"Finds an invoice.","tags":["billing"]}]}`

func TestWorkloadAgentProperties(t *testing.T) {
	e := start(t, registryserver.Options{AppHubWritable: true})
	wls := e.ah.Projects.Locations.Applications.Workloads
	name := parent + "/applications/app1/workloads/invoice-wl"
	body := &apphub.Workload{WorkloadProperties: &apphub.WorkloadProperties{ExtendedMetadata: map[string]apphub.ExtendedMetadata{
		"apphub.googleapis.com/AgentProperties": {MetadataStruct: googleapi.RawMessage(agentProps)}}}}
	mask := "workloadProperties.extendedMetadata.`apphub.googleapis.com/AgentProperties`"

	_, err := wls.Patch(name, body).UpdateMask(mask).Do()
	apiErr(t, err, 404, "NOT_FOUND") // without allowMissing

	op, err := wls.Patch(name, body).UpdateMask(mask).Do(googleapi.QueryParameter("allowMissing", "true"))
	if err != nil || !op.Done {
		t.Fatalf("patch allowMissing: %v %+v", err, op)
	}
	var resp map[string]any
	_ = json.Unmarshal(op.Response, &resp)
	if resp["@type"] != "type.googleapis.com/google.cloud.apphub.v1.Workload" {
		t.Fatalf("response %s", op.Response)
	}
	apOp, err := e.ah.Projects.Locations.Operations.Get(op.Name).Do()
	if err != nil || !apOp.Done {
		t.Fatalf("apphub operations.get: %v", err)
	}
	wl, err := wls.Get(name).Do()
	if err != nil {
		t.Fatal(err)
	}
	em, ok := wl.WorkloadProperties.ExtendedMetadata["apphub.googleapis.com/AgentProperties"]
	var props map[string]any
	if !ok || json.Unmarshal(em.MetadataStruct, &props) != nil || props["displayName"] != "Invoice Helper" {
		t.Fatalf("workload %+v", wl)
	}

	// The unquoted mask form and the whole-map form are accepted too.
	if _, err := wls.Patch(name, body).UpdateMask("workloadProperties.extendedMetadata.apphub.googleapis.com/AgentProperties").Do(); err != nil {
		t.Fatal(err)
	}
	if _, err := wls.Patch(name, body).UpdateMask("workloadProperties.extendedMetadata").Do(); err != nil {
		t.Fatal(err)
	}

	// A misspelt key is an error, reported per field.
	bad := &apphub.Workload{WorkloadProperties: &apphub.WorkloadProperties{ExtendedMetadata: map[string]apphub.ExtendedMetadata{
		"apphub.googleapis.com/AgentProperties": {MetadataStruct: googleapi.RawMessage(`{"dispalyName":"x"}`)}}}}
	_, err = wls.Patch(name, bad).UpdateMask(mask).Do()
	ge := asAPIErr(t, err, 400, "INVALID_ARGUMENT")
	if len(violations(t, ge)) == 0 {
		t.Fatalf("no violations: %s", ge.Body)
	}
	// Other metadata keys are not writable.
	other := &apphub.Workload{WorkloadProperties: &apphub.WorkloadProperties{ExtendedMetadata: map[string]apphub.ExtendedMetadata{
		"apphub.googleapis.com/Other": {MetadataStruct: googleapi.RawMessage(`{}`)}}}}
	_, err = wls.Patch(name, other).UpdateMask("workloadProperties.extendedMetadata").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")

	// Mask names the entry, body omits it: the entry is removed.
	if _, err := wls.Patch(name, &apphub.Workload{}).UpdateMask(mask).Do(); err != nil {
		t.Fatal(err)
	}
	wl, _ = wls.Get(name).Do()
	if wl.WorkloadProperties != nil && len(wl.WorkloadProperties.ExtendedMetadata) != 0 {
		t.Fatalf("entry not removed: %+v", wl.WorkloadProperties)
	}
	l, err := wls.List(parent + "/applications/app1").Do()
	if err != nil || len(l.Workloads) != 1 {
		t.Fatalf("list workloads: %v %+v", err, l)
	}
	if _, err := wls.Delete(name).Do(); err != nil {
		t.Fatal(err)
	}
	_, err = wls.Get(name).Do()
	apiErr(t, err, 404, "NOT_FOUND")
}

func TestExtendedMetadataSchemas(t *testing.T) {
	e := start(t, registryserver.Options{})
	schemas := e.ah.Projects.Locations.ExtendedMetadataSchemas
	name := parent + "/extendedMetadataSchemas/apphub.googleapis.com/AgentProperties"
	s, err := schemas.Get(name).Do()
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != name || s.SchemaVersion != 1 || !json.Valid([]byte(s.JsonSchema)) || !strings.Contains(s.JsonSchema, "displayName") {
		t.Fatalf("schema %+v", s.Name)
	}
	// The escaped form reaches the same resource.
	res, err := http.Get(e.url + "/v1/" + parent + "/extendedMetadataSchemas/apphub.googleapis.com%2FAgentProperties")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("escaped schema name: %v %v", err, res.Status)
	}
	_ = res.Body.Close()
	l, err := schemas.List(parent).Do()
	if err != nil || len(l.ExtendedMetadataSchemas) != 1 || l.ExtendedMetadataSchemas[0].Name != name {
		t.Fatalf("list schemas: %v %+v", err, l)
	}
	// A page token resumes strictly after the name it holds: after the schema
	// the list is empty, before it the list still holds it.
	for after, want := range map[string]int{name: 0, name[:len(name)-1]: 1} {
		l, err := schemas.List(parent).PageToken(registryserver.PageToken(after, "extendedMetadataSchemas", parent)).Do()
		if err != nil || len(l.ExtendedMetadataSchemas) != want {
			t.Errorf("list schemas after %q: %v %+v, want %d", after, err, l, want)
		}
	}
	_, err = schemas.Get(parent + "/extendedMetadataSchemas/apphub.googleapis.com/Nope").Do()
	apiErr(t, err, 404, "NOT_FOUND")
}

func TestAuthentication(t *testing.T) {
	const token = "s3cret-token"
	e := start(t, registryserver.Options{Token: token})
	_, err := e.ar.Projects.Locations.Services.List(parent).Do()
	apiErr(t, err, 401, "UNAUTHENTICATED")

	wrong := start(t, registryserver.Options{Token: token},
		option.WithHTTPClient(&http.Client{Transport: bearer{"nope", http.DefaultTransport}}))
	_, err = wrong.ar.Projects.Locations.Services.List(parent).Do()
	apiErr(t, err, 401, "UNAUTHENTICATED")

	srvURL := e.url
	ok, err := agentregistry.NewService(context.Background(), option.WithEndpoint(srvURL+"/"),
		option.WithHTTPClient(&http.Client{Transport: bearer{token, http.DefaultTransport}}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ok.Projects.Locations.Services.List(parent).Do(); err != nil {
		t.Fatalf("authorised call failed: %v", err)
	}
}

func TestHTTPEdges(t *testing.T) {
	e := start(t, registryserver.Options{})
	do := func(method, path, body string) (int, string) {
		req, _ := http.NewRequest(method, e.url+path, strings.NewReader(body))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = res.Body.Close() }()
		var b bytes.Buffer
		_, _ = b.ReadFrom(res.Body)
		return res.StatusCode, b.String()
	}
	if c, b := do("GET", "/v2/x", ""); c != 404 || !strings.Contains(b, `"status":"NOT_FOUND"`) {
		t.Errorf("unknown prefix: %d %s", c, b)
	}
	if c, _ := do("GET", "/v1/"+parent+"/widgets", ""); c != 404 {
		t.Errorf("unknown collection: %d", c)
	}
	if c, b := do("PUT", "/v1/"+parent+"/services/x", "{}"); c != 405 || !strings.Contains(b, "UNIMPLEMENTED") {
		t.Errorf("wrong method: %d %s", c, b)
	}
	big := `{"description":"` + strings.Repeat("a", 2<<20) + `"}`
	if c, _ := do("POST", "/v1/"+parent+"/services?serviceId=big-one", big); c != 413 {
		t.Errorf("oversized body: %d", c)
	}
	if c, b := do("POST", "/v1/"+parent+"/services?serviceId=typo-one", `{"colour":"x"}`); c != 400 || !strings.Contains(b, "colour") {
		t.Errorf("unknown field: %d %s", c, b)
	}
	if c, _ := do("POST", "/v1/"+parent+"/services?serviceId=abcd&requestId=not-a-uuid", `{"endpointSpec":{"type":"NO_SPEC"}}`); c != 400 {
		t.Errorf("non-UUID request id: %d", c)
	}
	if c, b := do("POST", "/v1/"+parent+"/agents:search", `{"pageSize":"5"}`); c != 200 {
		t.Errorf("string pageSize: %d %s", c, b)
	}
}

func TestPersistenceAcrossRestart(t *testing.T) {
	path := t.TempDir() + "/state.db"
	srv1, err := registryserver.New(registryserver.Options{DataPath: path})
	if err != nil {
		t.Fatal(err)
	}
	e := startOn(t, srv1)
	seedAgents(t, e)
	op := e.create(t, "mcp-one", &agentregistry.Service{McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: googleapi.RawMessage(toolSpec)}})
	if _, err := e.ah.Projects.Locations.Applications.Workloads.Patch(parent+"/applications/a/workloads/w1",
		&apphub.Workload{DisplayName: "W"}).UpdateMask("displayName").Do(googleapi.QueryParameter("allowMissing", "true")); err != nil {
		t.Fatal(err)
	}
	const rid = "2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f"
	if _, err := e.ar.Projects.Locations.Services.Delete(parent + "/services/workshop-bot").RequestId(rid).Do(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ar.Projects.Locations.Bindings.Create(parent, binding(urnPlanner, urnFlights)).BindingId("kept").Do(); err != nil {
		t.Fatal(err)
	}
	e.close()
	if err := srv1.Close(); err != nil {
		t.Fatal(err)
	}

	srv2, err := registryserver.New(registryserver.Options{DataPath: path})
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, srv2)
	e2 := startOn(t, srv2)
	if got := strings.Join(searchIDs(t, e2, "travel"), " "); got != "flight-booker trip-planner" {
		t.Fatalf("index not rebuilt: %q", got)
	}
	if got := searchIDs(t, e2, "workshop"); len(got) != 0 {
		t.Fatalf("deleted agent came back: %v", got)
	}
	if _, err := e2.ar.Projects.Locations.McpServers.Get(parent + "/mcpServers/mcp-one").Do(); err != nil {
		t.Fatal(err)
	}
	if got, err := e2.ar.Projects.Locations.Operations.Get(op.Name).Do(); err != nil || !got.Done {
		t.Fatalf("operation lost: %v", err)
	}
	if _, err := e2.ah.Projects.Locations.Applications.Workloads.Get(parent + "/applications/a/workloads/w1").Do(); err != nil {
		t.Fatal(err)
	}
	if b, err := e2.ar.Projects.Locations.Bindings.Get(parent + "/bindings/kept").Do(); err != nil || b.Target.Identifier != urnFlights {
		t.Fatalf("binding after restart: %+v, %v", b, err)
	}
	// The request id survives too: the retried delete is not a 404.
	if _, err := e2.ar.Projects.Locations.Services.Delete(parent + "/services/workshop-bot").RequestId(rid).Do(); err != nil {
		t.Fatalf("retried delete after restart: %v", err)
	}
}

// TestConcurrentWritesAndSearches runs writers and searchers together (meant
// for -race): every created agent must be found afterwards.
func TestConcurrentWritesAndSearches(t *testing.T) {
	e := start(t, registryserver.Options{})
	const writers, each = 4, 10
	errc := make(chan error, writers*each+100)
	done := make(chan struct{})
	var searcher sync.WaitGroup
	searcher.Add(1)
	go func() {
		defer searcher.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			if _, err := e.ar.Projects.Locations.Agents.Search(parent, &agentregistry.SearchAgentsRequest{SearchString: "skills.tags:shared OR conc*"}).Do(); err != nil {
				errc <- err
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				id := fmt.Sprintf("conc-%d-%d", w, i)
				if _, err := e.ar.Projects.Locations.Services.Create(parent, agentService("Concurrent "+id, "Concurrency test.",
					skill{id: "s", name: "S", desc: "D", tags: []string{"shared"}})).ServiceId(id).Do(); err != nil {
					errc <- err
				}
			}
		}()
	}
	wg.Wait()
	close(done)
	searcher.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	if got := searchIDs(t, e, "skills.tags:shared"); len(got) != writers*each {
		t.Fatalf("found %d agents, want %d", len(got), writers*each)
	}
}
