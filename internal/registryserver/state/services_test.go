package state

// Services: what a create and an update check, what they store, and the
// records derived from them.

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
)

// An interface URL of exactly maxURILength bytes is taken; one byte more is
// refused, naming the field.
func TestInterfaceURLAtItsCap(t *testing.T) {
	s := open(t, Options{})
	plain := endpointService()
	plain.Interfaces = []*resource.Interface{{Url: "http://localhost:8080/a2a", ProtocolBinding: "JSONRPC"}}
	if _, err := s.CreateService("", parent, "plain-http", plain); err != nil {
		t.Errorf("an http:// interface URL: %v", err)
	}
	for extra, ok := range map[int]bool{0: true, 1: false} {
		u := "https://example.test/"
		u += strings.Repeat("a", maxURILength-len(u)+extra)
		svc := endpointService()
		svc.Interfaces = []*resource.Interface{{Url: u, ProtocolBinding: "HTTP_JSON"}}
		_, err := s.CreateService("", parent, "url-"+strconv.Itoa(len(u)), svc)
		if ok && err != nil {
			t.Errorf("an interface URL of %d bytes: %v", len(u), err)
		}
		if !ok {
			if _, named := violationsOf(t, err)["interfaces[0].url"]; !named {
				t.Errorf("an interface URL of %d bytes: %v, want interfaces[0].url named", len(u), err)
			}
		}
	}
}

