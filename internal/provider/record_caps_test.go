package provider

// What a read keeps of one record is capped (record_caps.go): every resource's
// refresh and every list resource with include_resource refuse a record past
// the caps with an error that names the record and the cap, counted before
// the record's documents are parsed. The memory this saves is shown by
// BenchmarkHostileRegistryPages (its "registry record" cases).

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/apphub/v1"
	"google.golang.org/api/googleapi"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The count follows what the client decoded: an object counts one value and
// its fields, pointers are followed (a nil one counts one value), a document counts its JSON values and bytes, other
// bytes count as text, a map's keys as text, and what the client never
// decodes (json:"-": the answer's headers, the fields to send) not at all.
func TestRecordCaps_countWhatTheClientDecoded(t *testing.T) {
	type withHidden struct {
		Shown  []string
		Hidden []string `json:"-"`
		hidden []string
	}
	many := slices.Repeat([]string{"a"}, maxResultValues)
	for _, tc := range []struct {
		name           string
		record         any
		values, text   int64
		over, tooLarge bool
	}{
		{"a nil pointer is one value", (*agentregistry.Service)(nil), 1, 0, false, false},
		{"a document counts its JSON values and bytes", &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD",
			Content: googleapi.RawMessage(`{"skills":[{"id":"a"},{"id":"b"}]}`)}, 8, int64(len(`A2A_AGENT_CARD{"skills":[{"id":"a"},{"id":"b"}]}`)), false, false},
		{"a json.RawMessage too", json.RawMessage(`[1,2,3]`), 4, 7, false, false},
		{"other bytes are text", []byte("abc"), 1, 3, false, false},
		{"a map counts itself, its keys as text and its values", map[string]string{"ab": "cde"}, 2, 5, false, false},
		{"an interface is followed", []any{"ab", nil}, 3, 2, false, false},
		{"fields the client does not decode are left out", withHidden{Shown: []string{"a"}, Hidden: many, hidden: many}, 3, 1, false, false},
		{"a list past the values cap", &agentregistry.Binding{AuthProviderBinding: &agentregistry.AuthProviderBinding{Scopes: many}}, 0, 0, true, false},
		{"a document past the values cap", &agentregistry.McpServerSpec{
			Content: googleapi.RawMessage("[" + strings.Repeat("1,", maxResultValues) + "1]")}, 0, 0, true, false},
		{"a document past the text cap", &agentregistry.McpServerSpec{
			Content: googleapi.RawMessage(`"` + strings.Repeat("d", maxResultText) + `"`)}, 0, 0, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s resultSize
			s.addRecord(reflect.ValueOf(tc.record))
			if s.over() != tc.over {
				t.Fatalf("over = %v (%d values, %d bytes of text), want %v", s.over(), s.values, s.text, tc.over)
			}
			if !tc.over && (s.values != tc.values || s.text != tc.text) {
				t.Errorf("%d values and %d bytes of text, want %d and %d", s.values, s.text, tc.values, tc.text)
			}
			var diags diag.Diagnostics
			if withinRecordCaps(&diags, "projects/p/locations/l/services/s", tc.record) == tc.over {
				t.Fatalf("withinRecordCaps = %v, want %v", !tc.over, !tc.over)
			}
			if !tc.over {
				if diags.HasError() {
					t.Errorf("an error for a record within the caps: %v", diags)
				}
				return
			}
			passed := fmt.Sprintf("the cap of %d values per record", maxResultValues)
			if tc.tooLarge {
				passed = fmt.Sprintf("the cap of %d MiB of text per record", maxResultText>>20)
			}
			if msg := firstError(diags); !containsInOrder(msg, []string{"Registry Record Over the Record Cap",
				"Reading projects/p/locations/l/services/s stopped", passed, "nothing of it was kept", "terraform state rm"}) {
				t.Errorf("error %q does not name the record and %q", msg, passed)
			}
		})
	}
}

// oneRecordRegistry is a registry that answers every get with record (a
// skill revision's with revision, when there is one) and every list of
// services, bindings or skills with a page of it alone (the derived records'
// lists empty).
func oneRecordRegistry(t *testing.T, record, revision []byte) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch last := path.Base(r.URL.Path); {
		case revision != nil && strings.Contains(r.URL.Path, "/revisions/"):
			_, _ = w.Write(revision)
		case last == "services" || last == "bindings" || last == "skills":
			_, _ = fmt.Fprintf(w, `{%q:[%s]}`, last, record)
		case last == "agents" || last == "mcpServers" || last == "endpoints":
			_, _ = w.Write([]byte(`{}`))
		default:
			_, _ = w.Write(record)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// refreshRPC refreshes a resource of type typ whose state has the given
// string attributes (every other null), as `plan` does.
func refreshRPC(t *testing.T, s tfprotov6.ProviderServer, typ string, state map[string]string) []*tfprotov6.Diagnostic {
	t.Helper()
	vt := resourceSchemas(t, s)[typ].ValueType()
	set := map[string]tftypes.Value{}
	for name, v := range state {
		set[name] = tftypes.NewValue(tftypes.String, v)
	}
	resp, err := s.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{
		TypeName: typ, CurrentState: dynamicValue(t, vt, protoObject(t, vt, set))})
	if err != nil {
		t.Fatalf("ReadResource %s: %v", typ, err)
	}
	return resp.Diagnostics
}

