package provider

// The list resources at the protocol level (providerserver.NewProtocol6, no
// CLI), so that a run on OpenTofu alone, which has no `query`, still covers
// listing, paging, limits, filters and errors; and the registry every list
// test adopts, seeded through the official client.

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/registryservertest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
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
	vt := as[tftypes.Object](l.t, schema.ValueType())
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
	stream, err := as[tfprotov6.ListResourceServer](l.t, l.s).ListResource(context.Background(), &tfprotov6.ListResourceRequest{
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
	idType := as[tftypes.Object](l.t, l.identityType(typ))
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

// displayNames are the results' display names, in order.
func displayNames(results []listed) []string {
	var out []string
	for _, r := range results {
		out = append(out, r.display)
	}
	return out
}

// Each list resource lists the records of its own kind, each with its
// resource's identity and a display name (the display name, else the id);
// with include_resource, each result's resource is exactly the state a read
// after an import by that identity stores.
func TestListResources_listTheirOwnKindAsReadStoresIt(t *testing.T) {
	r := startRegistry(t)
	seedAdoptable(t, r)
	r.srv.ResetRequests()
	l := newListRPC(t, r.URL)
	displays := map[string][]string{
		"agentregistry_agent":      {"fx-agent", "Legacy Agent", "travel-agent"},
		"agentregistry_mcp_server": {"bare-mcp", "File Tools"},
		"agentregistry_endpoint":   {"Billing API"},
		"agentregistry_binding":    {"anyone-billing", "Planner to files"},
		"agentregistry_skill":      {"pdf-tools"},
	}
	for typ, want := range adoptable {
		t.Run(typ, func(t *testing.T) {
			without := l.list(typ, nil, false, 100, 0)
			if got := ids(without); !slices.Equal(got, want) || len(errorsOf(without)) > 0 {
				t.Fatalf("ids = %v, errors %v; want %v", got, errorsOf(without), want)
			}
			if got := displayNames(without); !slices.Equal(got, displays[typ]) {
				t.Errorf("display names = %q, want %q", got, displays[typ])
			}
			for _, res := range without {
				if res.identity["project"] != "test-project" || res.identity["location"] != "global" || !res.resource.IsNull() {
					t.Errorf("result %v: want the project and location in the identity and no resource", res.identity)
				}
			}
			with := l.list(typ, nil, true, 100, 0)
			if got := ids(with); !slices.Equal(got, want) {
				t.Fatalf("with include_resource: ids = %v, want %v", got, want)
			}
			for _, res := range with {
				if read := l.importAndRead(typ, res.identity); !read.Equal(res.resource) {
					t.Errorf("%v: the listed resource differs from what Read stores after an import:\n list %v\n read %v",
						res.identity, res.resource, read)
				}
			}
		})
	}
	r.expectNoWrites(t)
}

// servicePageRequests counts the services.list requests since the last reset.
func servicePageRequests(r *testRegistry) int {
	n := 0
	for _, req := range r.srv.Requests() {
		if req.Method == http.MethodGet && strings.HasSuffix(req.Path, "/services") {
			n++
		}
	}
	return n
}

// A list pages through the registry, honours the limit, and stops paging as
// soon as Terraform stops reading; a limit of 0 reads nothing.
func TestListResources_pagesHonourTheLimitAndStopWithTheReader(t *testing.T) {
	r := startRegistry(t)
	for i := range 230 {
		r.agent(fmt.Sprintf("agent-%03d", i), card03(fmt.Sprintf("Agent %d", i), "An agent.", "https://a.example.com",
			testSkill("s", "S", "A skill.", []string{"t"})))
		if i%50 == 0 { // other kinds between the agents, on every page
			r.mcpServer(fmt.Sprintf("agent-%03d-mcp", i), "", "", "https://m.example.com/mcp", []map[string]any{
				{"name": "t", "inputSchema": map[string]any{"type": "object"}}})
		}
	}
	l := newListRPC(t, r.URL)
	for _, tc := range []struct {
		name                      string
		include                   bool
		limit                     int64
		stopAfter, want, services int
	}{
		{"all, three pages", false, 1000, 0, 230, 3},
		{"all with resources", true, 1000, 0, 230, 3},
		{"limit 120", true, 120, 0, 120, 2},
		{"limit 5", false, 5, 0, 5, 1},
		{"reader stops after 5", true, 1000, 5, 5, 1},
		{"limit 0", false, 0, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.srv.ResetRequests()
			got := l.list("agentregistry_agent", nil, tc.include, tc.limit, tc.stopAfter)
			if len(got) != tc.want || len(errorsOf(got)) > 0 {
				t.Fatalf("%d results, errors %v; want %d", len(got), errorsOf(got), tc.want)
			}
			if n := servicePageRequests(r); n != tc.services {
				t.Errorf("%d services.list requests, want %d", n, tc.services)
			}
			if tc.include {
				for _, res := range got {
					if v, err := resourceAttr(res.resource, "agent_id"); err != nil || v == "" {
						t.Fatalf("%v: agent_id %q %v", res.identity, v, err)
					}
				}
			}
			for _, req := range r.srv.Requests() {
				if strings.Contains(req.Path, "/services/") || strings.Contains(req.Path, "/agents/") {
					t.Fatalf("a list must not read records one by one: %s %s", req.Method, req.Path)
				}
			}
		})
	}
}

// resourceAttr reads a string attribute of a resource object.
func resourceAttr(v tftypes.Value, name string) (string, error) {
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		return "", err
	}
	var s string
	err := attrs[name].As(&s)
	return s, err
}

