package provider

// The list resources at the protocol level (providerserver.NewProtocol6, no
// CLI), so that a run on OpenTofu alone, which has no `query`, still covers
// listing, paging, limits, filters and errors; and the registry every list
// test adopts, seeded through the official client.

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"google.golang.org/api/agentregistry/v1"
)

// seedAdoptable fills a registry with one of everything a list adopts, made
// outside Terraform: agents with and without a card (one card with
// characters that jsonencode escapes and a number the registry keeps as a
// double), MCP servers with and without a tool spec, an endpoint, two
// bindings and a standalone skill.
func seedAdoptable(t *testing.T, r *testRegistry) {
	t.Helper()
	fx := card03("FX Desk", "Rates & quotes <live>, 24/7.", "https://agents.example.com/fx",
		testSkill("quote", "Quote", "Quotes a currency pair.", []string{"finance", "fx"}, "EUR/USD?"))
	fx["x-priority"] = 1.5e2
	r.agent("fx-agent", fx)
	r.agent("travel-agent", card10("Travel Planner", "Plans trips end to end.",
		[]string{"https://travel.example.com/a2a"},
		testSkill("book-flight", "Book a flight", "Books a flight.", []string{"travel"})))
	r.createService("legacy-agent", &agentregistry.Service{
		DisplayName: "Legacy Agent",
		Interfaces:  []*agentregistry.Interface{{Url: "https://legacy.example.com/a2a", ProtocolBinding: "JSONRPC"}},
		AgentSpec:   &agentregistry.AgentSpec{Type: "NO_SPEC"},
	})
	r.mcpServer("files-mcp", "File Tools", "Reads files.", "https://files.example.com/mcp", []map[string]any{
		{"name": "read_file", "description": "Reads a file.", "inputSchema": map[string]any{"type": "object"}},
	})
	r.createService("bare-mcp", &agentregistry.Service{
		Interfaces:    []*agentregistry.Interface{{Url: "https://bare.example.com/mcp", ProtocolBinding: "JSONRPC"}},
		McpServerSpec: &agentregistry.McpServerSpec{Type: "NO_SPEC"},
	})
	r.createService("billing-api", &agentregistry.Service{
		DisplayName:  "Billing API",
		Description:  "Invoices and payments.",
		Interfaces:   []*agentregistry.Interface{{Url: "https://billing.example.com/v1", ProtocolBinding: "HTTP_JSON"}},
		EndpointSpec: &agentregistry.EndpointSpec{Type: "NO_SPEC"},
	})
	r.binding("planner-files", &agentregistry.Binding{
		DisplayName: "Planner to files",
		Source:      &agentregistry.Source{Identifier: "urn:agent:acme:travel:planner"},
		Target:      &agentregistry.Target{Identifier: "urn:mcp:acme:tools:files"},
		AuthProviderBinding: &agentregistry.AuthProviderBinding{
			AuthProvider: testParent + "/authProviders/oauth", Scopes: []string{"files.read"}},
	})
	r.binding("anyone-billing", &agentregistry.Binding{Target: &agentregistry.Target{Identifier: "urn:endpoint:acme:pay:billing"}})
	seedStandaloneSkill(t, r, "pdf-tools", "Fills PDF forms.")
}

// adoptable is what seedAdoptable registered, by list resource type.
var adoptable = map[string][]string{
	"agentregistry_agent":      {"fx-agent", "legacy-agent", "travel-agent"},
	"agentregistry_mcp_server": {"bare-mcp", "files-mcp"},
	"agentregistry_endpoint":   {"billing-api"},
	"agentregistry_binding":    {"anyone-billing", "planner-files"},
	"agentregistry_skill":      {"pdf-tools"},
}

// binding registers a binding through the official client.
func (r *testRegistry) binding(id string, b *agentregistry.Binding) {
	r.t.Helper()
	op, err := r.api.Projects.Locations.Bindings.Create(testParent, b).BindingId(id).Context(context.Background()).Do()
	for err == nil && !op.Done {
		op, err = r.api.Projects.Locations.Operations.Get(op.Name).Do()
	}
	if err != nil || op.Error != nil {
		r.t.Fatalf("create binding %s: %v %v", id, err, op.Error)
	}
}

// listRPC is the provider served in process, configured for a registry.
type listRPC struct {
	t       *testing.T
	s       tfprotov6.ProviderServer
	schemas *tfprotov6.GetProviderSchemaResponse
}

func newListRPC(t *testing.T, endpoint string) *listRPC {
	t.Helper()
	s := configuredServer(t, "test-project", endpoint)
	schemas, err := s.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return &listRPC{t: t, s: s, schemas: schemas}
}

// listed is one result of a ListResource call.
type listed struct {
	display  string
	identity map[string]string
	resource tftypes.Value
	diags    []*tfprotov6.Diagnostic
}