// manySkillsCard is an A2A 0.3 card with n skills of an id each (two JSON
// values a skill).
func manySkillsCard(n int) []byte {
	skills := make([]string, n)
	for i := range skills {
		skills[i] = fmt.Sprintf(`{"id":"s%07d"}`, i)
	}
	return []byte(`{"name":"Huge","description":"d","version":"1.0.0","protocolVersion":"0.3.0","url":"https://huge.example/a2a",` +
		`"capabilities":{},"defaultInputModes":["text"],"defaultOutputModes":["text"],"skills":[` + strings.Join(skills, ",") + `]}`)
}

// Every resource's refresh and every list resource's results with
// include_resource refuse a record past the caps, naming it and the cap,
// whichever part of the record passes them: a card's skills, a tool spec's
// text, an endpoint's interfaces, a binding's scopes, a skill's description,
// App Hub's AgentProperties.
func TestHostileRegistry_recordsPastTheCapsAreRefused(t *testing.T) {
	svc := hostileParent + "/services/huge"
	workload := "projects/test-project/locations/global/applications/app/workloads/huge"
	record := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	values := fmt.Sprintf("the cap of %d values per record", maxResultValues)
	text := fmt.Sprintf("the cap of %d MiB of text per record", maxResultText>>20)
	interfaces := make([]*agentregistry.Interface, maxResultValues/3+1)
	for i := range interfaces {
		interfaces[i] = &agentregistry.Interface{Url: "https://e.example", ProtocolBinding: "HTTP_JSON"}
	}
	serviceState := map[string]string{"id": svc, "name": svc, "service_id": "huge", "project": "test-project", "location": "global"}
	for _, tc := range []struct {
		name, typ, cap, list string
		state                map[string]string
		record, revision     []byte
		// failing is the record named in the error, when not the state's.
		failing string
	}{
		{"an agent whose card has 110,000 skills", "agentregistry_agent", values, "agentregistry_agent", serviceState,
			record(&agentregistry.Service{Name: svc, AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: manySkillsCard(110_000)}}), nil, ""},
		{"an MCP server whose tool spec has 16 MiB of text", "agentregistry_mcp_server", text, "agentregistry_mcp_server", serviceState,
			record(&agentregistry.Service{Name: svc, McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC",
				Content: googleapi.RawMessage(`{"tools":[{"name":"t","description":"` + strings.Repeat("d", maxResultText) + `","inputSchema":{"type":"object"}}]}`)}}), nil, ""},
		{"an endpoint of 66,667 interfaces (three values each)", "agentregistry_endpoint", values, "agentregistry_endpoint", serviceState,
			record(&agentregistry.Service{Name: svc, EndpointSpec: &agentregistry.EndpointSpec{Type: "NO_SPEC"}, Interfaces: interfaces}), nil, ""},
		{"a binding of 200,000 scopes", "agentregistry_binding", values, "agentregistry_binding",
			map[string]string{"id": hostileParent + "/bindings/huge", "name": hostileParent + "/bindings/huge"},
			record(&agentregistry.Binding{Name: hostileParent + "/bindings/huge",
				AuthProviderBinding: &agentregistry.AuthProviderBinding{Scopes: slices.Repeat([]string{"a"}, maxResultValues)}}), nil, ""},
		{"a skill of a 16 MiB description", "agentregistry_skill", text, "agentregistry_skill",
			map[string]string{"id": hostileParent + "/skills/huge", "skill_id": "huge"},
			record(&agentregistry.Skill{Name: hostileParent + "/skills/huge", Description: strings.Repeat("d", maxResultText)}), nil, ""},
		{"a skill whose revision has 200,000 scan findings", "agentregistry_skill", values, "agentregistry_skill",
			map[string]string{"id": hostileParent + "/skills/huge", "skill_id": "huge"},
			record(&agentregistry.Skill{Name: hostileParent + "/skills/huge", DefaultRevision: hostileParent + "/skills/huge/revisions/rev-1"}),
			record(&agentregistry.SkillRevision{Name: hostileParent + "/skills/huge/revisions/rev-1",
				ScanResult: &agentregistry.ScanResult{Findings: slices.Repeat([]string{"f"}, maxResultValues)}}),
			hostileParent + "/skills/huge/revisions/rev-1"},
		{"App Hub's AgentProperties of 200,000 values", "agentregistry_agent_properties", values, "",
			map[string]string{"id": workload, "workload": workload, "properties": `{"displayName":"x"}`},
			record(&apphub.Workload{Name: workload, WorkloadProperties: &apphub.WorkloadProperties{ExtendedMetadata: map[string]apphub.ExtendedMetadata{
				registryclient.AgentPropertiesKey: {MetadataStruct: googleapi.RawMessage(`{"skills":[` + strings.Repeat(`"a",`, maxResultValues) + `"a"]}`)}}}}), nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			endpoint := oneRecordRegistry(t, tc.record, tc.revision)
			name := cmp.Or(tc.failing, tc.state["id"])
			want := []string{"Registry Record Over the Record Cap", "Reading " + name + " stopped", tc.cap}
			var errs []string
			for _, d := range refreshRPC(t, configuredServer(t, "test-project", endpoint), tc.typ, tc.state) {
				if d.Severity == tfprotov6.DiagnosticSeverityError {
					errs = append(errs, d.Summary+": "+d.Detail)
				}
			}
			if len(errs) != 1 || !containsInOrder(errs[0], want) {
				t.Errorf("refresh: errors %q, want the record cap", errs)
			}
			if tc.list == "" {
				return
			}
			if errs := errorsOf(newListRPC(t, endpoint).list(tc.list, nil, true, 10, 0)); len(errs) != 1 || !containsInOrder(errs[0], want) {
				t.Errorf("list with include_resource: errors %q, want the record cap", errs)
			}
			if errs := errorsOf(newListRPC(t, endpoint).list(tc.list, nil, false, 10, 0)); len(errs) != 0 {
				t.Errorf("list without include_resource keeps only the identity and display name, but: %q", errs)
			}
		})
	}
}