// Bad input and a registry that refuses: each is one error diagnostic that
// says what to do, in the provider's words, and nothing is written.
func TestListResources_errorsAreDiagnosticsOfTheListBlock(t *testing.T) {
	r := startRegistry(t)
	seedAdoptable(t, r)
	r.srv.ResetRequests()
	l := newListRPC(t, r.URL)
	tooLong := strings.TrimSpace(strings.Repeat("word ", searchquery.MaxTerms+1))
	for _, tc := range []struct {
		name, typ string
		set       map[string]string
		limit     int64
		fault     *registryservertest.Fault
		want      []string
	}{
		{name: "unknown filter field", typ: "agentregistry_agent", set: map[string]string{"filter": "color:blue"},
			want: []string{"Invalid List Filter", `The registry refused the filter "color:blue" of the list of agents`, "color", "Nothing was listed."}},
		{name: "unknown binding filter field", typ: "agentregistry_binding", set: map[string]string{"filter": "color:blue"},
			want: []string{"Invalid List Filter", "of the list of bindings"}},
		{name: "unknown skill filter field", typ: "agentregistry_skill", set: map[string]string{"filter": "color:blue"},
			want: []string{"Invalid List Filter", "of the list of skills"}},
		{name: "query the registry refuses", typ: "agentregistry_mcp_server", set: map[string]string{"query": tooLong},
			want: []string{"Invalid Search Query", "of the list of MCP servers", "Fix the list block's query."}},
		{name: "negative limit", typ: "agentregistry_endpoint", limit: -1,
			want: []string{"Invalid List Limit", "at most -1 results; the limit must be 0 or more"}},
		{name: "project that does not exist", typ: "agentregistry_agent", set: map[string]string{"project": "no-such-project"},
			fault: &registryservertest.Fault{PathContains: "/projects/no-such-project/", Status: http.StatusNotFound},
			want:  []string{"Registry Location Not Found", "The registry has no projects/no-such-project/locations/global", "Check the list block's project and location"}},
		{name: "malformed project", typ: "agentregistry_skill", set: map[string]string{"project": "No_Such"},
			want: []string{"Cannot List Skills", "Could not list the skills of projects/No_Such/locations/global", "project"}},
		{name: "refused credentials", typ: "agentregistry_binding",
			fault: &registryservertest.Fault{PathContains: "/bindings", Status: http.StatusForbidden},
			want:  []string{"Cannot List Bindings", "The registry refused the credentials"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.fault != nil {
				r.srv.InjectFault(*tc.fault)
				defer r.srv.ClearFaults()
			}
			limit := tc.limit
			if limit == 0 {
				limit = 100
			}
			got := l.list(tc.typ, tc.set, true, limit, 0)
			errs := errorsOf(got)
			if len(got) != 1 || len(errs) != 1 {
				t.Fatalf("want exactly one result, the error; got %d results, errors %q", len(got), errs)
			}
			if !containsInOrder(errs[0], tc.want) {
				t.Errorf("error %q\nwant, in order: %q", errs[0], tc.want)
			}
		})
	}
	r.expectNoWrites(t)
}