// A service id follows its rule, and a service is checked whole: its
// lengths, exactly one spec, the spec's type and content, its interfaces.
// Nothing invalid is stored.
func TestServiceChecks(t *testing.T) {
	s := open(t, Options{})
	for _, id := range []string{"abc", "1abc", "Abcd", "ab_cd", strings.Repeat("a", 64), ""} {
		_, err := s.CreateService("", parent, id, endpointService())
		if _, ok := violationsOf(t, err)["service_id"]; !ok {
			t.Errorf("service id %q: no service_id violation", id)
		}
	}
	card := agentService("A", "B").AgentSpec.Content
	for name, c := range map[string]struct {
		svc   *resource.Service
		field string
	}{
		"long display name": {&resource.Service{DisplayName: strings.Repeat("x", 64), EndpointSpec: &resource.EndpointSpec{Type: "NO_SPEC"}}, "display_name"},
		"long description":  {&resource.Service{Description: strings.Repeat("x", 2049), EndpointSpec: &resource.EndpointSpec{Type: "NO_SPEC"}}, "description"},
		"no spec":           {&resource.Service{}, "agent_spec"},
		"two specs":         {&resource.Service{AgentSpec: &resource.AgentSpec{Type: "NO_SPEC"}, EndpointSpec: &resource.EndpointSpec{Type: "NO_SPEC"}}, "agent_spec"},
		"three specs": {&resource.Service{AgentSpec: &resource.AgentSpec{Type: "NO_SPEC"}, McpServerSpec: &resource.McpServerSpec{Type: "NO_SPEC"},
			EndpointSpec: &resource.EndpointSpec{Type: "NO_SPEC"}}, "agent_spec"},
		"card with interfaces": {&resource.Service{AgentSpec: &resource.AgentSpec{Type: "A2A_AGENT_CARD", Content: card},
			Interfaces: []*resource.Interface{{Url: "https://x.test", ProtocolBinding: "JSONRPC"}}}, "interfaces"},
		"bad type":                  {&resource.Service{McpServerSpec: &resource.McpServerSpec{Type: "A2A_AGENT_CARD"}}, "mcp_server_spec.type"},
		"missing content":           {&resource.Service{AgentSpec: &resource.AgentSpec{Type: "A2A_AGENT_CARD"}}, "agent_spec.content"},
		"null content":              {&resource.Service{AgentSpec: &resource.AgentSpec{Type: "A2A_AGENT_CARD", Content: json.RawMessage(" null ")}}, "agent_spec.content"},
		"content array":             {mcpService(`[1]`), "mcp_server_spec.content"},
		"content not JSON":          {mcpService(`{"tools":`), "mcp_server_spec.content"},
		"too big":                   {mcpService(`{"tools":[],"x":"` + strings.Repeat("a", 10300) + `"}`), "mcp_server_spec.content"},
		"invalid tool spec":         {mcpService(`{"tools":[{"name":"x"}]}`), "mcp_server_spec.content/tools/0"},
		"interface without binding": {&resource.Service{McpServerSpec: &resource.McpServerSpec{Type: "NO_SPEC"}, Interfaces: []*resource.Interface{{Url: "https://x.test"}}}, "interfaces[0].protocol_binding"},
		"unspecified binding": {&resource.Service{McpServerSpec: &resource.McpServerSpec{Type: "NO_SPEC"},
			Interfaces: []*resource.Interface{{Url: "https://x.test", ProtocolBinding: "PROTOCOL_BINDING_UNSPECIFIED"}}}, "interfaces[0].protocol_binding"},
		"unknown binding": {&resource.Service{McpServerSpec: &resource.McpServerSpec{Type: "NO_SPEC"},
			Interfaces: []*resource.Interface{{Url: "https://x.test", ProtocolBinding: "SOAP"}}}, "interfaces[0].protocol_binding"},
		"null interface": {&resource.Service{McpServerSpec: &resource.McpServerSpec{Type: "NO_SPEC"}, Interfaces: []*resource.Interface{nil}}, "interfaces[0]"},
		"javascript URL": {&resource.Service{McpServerSpec: &resource.McpServerSpec{Type: "NO_SPEC"},
			Interfaces: []*resource.Interface{{Url: "javascript:alert(1)", ProtocolBinding: "JSONRPC"}}}, "interfaces[0].url"},
		"URL without a host": {&resource.Service{McpServerSpec: &resource.McpServerSpec{Type: "NO_SPEC"},
			Interfaces: []*resource.Interface{{Url: "https:///path", ProtocolBinding: "JSONRPC"}}}, "interfaces[0].url"},
		"no URL": {&resource.Service{McpServerSpec: &resource.McpServerSpec{Type: "NO_SPEC"},
			Interfaces: []*resource.Interface{{ProtocolBinding: "GRPC"}}}, "interfaces[0].url"},
		"content without a spec":   {&resource.Service{EndpointSpec: &resource.EndpointSpec{Type: "NO_SPEC", Content: json.RawMessage(`{"tools":[]}`)}}, "endpoint_spec.content"},
		"endpoint of another type": {&resource.Service{EndpointSpec: &resource.EndpointSpec{Type: "TOOL_SPEC"}}, "endpoint_spec.type"},
		"bad card": {&resource.Service{AgentSpec: &resource.AgentSpec{Type: "A2A_AGENT_CARD", Content: json.RawMessage(`{"protocolVersion":"0.3.0","name":"A","description":"B","version":"1","url":"https://a.test",
			"capabilities":{},"defaultInputModes":[],"defaultOutputModes":[],"skills":[{"id":"s","name":"S","description":"D","tags":"billing"}]}`)}}, "agent_spec.content/skills/0/tags"},
	} {
		_, err := s.CreateService("", parent, "valid-id", c.svc)
		if _, ok := violationsOf(t, err)[c.field]; !ok {
			t.Errorf("%s: violations %v, want one on %s", name, violationsOf(t, err), c.field)
		}
		wantCode(t, err, InvalidArgument, "invalid service: "+c.field)
	}
	if l, _, err := s.ListServices(context.Background(), parent, nil, nil, 100); err != nil || len(l) != 0 {
		t.Fatalf("invalid creates left %d services (%v)", len(l), err)
	}
}