// config is a list block's config with the given attributes set.
func (l *listRPC) config(typ string, set map[string]string) *tfprotov6.DynamicValue {
	l.t.Helper()
	schema, ok := l.schemas.ListResourceSchemas[typ]
	if !ok {
		l.t.Fatalf("no list resource schema for %s", typ)
	}
	vt := schema.ValueType().(tftypes.Object)
	attrs := map[string]tftypes.Value{}
	for name, at := range vt.AttributeTypes {
		attrs[name] = tftypes.NewValue(at, nil)
	}
	for name, v := range set {
		attrs[name] = tftypes.NewValue(tftypes.String, v)
	}
	return dynamicValue(l.t, vt, tftypes.NewValue(vt, attrs))
}

// list calls ListResource and reads up to stopAfter results (0: all).
func (l *listRPC) list(typ string, set map[string]string, include bool, limit int64, stopAfter int) []listed {
	l.t.Helper()
	stream, err := l.s.(tfprotov6.ProviderServerWithListResource).ListResource(context.Background(), &tfprotov6.ListResourceRequest{
		TypeName: typ, Config: l.config(typ, set), IncludeResource: include, Limit: limit,
	})
	if err != nil {
		l.t.Fatalf("ListResource %s: %v", typ, err)
	}
	var out []listed
	for res := range stream.Results {
		out = append(out, l.decode(typ, res))
		if stopAfter > 0 && len(out) == stopAfter {
			break
		}
	}
	return out
}

func (l *listRPC) decode(typ string, res tfprotov6.ListResourceResult) listed {
	l.t.Helper()
	got := listed{display: res.DisplayName, diags: res.Diagnostics, identity: map[string]string{}}
	if res.Identity != nil {
		v, err := res.Identity.IdentityData.Unmarshal(l.identityType(typ))
		if err != nil {
			l.t.Fatalf("identity: %v", err)
		}
		var attrs map[string]tftypes.Value
		if err := v.As(&attrs); err != nil {
			l.t.Fatal(err)
		}
		for k, a := range attrs {
			var s string
			_ = a.As(&s)
			got.identity[k] = s
		}
	}
	if res.Resource != nil {
		v, err := res.Resource.Unmarshal(l.schemas.ResourceSchemas[typ].ValueType())
		if err != nil {
			l.t.Fatalf("resource: %v", err)
		}
		got.resource = v
	}
	return got
}

func (l *listRPC) identityType(typ string) tftypes.Type {
	l.t.Helper()
	schemas, err := l.s.GetResourceIdentitySchemas(context.Background(), &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		l.t.Fatal(err)
	}
	return schemas.IdentitySchemas[typ].ValueType()
}

// importAndRead imports the record by identity and reads it, as `terraform
// plan` does for a generated import block: the state Read stores.
func (l *listRPC) importAndRead(typ string, identity map[string]string) tftypes.Value {
	l.t.Helper()
	idType := l.identityType(typ).(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for k := range idType.AttributeTypes {
		vals[k] = tftypes.NewValue(tftypes.String, identity[k])
	}
	imported, err := l.s.ImportResourceState(context.Background(), &tfprotov6.ImportResourceStateRequest{
		TypeName: typ, Identity: &tfprotov6.ResourceIdentityData{IdentityData: dynamicValue(l.t, idType, tftypes.NewValue(idType, vals))},
	})
	if err != nil || len(imported.Diagnostics) > 0 || len(imported.ImportedResources) != 1 {
		l.t.Fatalf("import %s %v: %v %v", typ, identity, err, imported.Diagnostics)
	}
	ir := imported.ImportedResources[0]
	read, err := l.s.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{
		TypeName: typ, CurrentState: ir.State, CurrentIdentity: ir.Identity,
	})
	if err != nil || len(read.Diagnostics) > 0 {
		l.t.Fatalf("read %s %v: %v %v", typ, identity, err, read.Diagnostics)
	}
	v, err := read.NewState.Unmarshal(l.schemas.ResourceSchemas[typ].ValueType())
	if err != nil {
		l.t.Fatal(err)
	}
	return v
}

// ids are the identities' ids (service_id, binding_id, skill_id), in order.
func ids(results []listed) []string {
	var out []string
	for _, r := range results {
		for k, v := range r.identity {
			if strings.HasSuffix(k, "_id") {
				out = append(out, v)
			}
		}
	}
	return out
}

// errorsOf are the error diagnostics of the results, as "summary: detail".
func errorsOf(results []listed) []string {
	var out []string
	for _, r := range results {
		for _, d := range r.diags {
			if d.Severity == tfprotov6.DiagnosticSeverityError {
				out = append(out, fmt.Sprintf("%s: %s", d.Summary, d.Detail))
			}
		}
	}
	return out
}