// An agent whose registry record is replaced behind Terraform's back by the
// card of 990,000 skills (17.8 MB, one answer inside the client's caps),
// through the CLIs: the refresh of `plan` (OpenTofu and Terraform), and a
// `terraform query` with include_resource (Terraform 1.14+), each fail with
// the record cap, naming the record, where they cost the provider 1.6 GB and
// 2.6 GB before (BenchmarkHostileRegistryPages).
func TestAccHostileRegistry_hugeRecordFailsRefreshAndQuery(t *testing.T) {
	r := startRegistry(t)
	name := testParent + "/services/probe-agent"
	var swapped atomic.Bool
	huge := sync.OnceValue(func() []byte {
		b, _ := json.Marshal(&agentregistry.Service{Name: name, RegistryResource: testParent + "/agents/probe-agent",
			AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: manySkillsCard(990_000)}})
		return b
	})
	target, _ := url.Parse(r.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch {
		case !swapped.Load() || req.Method != http.MethodGet:
			proxy.ServeHTTP(w, req)
		case req.URL.Path == "/v1/"+name:
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(huge())
		case req.URL.Path == "/v1/"+testParent+"/services":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(append(append([]byte(`{"services":[`), huge()...), "]}"...))
		default:
			proxy.ServeHTTP(w, req)
		}
	}))
	defer front.Close()

	cli := newCLIHarness(t)
	cli.write(t, "main.tf", exampleProviders+testkit.ProviderConfig(front.URL)+`
resource "agentregistry_agent" "probe" {
  service_id = "probe-agent"
  agent_card = jsonencode({
    name = "Probe", description = "Answers.", version = "1.0.0", protocolVersion = "0.3.0"
    url = "https://probe.example/a2a", capabilities = {}, defaultInputModes = ["text"], defaultOutputModes = ["text"]
    skills = [{ id = "answer", name = "Answer", description = "Answers.", tags = ["a"] }]
  })
}
`)
	cli.mustRun(t, "init", "-input=false")
	cli.mustRun(t, "apply", "-auto-approve", "-input=false")
	swapped.Store(true)

	refused := func(t *testing.T, args ...string) {
		t.Helper()
		out := cli.mustExit(t, 1, args...)
		diags := diagnostics(out, "Registry Record Over the Record Cap")
		if len(diags) != 1 || !containsInOrder(diags[0], []string{"error: Registry Record Over the Record Cap",
			"Reading " + name + " stopped", fmt.Sprintf("the caps of %d values and %d MiB of text per record", maxResultValues, maxResultText>>20)}) {
			t.Errorf("want the record cap once, got %q in:\n%s", diags, out)
		}
	}
	t.Run("refresh", func(t *testing.T) { refused(t, "plan", "-json", "-input=false") })
	t.Run("query", func(t *testing.T) {
		cli.requires(t, capQuery)
		cli.write(t, "all.tfquery.hcl", "list \"agentregistry_agent\" \"all\" {\n  provider         = agentregistry\n  include_resource = true\n}\n")
		refused(t, "query", "-json")
	})
}