// Each limit is taken at its value and refused one past it, by name.
func TestServiceFieldLimits(t *testing.T) {
	s := open(t, Options{})
	interfaces := func(n int) []*resource.Interface {
		out := make([]*resource.Interface, n)
		for i := range out {
			out[i] = &resource.Interface{Url: fmt.Sprintf("https://a.example.test/%d", i), ProtocolBinding: "JSONRPC"}
		}
		return out
	}
	// toolSpec of exactly n compact bytes: one tool whose description pads it.
	toolSpecOf := func(n int) string {
		base := `{"tools":[{"description":"","inputSchema":{"type":"object"},"name":"t"}]}`
		return strings.Replace(base, `"description":""`, `"description":"`+strings.Repeat("d", n-len(base))+`"`, 1)
	}
	endpoint := func(set func(*resource.Service)) *resource.Service {
		svc := endpointService()
		svc.Interfaces = interfaces(1)
		set(svc)
		return svc
	}
	for i, c := range []struct {
		name  string
		svc   *resource.Service
		field string // the one field violation; "" when the service is stored
	}{
		{"display name of 63 characters", endpoint(func(s *resource.Service) { s.DisplayName = strings.Repeat("é", 63) }), ""},
		{"display name of 64 characters", endpoint(func(s *resource.Service) { s.DisplayName = strings.Repeat("é", 64) }), "display_name"},
		{"description of 2048 characters", endpoint(func(s *resource.Service) { s.Description = strings.Repeat("é", 2048) }), ""},
		{"description of 2049 characters", endpoint(func(s *resource.Service) { s.Description = strings.Repeat("é", 2049) }), "description"},
		{"32 interfaces", endpoint(func(s *resource.Service) { s.Interfaces = interfaces(32) }), ""},
		{"33 interfaces", endpoint(func(s *resource.Service) { s.Interfaces = interfaces(33) }), "interfaces"},
		{"tool spec of 10240 bytes", mcpService(toolSpecOf(10240)), ""},
		{"tool spec of 10241 bytes", mcpService(toolSpecOf(10241)), "mcp_server_spec.content"},
	} {
		_, err := s.CreateService("", parent, fmt.Sprintf("limit-%02d", i), c.svc)
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.field == "":
		case err == nil:
			t.Errorf("%s: stored, want a violation of %s", c.name, c.field)
		default:
			if v := violationsOf(t, err); len(v) != 1 || v[c.field] == "" {
				t.Errorf("%s: violations %v, want one of %s", c.name, v, c.field)
			}
		}
	}
}

// A missing or wrong spec type names the types the spec allows.
func TestServiceSpecTypeMessages(t *testing.T) {
	s := open(t, Options{})
	for typ, want := range map[string]string{
		"":                 "is required: one of NO_SPEC, TOOL_SPEC",
		"TYPE_UNSPECIFIED": "is required: one of NO_SPEC, TOOL_SPEC",
		"A2A_AGENT_CARD":   `must be one of NO_SPEC, TOOL_SPEC, got "A2A_AGENT_CARD"`,
	} {
		_, err := s.CreateService("", parent, "typed", &resource.Service{McpServerSpec: &resource.McpServerSpec{Type: typ}})
		if got := violationsOf(t, err)["mcp_server_spec.type"]; got != want {
			t.Errorf("type %q: %q, want %q", typ, got, want)
		}
	}
}

// A service's document is stored in its normal form: compact, keys sorted.
func TestServiceContentIsStoredNormalised(t *testing.T) {
	s := open(t, Options{})
	view(t)(s.CreateService("", parent, "normalised", mcpService("{ \"tools\": [ {\"name\": \"t\", \"inputSchema\": {\"type\": \"object\"}} ] }")))
	got, err := s.Service(parent + "/services/normalised")
	if want := `{"tools":[{"inputSchema":{"type":"object"},"name":"t"}]}`; err != nil || string(got.McpServerSpec.Content) != want {
		t.Errorf("stored content %s (%v), want %s", got.McpServerSpec.Content, err, want)
	}
}

