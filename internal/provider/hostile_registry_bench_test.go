package provider

// The registry cases of BenchmarkHostileLiveDocuments: a registry
// that pages without end, read by a data source and by a `terraform query`
// list with include_resource, each in a process of its own whose peak RSS
// is printed beside the live documents' cases.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
)

func registryHostileCases() []hostileCase {
	serve := func(page func(n int64) (int, int, string)) func(b *testing.B) string {
		return func(b *testing.B) string {
			srv := httptest.NewServer(&hostilePages{page: page})
			b.Cleanup(srv.Close)
			return srv.URL
		}
	}
	full := func(n int64) (int, int, string) { return 100, 8 << 10, fmt.Sprint("t", n) }
	empty := func(n int64) (int, int, string) { return 0, 0, fmt.Sprint("t", n) }
	huge := func(n int64) (int, int, string) { return 0, 0, fmt.Sprint(n, strings.Repeat("t", 256<<10)) }
	agents := func(ctx context.Context, url string) string {
		return rpcRead(ctx, url, "agentregistry_agents", false)
	}
	query := func(ctx context.Context, url string) string {
		return rpcRead(ctx, url, "agentregistry_agent", true)
	}
	return []hostileCase{
		{"registry: endless full pages, agents data source", serve(full), agents},
		{"registry: endless full pages, query of agents", serve(full), query},
		{"registry: endless empty pages, agents data source", serve(empty), agents},
		{"registry: endless empty pages, query of agents", serve(empty), query},
		{"registry: 256 KB page tokens, agents data source", serve(huge), agents},
	}
}

// rpcObject is an object of type t with the string attributes set, every
// other null.
func rpcObject(t tftypes.Type, set map[string]string) (*tfprotov6.DynamicValue, error) {
	ot, _ := t.(tftypes.Object)
	attrs := map[string]tftypes.Value{}
	for name, at := range ot.AttributeTypes {
		attrs[name] = tftypes.NewValue(at, nil)
	}
	for name, v := range set {
		attrs[name] = tftypes.NewValue(tftypes.String, v)
	}
	dv, err := tfprotov6.NewDynamicValue(ot, tftypes.NewValue(ot, attrs))
	return &dv, err
}

// rpcProvider is the provider's protocol server configured for the registry
// at url, and its schemas.
func rpcProvider(ctx context.Context, url string) (tfprotov6.ProviderServer, *tfprotov6.GetProviderSchemaResponse, error) {
	s := providerserver.NewProtocol6(New("test")())()
	schemas, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return nil, nil, err
	}
	cfg, err := rpcObject(schemas.Provider.ValueType(), map[string]string{"endpoint": url, "project": "test-project"})
	if err == nil {
		_, err = s.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.16.0", Config: cfg})
	}
	return s, schemas, err
}

// firstRPCError is the summary and detail of the first error, or "".
func firstRPCError(diags []*tfprotov6.Diagnostic) string {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return d.Summary + ": " + d.Detail
		}
	}
	return ""
}

// rpcRefresh refreshes the agent state (its string attributes) against the
// registry at url, as `plan` does, and returns the first error.
func rpcRefresh(ctx context.Context, url string, state map[string]string) string {
	s, schemas, err := rpcProvider(ctx, url)
	if err != nil {
		return err.Error()
	}
	dv, err := rpcObject(schemas.ResourceSchemas["agentregistry_agent"].ValueType(), state)
	if err != nil {
		return err.Error()
	}
	resp, err := s.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: "agentregistry_agent", CurrentState: dv})
	if err != nil {
		return err.Error()
	}
	return firstRPCError(resp.Diagnostics)
}