// Nothing listening at the endpoint: the hint says what to start.
func TestListResources_unreachableRegistry(t *testing.T) {
	l := newListRPC(t, "http://127.0.0.1:1")
	errs := errorsOf(l.list("agentregistry_agent", nil, false, 10, 0))
	if len(errs) != 1 || !containsInOrder(errs[0], []string{"Cannot List Agents", "Nothing answered at the registry's address"}) {
		t.Errorf("errors = %q", errs)
	}
}

// A malformed or over-long query is refused before any request, by the
// list block's validation.
func TestListResources_queryCheckedBeforeAnyRequest(t *testing.T) {
	l := newListRPC(t, "http://127.0.0.1:1") // nothing is sent
	for _, tc := range []struct{ typ, query, want string }{
		{"agentregistry_agent", strings.TrimSpace(strings.Repeat("w ", searchquery.MaxTerms+1)), "terms"},
		{"agentregistry_agent", "skills.colour:red", "skills.colour"},
		{"agentregistry_mcp_server", "(tools.name:a", "position"},
		{"agentregistry_mcp_server", strings.Repeat("x", searchquery.MaxLength+1), "characters"},
	} {
		resp, err := as[tfprotov6.ListResourceServer](t, l.s).ValidateListResourceConfig(context.Background(),
			&tfprotov6.ValidateListResourceConfigRequest{TypeName: tc.typ, Config: l.config(tc.typ, map[string]string{"query": tc.query})})
		if err != nil || len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Summary != "Invalid Search Query" ||
			!strings.Contains(resp.Diagnostics[0].Detail, tc.want) || resp.Diagnostics[0].Attribute.String() != "AttributeName(\"query\")" {
			t.Errorf("%s %.40q: %v %v", tc.typ, tc.query, err, resp.Diagnostics)
		}
	}
}

// containsInOrder reports whether s holds each phrase, in order, with any
// whitespace between words.
func containsInOrder(s string, phrases []string) bool {
	s = strings.Join(strings.Fields(s), " ")
	for _, p := range phrases {
		p = strings.Join(strings.Fields(p), " ")
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return true
}

// recordIdentity is the identity check of a record in the test project.
func recordIdentity(idAttr, id string) map[string]knownvalue.Check {
	return map[string]knownvalue.Check{idAttr: knownvalue.StringExact(id),
		"project": knownvalue.StringExact("test-project"), "location": knownvalue.StringExact("global")}
}

// queryTest is `terraform query` of the list blocks against a registry
// seeded through the API (Terraform 1.14+: skipped, with the reason, on
// OpenTofu and older Terraform), with its checks.
func queryTest(t *testing.T, r *testRegistry, lists string, checks ...querycheck.QueryResultCheck) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capQuery),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{Config: r.config("")}, // the provider's configuration, which the query uses
			{Query: true, Config: lists, QueryResultChecks: checks},
		},
	})
}

// expectListed fails unless the list, with these config attributes, lists
// exactly the records with the ids want, in order, and no error.
func (l *listRPC) expectListed(t *testing.T, typ string, set map[string]string, include bool, want ...string) {
	t.Helper()
	got := l.list(typ, set, include, 100, 0)
	if ids := ids(got); !slices.Equal(ids, want) || len(errorsOf(got)) > 0 {
		t.Errorf("%s %v (include_resource %v): %v, errors %v; want %v", typ, set, include, ids, errorsOf(got), want)
	}
}