// Without a mask, the fields present in the update are the mask; the field
// a mask names takes its value from the same field of the update, never
// from another spec it carries; the spec type is immutable; output-only
// and unknown fields are refused by name; a refused update changes nothing.
func TestServiceUpdates(t *testing.T) {
	s := open(t, Options{})
	name := parent + "/services/flights"
	svc := mcpService(toolSpec)
	svc.DisplayName, svc.Description = "Flights", "Books flights."
	svc.Interfaces = []*resource.Interface{{Url: "https://flights.example.test/mcp", ProtocolBinding: "JSONRPC"}}
	view(t)(s.CreateService("", parent, "flights", svc))
	update := func(mask string, in *resource.Service) *resource.Service {
		t.Helper()
		view(t)(s.UpdateService("", name, mask, in))
		got, err := s.Service(name)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := update("", &resource.Service{Description: "Books and changes flights."}); got.Description != "Books and changes flights." || got.DisplayName != "Flights" || len(got.Interfaces) != 1 {
		t.Fatalf("description update: %+v", got)
	}
	if got := update("", &resource.Service{DisplayName: "Flight desk"}); got.DisplayName != "Flight desk" || got.Description != "Books and changes flights." {
		t.Fatalf("display name update: %+v", got)
	}
	if got := update("", &resource.Service{Interfaces: []*resource.Interface{{Url: "https://flights.example.test/v2", ProtocolBinding: "HTTP_JSON"}}}); len(got.Interfaces) != 1 || got.Interfaces[0].Url != "https://flights.example.test/v2" {
		t.Fatalf("interfaces update: %+v", got)
	}
	oneTool := `{"tools":[{"name":"book","inputSchema":{"type":"object"}}]}`
	if got := update("", mcpService(oneTool)); !strings.Contains(string(got.McpServerSpec.Content), `"book"`) || got.DisplayName != "Flight desk" {
		t.Fatalf("spec update: %+v", got)
	}
	if got := update("displayName,description", &resource.Service{DisplayName: "Desk"}); got.DisplayName != "Desk" || got.Description != "" {
		t.Fatalf("a mask clears what the update leaves out: %+v", got)
	}
	if got := update("mcpServerSpec.content", mcpService(toolSpec)); !strings.Contains(string(got.McpServerSpec.Content), "get_invoice") {
		t.Fatalf("content update: %+v", got)
	}
	if got := update("mcp_server_spec.type", mcpService(oneTool)); !strings.Contains(string(got.McpServerSpec.Content), "get_invoice") {
		t.Fatalf("a type update leaves the content: %+v", got)
	}
	if got := update("*", &resource.Service{DisplayName: "All", McpServerSpec: &resource.McpServerSpec{Type: "TOOL_SPEC", Content: json.RawMessage(oneTool)}}); got.DisplayName != "All" || got.Interfaces != nil || got.Description != "" {
		t.Fatalf("* updates every field: %+v", got)
	}
	before, _ := s.Service(name)
	for _, c := range []struct {
		mask, field, why string
		in               *resource.Service
	}{
		{"", "endpoint_spec", "the spec type is immutable", &resource.Service{EndpointSpec: &resource.EndpointSpec{Type: "NO_SPEC"}}},
		{"mcpServerSpec.content", "mcp_server_spec.content", "the request has no mcp_server_spec", &resource.Service{AgentSpec: &resource.AgentSpec{Type: "A2A_AGENT_CARD", Content: json.RawMessage(oneTool)}}},
		{"mcpServerSpec", "mcp_server_spec", "missing from the request; it cannot be removed", &resource.Service{}},
		{"mcpServerSpec.type", "mcp_server_spec.type", `it is TOOL_SPEC and cannot be changed to "NO_SPEC"`, &resource.Service{McpServerSpec: &resource.McpServerSpec{Type: "NO_SPEC"}}},
		{"createTime", "create_time", "is output only or immutable", &resource.Service{}},
		{"registry_resource", "registry_resource", "is output only or immutable", &resource.Service{}},
		{"colour", "colour", "is not a field of Service that can be updated", &resource.Service{}},
		{"displayName", "display_name", "must be at most 63 characters", &resource.Service{DisplayName: strings.Repeat("x", 64)}},
	} {
		_, err := s.UpdateService("", name, c.mask, c.in)
		if v := violationsOf(t, err); !strings.Contains(v[c.field], c.why) {
			t.Errorf("mask %q: violations %v, want %s: %s", c.mask, v, c.field, c.why)
		}
	}
	if after, _ := s.Service(name); after.UpdateTime != before.UpdateTime || string(after.McpServerSpec.Content) != string(before.McpServerSpec.Content) {
		t.Errorf("a refused update changed the service: %+v", after)
	}
	_, err := s.UpdateService("", parent+"/services/none", "", &resource.Service{})
	wantCode(t, err, NotFound, "Service")
	_, err = s.DeleteService("", parent+"/services/none")
	wantCode(t, err, NotFound, "Service")
}

// getDerived decodes the derived record name of kind k into v.
func getDerived(t *testing.T, s *State, k DerivedKind, name string, v any) {
	t.Helper()
	b, err := s.Derived(k, name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// Each service derives one record, named by the service's id, with a URN
// for an id, a uid, the service's times and a RuntimeReference attribute:
// an agent from its card (name, description, version, skills, protocol
// with the card's interfaces and their bindings), or from its interfaces
// without one; an MCP server with its tools and every annotation hint; an
// endpoint with its interfaces. An update derives it again, a delete takes
// it away.
func TestDerivedRecords(t *testing.T) {
	s := open(t, Options{})
	card := `{"protocolVersion":"0.3.0","name":"Planner","description":"Plans trips.","version":"2.0.0","url":"https://p.test/rpc",
	 "preferredTransport":"GRPC","additionalInterfaces":[{"url":"https://p.test/rest","transport":"HTTP+JSON"},{"url":"https://p.test/rpc","transport":"JSONRPC"}],
	 "capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
	 "skills":[{"id":"plan","name":"Plan","description":"Plans.","tags":["travel"],"examples":["Plan Rome"]}]}`
	view(t)(s.CreateService("", parent, "planner", &resource.Service{DisplayName: "P", AgentSpec: &resource.AgentSpec{Type: "A2A_AGENT_CARD", Content: json.RawMessage(card)}}))
	var a resource.Agent
	getDerived(t, s, KindAgent, parent+"/agents/planner", &a)
	if a.AgentId != "urn:agent:projects-p1:projects:p1:locations:global:agentregistry:services:planner" || a.DisplayName != "Planner" || a.Description != "Plans trips." ||
		a.Version != "2.0.0" || a.Location != "global" || len(a.Skills) != 1 || a.Skills[0].Id != "plan" || a.Skills[0].Examples[0] != "Plan Rome" ||
		a.Card == nil || a.Uid == "" || a.CreateTime == "" || len(a.Protocols) != 1 || a.Protocols[0].Type != "A2A_AGENT" || a.Protocols[0].ProtocolVersion != "0.3.0" {
		t.Fatalf("agent %+v", a)
	}
	bindings := map[string]string{}
	for _, in := range a.Protocols[0].Interfaces {
		bindings[in.Url] = in.ProtocolBinding
	}
	if bindings["https://p.test/rpc"] != "GRPC" || bindings["https://p.test/rest"] != "HTTP_JSON" {
		t.Errorf("agent interfaces %v", bindings)
	}
	if ref := string(a.Attributes[runtimeReferenceKey]); ref != `{"uri":"//agentregistry.googleapis.com/`+parent+`/services/planner"}` {
		t.Errorf("runtime reference %s", ref)
	}
	view(t)(s.CreateService("", parent, "legacy", &resource.Service{DisplayName: "Legacy", AgentSpec: &resource.AgentSpec{Type: "NO_SPEC"},
		Interfaces: []*resource.Interface{{Url: "https://legacy.test/rpc", ProtocolBinding: "GRPC"}}}))
	a = resource.Agent{}
	getDerived(t, s, KindAgent, parent+"/agents/legacy", &a)
	if a.Card != nil || a.DisplayName != "Legacy" || len(a.Protocols) != 1 || a.Protocols[0].Type != "CUSTOM" || a.Protocols[0].Interfaces[0].ProtocolBinding != "GRPC" {
		t.Errorf("agent without a card %+v", a)
	}
	view(t)(s.CreateService("", parent, "bare", &resource.Service{AgentSpec: &resource.AgentSpec{Type: "NO_SPEC"}}))
	a = resource.Agent{}
	getDerived(t, s, KindAgent, parent+"/agents/bare", &a)
	if a.Card != nil || len(a.Protocols) != 0 {
		t.Errorf("an agent without a card or interfaces: %+v", a)
	}
	view(t)(s.CreateService("", parent, "invoices", mcpService(toolSpec)))
	var m resource.McpServer
	getDerived(t, s, KindMCP, parent+"/mcpServers/invoices", &m)
	if m.McpServerId != "urn:mcp:projects-p1:projects:p1:locations:global:agentregistry:services:invoices" || len(m.Tools) != 2 || m.Tools[0].Name != "get_invoice" ||
		m.Tools[0].Annotations == nil || !m.Tools[0].Annotations.ReadOnlyHint || m.Tools[0].Annotations.Title != "Get invoice" {
		t.Fatalf("MCP server %+v", m)
	}
	if del := m.Tools[1].Annotations; del == nil || !del.DestructiveHint || !del.OpenWorldHint || del.ReadOnlyHint || del.IdempotentHint {
		t.Errorf("a tool without annotations has the MCP defaults (destructive, open world): %+v", del)
	}
	if raw, _ := s.Derived(KindMCP, parent+"/mcpServers/invoices"); !strings.Contains(string(raw), `"idempotentHint":false`) {
		t.Errorf("a false hint is not sent: %s", raw)
	}
	ep := endpointService()
	ep.Interfaces = []*resource.Interface{{Url: "https://billing.test", ProtocolBinding: "HTTP_JSON"}}
	view(t)(s.CreateService("", parent, "billing", ep))
	var e resource.Endpoint
	getDerived(t, s, KindEndpoint, parent+"/endpoints/billing", &e)
	if e.EndpointId != "urn:endpoint:projects-p1:projects:p1:locations:global:agentregistry:services:billing" || len(e.Interfaces) != 1 {
		t.Fatalf("endpoint %+v", e)
	}
	for _, k := range []DerivedKind{KindAgent, KindMCP, KindEndpoint} {
		if _, err := s.Derived(k, parent+"/"+k.Collection()+"/none"); err == nil || !strings.Contains(err.Error(), k.Title()+` "`) {
			t.Errorf("a missing %s: %v", k.Title(), err)
		}
	}
	// An A2A 1.0 card, in ProtoJSON's proto field names, gives its own
	// protocol version and bindings.
	ledger := `{"name": "Ledger", "description": "Keeps the ledger.", "version": "1.0.0",
	  "supported_interfaces": [{"url": "https://agents.example.test/ledger", "protocol_binding": "GRPC", "protocol_version": "1.0"}],
	  "default_input_modes": ["text/plain"],
	  "skills": [{"id": "post", "name": "Post an entry", "description": "Posts a ledger entry.", "tags": ["ledger"]}]}`
	view(t)(s.CreateService("", parent, "ledger", &resource.Service{AgentSpec: &resource.AgentSpec{Type: "A2A_AGENT_CARD", Content: json.RawMessage(ledger)}}))
	a = resource.Agent{}
	getDerived(t, s, KindAgent, parent+"/agents/ledger", &a)
	if len(a.Protocols) != 1 || a.Protocols[0].ProtocolVersion != "1.0" || len(a.Protocols[0].Interfaces) != 1 ||
		a.Protocols[0].Interfaces[0].Url != "https://agents.example.test/ledger" || a.Protocols[0].Interfaces[0].ProtocolBinding != "GRPC" || a.Skills[0].Id != "post" {
		t.Errorf("an agent of a 1.0 card: %+v", a)
	}
	for filter, want := range map[string]int{"interfaces.url:billing": 1, "interfaces.protocolBinding=HTTP_JSON": 1, "interfaces.transport=GRPC": 0} {
		node, err := search.ParseQuery(filter, KindEndpoint.Fields())
		if err != nil {
			t.Fatal(err)
		}
		if ids, _, err := s.Snapshot(KindEndpoint, parent).Page(context.Background(), node, nil, nil, 10); err != nil || len(ids) != want {
			t.Errorf("endpoints %s: %d (%v), want %d", filter, len(ids), err, want)
		}
	}
	// An update derives the record again, and its index follows.
	view(t)(s.UpdateService("", parent+"/services/billing", "displayName", &resource.Service{DisplayName: "Billing desk"}))
	e = resource.Endpoint{}
	getDerived(t, s, KindEndpoint, parent+"/endpoints/billing", &e)
	node, _ := search.ParseQuery("desk", KindEndpoint.Fields())
	if ids, _, err := s.Snapshot(KindEndpoint, parent).Page(context.Background(), node, nil, nil, 10); e.DisplayName != "Billing desk" || err != nil || len(ids) != 1 {
		t.Errorf("the endpoint after an update: %+v, found by its new name %d times (%v)", e, len(ids), err)
	}
	view(t)(s.DeleteService("", parent+"/services/billing"))
	if _, err := s.Derived(KindEndpoint, parent+"/endpoints/billing"); err == nil {
		t.Error("the endpoint of a deleted service is still there")
	}
	if ids, _, _ := s.Snapshot(KindEndpoint, parent).Page(context.Background(), nil, nil, nil, 10); len(ids) != 0 {
		t.Errorf("the endpoint of a deleted service is still found: %v", ids)
	}
	// The kinds order by their own fields; endpoints by none.
	if !slices.Contains(KindAgent.OrderFields(), "version") || slices.Contains(KindMCP.OrderFields(), "version") || KindEndpoint.OrderFields() != nil {
		t.Errorf("order fields: agents %v, MCP servers %v, endpoints %v", KindAgent.OrderFields(), KindMCP.OrderFields(), KindEndpoint.OrderFields())
	}
}

// Every derived record, whatever its kind, carries the same header: its
// name and URN from the service id, the RuntimeReference attribute naming
// the service, and the service's display name, description and times.
func TestDerivedRecords_carryTheServiceHeader(t *testing.T) {
	s := open(t, Options{})
	agent := &resource.Service{AgentSpec: &resource.AgentSpec{Type: "NO_SPEC"}}
	for k, svc := range map[DerivedKind]*resource.Service{KindAgent: agent, KindMCP: mcpService(toolSpec), KindEndpoint: endpointService()} {
		id := strings.ToLower(k.Title()) + "-header"
		svc.DisplayName, svc.Description = k.Title()+" header", "Carries the header of a "+k.Title()+"."
		view(t)(s.CreateService("", parent, id, svc))
		stored, err := s.Service(parent + "/services/" + id)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		getDerived(t, s, k, parent+"/"+k.Collection()+"/"+id, &got)
		idField := map[DerivedKind]string{KindAgent: "agentId", KindMCP: "mcpServerId", KindEndpoint: "endpointId"}[k]
		want := map[string]any{
			"name": parent + "/" + k.Collection() + "/" + id, idField: recordURN(k, parent, id),
			"displayName": svc.DisplayName, "description": svc.Description,
			"createTime": stored.CreateTime, "updateTime": stored.UpdateTime,
			"attributes": map[string]any{runtimeReferenceKey: map[string]any{"uri": "//agentregistry.googleapis.com/" + stored.Name}},
		}
		for f, w := range want {
			if !reflect.DeepEqual(got[f], w) {
				t.Errorf("%s %s: %s = %v, want %v", k.Title(), id, f, got[f], w)
			}
		}
	}
}