// rpcRead configures the provider for the registry at url and reads the
// agents data source (query "x"), or lists typ with include_resource and no
// limit Terraform would stop at; it returns the first error's summary and
// detail.
func rpcRead(ctx context.Context, url, typ string, list bool) string {
	s, schemas, err := rpcProvider(ctx, url)
	if err != nil {
		return err.Error()
	}
	object, first := rpcObject, firstRPCError
	if !list {
		dv, err := object(schemas.DataSourceSchemas[typ].ValueType(), map[string]string{"query": "x"})
		if err != nil {
			return err.Error()
		}
		resp, err := s.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: typ, Config: dv})
		if err != nil {
			return err.Error()
		}
		return first(resp.Diagnostics)
	}
	dv, err := object(schemas.ListResourceSchemas[typ].ValueType(), nil)
	if err != nil {
		return err.Error()
	}
	lister, ok := s.(tfprotov6.ListResourceServer)
	if !ok {
		return "the provider serves no list resources"
	}
	stream, err := lister.ListResource(ctx, &tfprotov6.ListResourceRequest{TypeName: typ, Config: dv, IncludeResource: true, Limit: 1 << 40})
	if err != nil {
		return err.Error()
	}
	for res := range stream.Results {
		if msg := first(res.Diagnostics); msg != "" {
			return msg
		}
	}
	return ""
}

// BenchmarkHostileRegistryPages measures what one page of the registry costs
// the provider, far inside the byte cap: each case serves one page (no next
// page) to agents:search and reads agentregistry_agents in a process of its
// own, whose peak RSS is printed with its ratio to the page's size over a
// baseline (a page of one small record, read in the same run):
//
//	go test ./internal/provider -run '^$' -bench HostileRegistryPages -benchtime 1x
//
// A page's cost follows what the provider keeps: records and values, each of
// which becomes Terraform values of hundreds of bytes. The caps of records
// and JSON values per read (registryclient.PageLimits) bound it; a page past
// them is refused before it is decoded.
func BenchmarkHostileRegistryPages(b *testing.B) {
	cases := registryPageCases()
	all := make([]hostileCase, len(cases))
	for i, c := range cases {
		all[i] = c.hostileCase
	}
	if runHostileCaseHere(all) {
		return
	}
	var baseline float64
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			peak, took, msg := runHostileChild(b, "BenchmarkHostileRegistryPages", c.hostileCase)
			mib := float64(len(c.body())) / (1 << 20)
			if baseline == 0 {
				baseline = peak
			}
			b.ReportMetric(peak, "peak-RSS-MB")
			b.ReportMetric((peak-baseline)/mib, "MB-per-page-MiB")
			fmt.Printf("%-50s %6.2f MiB  peak RSS %5.0f MB (+%4.0f, %6.1f x the page)  in %-8s %.110s\n",
				c.name, mib, peak, peak-baseline, (peak-baseline)/mib, took, msg)
		})
	}
}

// registryPageCase is a page the registry answers with; its body is built
// once, when the parent serves it (the child, which reads it, never does).
type registryPageCase struct {
	hostileCase
	body func() []byte
}

// registryPageCases are the pages of BenchmarkHostileRegistryPages, the
// baseline first: pages of one huge record, pages past the caps (refused),
// and the largest page of each shape that a read keeps (its result just
// within the caps of data_source_result_caps.go), the costliest reads the
// caps let through; then one agent's record read by a refresh and by a
// `terraform query` with include_resource: past the caps of a record
// (record_caps.go) and at them.
func registryPageCases() []registryPageCase {
	text := func(n int) []map[string]any { return []map[string]any{{"description": strings.Repeat("d", n)}} }
	tags := func(n int) []map[string]any {
		return []map[string]any{{"skills": []any{map[string]any{"id": "s", "tags": slices.Repeat([]string{"a"}, n)}}}}
	}
	emptySkills := func(n int) []map[string]any {
		return []map[string]any{{"skills": slices.Repeat([]any{map[string]any{}}, n)}}
	}
	records := func(n int) []map[string]any {
		out := make([]map[string]any, n)
		for i := range out {
			out[i] = map[string]any{"agentId": fmt.Sprint("urn:agent:a", i), "displayName": "Agent", "description": "Answers.",
				"skills": []any{map[string]any{"id": "s", "name": "S", "description": "d", "tags": []string{"a", "b"}}}}
		}
		return out
	}
	// An agent with n URLs and n skills that the query matches: the skills
	// data source gives each skill the agent's URLs.
	urlsBySkills := func(n int) []map[string]any {
		ifaces := make([]any, n)
		for i := range ifaces {
			ifaces[i] = map[string]any{"url": fmt.Sprintf("https://a.example/%d", i)}
		}
		return []map[string]any{{"protocols": []any{map[string]any{"type": "A2A_AGENT", "interfaces": ifaces}},
			"skills": slices.Repeat([]any{map[string]any{"id": "x"}}, n)}}
	}
	// Records whose descriptions share text bytes of text.
	recordsWithText := func(bytes int) func(n int) []map[string]any {
		return func(n int) []map[string]any {
			out := records(n)
			for _, r := range out {
				r["description"] = strings.Repeat("d", bytes/max(n, 1))
			}
			return out
		}
	}
	agents, skills := "agentregistry_agents", "agentregistry_skills"
	wire := int(registryclient.DefaultPageLimits.Values)
	return []registryPageCase{
		registryPage("one small record (the baseline)", agents, func() []map[string]any { return text(100) }),
		registryPage("8 MiB, one record", agents, func() []map[string]any { return text(8 << 20) }),
		registryPage("16 MiB, one record", agents, func() []map[string]any { return text(16 << 20) }),
		registryPage("8 MiB, one record of 2 M one-letter tags", agents, func() []map[string]any { return tags(2 << 20) }),
		registryPage("16 MiB, one record of 4 M one-letter tags", agents, func() []map[string]any { return tags(4 << 20) }),
		registryPage("1,000 URLs x 1,000 skills, skills data source", skills, func() []map[string]any { return urlsBySkills(1000) }),
		registryPage("the most text a read keeps", agents, func() []map[string]any { return text(largestKept(text, 17<<20)) }),
		registryPage("the most one-letter tags a read keeps", agents, func() []map[string]any { return tags(largestKept(tags, 300_000)) }),
		registryPage("the most empty skills a read keeps", agents, func() []map[string]any { return emptySkills(largestKept(emptySkills, 100_000)) }),
		registryPage("the most small records a read keeps", agents, func() []map[string]any { return records(largestKept(records, 10_000)) }),
		registryPage("the most records a read keeps, with 15 MiB of text", agents, func() []map[string]any {
			return recordsWithText(15 << 20)(largestKept(recordsWithText(15<<20), 10_000))
		}),
		registryPage("the most one-letter tags the client reads", agents, func() []map[string]any { return tags(wire - 16) }),
		registryPage("the most empty skills the client reads", agents, func() []map[string]any { return emptySkills(wire/2 - 16) }),
		registryPageBody("the most empty records the client reads", agents, func() []byte {
			return []byte(`{"agents":[{}` + strings.Repeat(`,{}`, wire/2-16) + `]}`)
		}),
		// The probe's record: 990,000 skills of an eight-letter id, 17.8 MB,
		// inside the client's caps of one answer (32 MiB, 2,000,000 values).
		registryRecord("refresh of an agent whose card has 990,000 skills (17.8 MB)", false, func() []byte { return manySkillsCard(990_000) }),
		registryRecord("query with include_resource of that agent", true, func() []byte { return manySkillsCard(990_000) }),
		registryRecord("refresh of the most skills a record keeps", false, func() []byte {
			return manySkillsCard(largestRecordKept(manySkillsCard, 200_000))
		}),
		registryRecord("query with include_resource of the most skills a record keeps", true, func() []byte {
			return manySkillsCard(largestRecordKept(manySkillsCard, 200_000))
		}),
		registryRecord("refresh of the most text a record keeps", false, func() []byte { return longCard(largestRecordKept(longCard, 17<<20)) }),
		registryRecord("query with include_resource of the most text a record keeps", true, func() []byte {
			return longCard(largestRecordKept(longCard, 17<<20))
		}),
	}
}

// longCard is an A2A 0.3 card whose description has n bytes.
func longCard(n int) []byte {
	return []byte(`{"name":"Long","description":"` + strings.Repeat("d", n) + `","version":"1.0.0","protocolVersion":"0.3.0",` +
		`"url":"https://long.example/a2a","capabilities":{},"defaultInputModes":["text"],"defaultOutputModes":["text"],"skills":[]}`)
}

// largestRecordKept is the largest n at most hi whose agent service with the
// card card(n) a refresh keeps (within the caps of record_caps.go), found by
// bisection.
func largestRecordKept(card func(n int) []byte, hi int) int {
	lo := 0
	for lo < hi {
		mid := (lo + hi + 1) / 2
		svc := &agentregistry.Service{Name: hugeAgentName, RegistryResource: hostileParent + "/agents/huge-agent",
			AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: card(mid)}}
		var diags diag.Diagnostics
		if withinRecordCaps(&diags, hugeAgentName, svc) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// hugeAgentName is the service of registryRecord.
const hugeAgentName = hostileParent + "/services/huge-agent"

// registryRecord is the case of one agent service whose card is card(),
// answered to services.get (and, as its only service, to services.list),
// read by a refresh of the agent in state, or by a `terraform query` of
// agents with include_resource.
func registryRecord(name string, query bool, card func() []byte) registryPageCase {
	svc := sync.OnceValue(func() []byte {
		b, _ := json.Marshal(map[string]any{"name": hugeAgentName, "registryResource": hostileParent + "/agents/huge-agent",
			"agentSpec": map[string]any{"type": "A2A_AGENT_CARD", "content": json.RawMessage(card())}})
		return b
	})
	serve := func(b *testing.B) string {
		svc := svc()
		list := append(append([]byte(`{"services":[`), svc...), "]}"...)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			switch {
			case strings.HasSuffix(r.URL.Path, "/services"):
				_, _ = w.Write(list)
			case strings.HasSuffix(r.URL.Path, "/services/huge-agent"):
				_, _ = w.Write(svc)
			default:
				_, _ = w.Write([]byte(`{}`))
			}
		}))
		b.Cleanup(srv.Close)
		return srv.URL
	}
	read := func(ctx context.Context, url string) string {
		if query {
			return rpcRead(ctx, url, "agentregistry_agent", true)
		}
		return rpcRefresh(ctx, url, map[string]string{"id": hugeAgentName, "name": hugeAgentName, "service_id": "huge-agent",
			"project": "test-project", "location": "global", "agent_card": liveCardBody})
	}
	return registryPageCase{hostileCase{"registry record: " + name, serve, read}, svc}
}

// registryPage is the case of one page of agents, each given its name,
// answered to every search and list (and an empty services.list), read by
// the data source typ.
func registryPage(name, typ string, agents func() []map[string]any) registryPageCase {
	return registryPageBody(name, typ, func() []byte {
		b, _ := json.Marshal(map[string]any{"agents": named(agents())})
		return b
	})
}

// registryPageBody is the case of one page, written by page.
func registryPageBody(name, typ string, page func() []byte) registryPageCase {
	body := sync.OnceValue(page)
	serve := func(b *testing.B) string {
		body := body()
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			if strings.HasSuffix(r.URL.Path, "/services") {
				_, _ = w.Write([]byte(`{}`))
				return
			}
			_, _ = w.Write(body)
		}))
		b.Cleanup(srv.Close)
		return srv.URL
	}
	read := func(ctx context.Context, url string) string { return rpcRead(ctx, url, typ, false) }
	return registryPageCase{hostileCase{"registry page: " + name, serve, read}, body}
}

// largestKept is the largest n at most hi whose agents shape(n) the agents
// data source keeps (their result within the caps), found by bisection.
func largestKept(shape func(n int) []map[string]any, hi int) int {
	lo := 0
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if keptByAgents(shape(mid)) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// named gives each agent its record name, as the registry would.
func named(agents []map[string]any) []map[string]any {
	for i := range agents {
		agents[i]["name"] = fmt.Sprintf("%s/agents/a%d", hostileParent, i)
	}
	return agents
}

// keptByAgents reports whether agentregistry_agents keeps these agents.
func keptByAgents(agents []map[string]any) bool {
	b, _ := json.Marshal(named(agents))
	var as []*agentregistry.Agent
	if err := json.Unmarshal(b, &as); err != nil {
		panic(err)
	}
	results := make([]agentsResultModel, len(as))
	for i, a := range as {
		results[i] = agentsResultModel{flattenAgent(a), serviceIDsOf(a.Name, "")}
	}
	var diags diag.Diagnostics
	return withinResultCaps(&diags, "agents", results, "")
}
