package provider

// A registry that pages without end. Every data source and list
// resource ends with an error that names the cap and the attributes that
// narrow the read, having read no more than the caps allow (the bytes the
// hostile registry could send are counted), whatever the registry sends.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

const hostileParent = "projects/test-project/locations/global"

// hostilePages serves every list and search of the registry with page(n),
// n counting from 1, and counts the requests and the bytes it wrote.
type hostilePages struct {
	requests, written atomic.Int64
	// servicesOnce answers services.list with one agent service and no next
	// page, so that only the derived-record lookup pages without end.
	servicesOnce bool
	page         func(n int64) (records int, desc int, next string)
}

func (h *hostilePages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := h.requests.Add(1)
	count, desc, next := h.page(n)
	if h.servicesOnce && strings.HasSuffix(r.URL.Path, "/services") {
		count, desc, next = 1, 1, ""
	}
	body := map[string]any{"nextPageToken": next}
	d := strings.Repeat("d", desc)
	for _, key := range []string{"services", "agents", "mcpServers", "endpoints", "bindings", "skills"} {
		recs := make([]map[string]any, count)
		for i := range recs {
			id := fmt.Sprintf("r%d-%d", n, i)
			recs[i] = map[string]any{
				"name": hostileParent + "/" + key + "/" + id, "description": d, "displayName": id,
				"agentSpec": map[string]any{"type": "NO_SPEC"}, "registryResource": hostileParent + "/agents/elsewhere-" + id,
				"agentId": "urn:agent:" + id,
			}
		}
		body[key] = recs
	}
	b, _ := json.Marshal(body)
	w.Header().Set("Content-Type", "application/json")
	written, _ := w.Write(b)
	h.written.Add(int64(written))
}

// readDataSourceRPC reads a data source through the provider's protocol
// server with the given string attributes set.
func readDataSourceRPC(t *testing.T, s tfprotov6.ProviderServer, typ string, set map[string]string) []*tfprotov6.Diagnostic {
	t.Helper()
	schemas, err := s.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	vt := as[tftypes.Object](t, schemas.DataSourceSchemas[typ].ValueType())
	attrs := map[string]tftypes.Value{}
	for name, at := range vt.AttributeTypes {
		attrs[name] = tftypes.NewValue(at, nil)
	}
	for name, v := range set {
		attrs[name] = tftypes.NewValue(tftypes.String, v)
	}
	resp, err := s.ReadDataSource(context.Background(), &tfprotov6.ReadDataSourceRequest{
		TypeName: typ, Config: dynamicValue(t, vt, tftypes.NewValue(vt, attrs)),
	})
	if err != nil {
		t.Fatalf("ReadDataSource %s: %v", typ, err)
	}
	return resp.Diagnostics
}

type hostileRead struct {
	name string
	// data source or list resource type, its attributes, and with a list,
	// include_resource.
	dataSource, list string
	set              map[string]string
	include          bool
	// narrow is the attribute the error must name.
	narrow string
	// full: also read against endless full pages (each such read takes
	// seconds to reach the byte cap; registryclient's tests take every read
	// there with a small cap).
	full bool
	// unique: the read wants one record and stops at a second one, so pages
	// that bring records never reach a cap.
	unique bool
}

func hostileReads() []hostileRead {
	return []hostileRead{
		{name: "agents data source", dataSource: "agentregistry_agents", set: map[string]string{"query": "x"}, narrow: "`max_results`", full: true},
		{name: "MCP servers data source", dataSource: "agentregistry_mcp_servers", set: map[string]string{"query": "x"}, narrow: "`max_results`"},
		{name: "bindings data source", dataSource: "agentregistry_bindings", narrow: "`filter`"},
		{name: "endpoints data source", dataSource: "agentregistry_endpoints", narrow: "`filter`"},
		{name: "available bindings data source", dataSource: "agentregistry_available_bindings", set: map[string]string{"source": "urn:agent:x"}, narrow: "`max_results`"},
		{name: "skills data source", dataSource: "agentregistry_skills", set: map[string]string{"query": "x"}, narrow: "`query`"},
		{name: "agent data source by filter", dataSource: "agentregistry_agent", set: map[string]string{"filter": "x"}, narrow: "`filter`", unique: true},
		{name: "agent list", list: "agentregistry_agent", narrow: "`limit`", full: true},
		{name: "agent list with query", list: "agentregistry_agent", set: map[string]string{"query": "x"}, narrow: "`query`"},
		{name: "MCP server list with resources", list: "agentregistry_mcp_server", include: true, narrow: "`filter`", full: true},
		{name: "binding list", list: "agentregistry_binding", narrow: "`filter`"},
		{name: "skill list", list: "agentregistry_skill", narrow: "`filter`"},
		{name: "endpoint list", list: "agentregistry_endpoint", narrow: "`limit`"},
	}
}

// run reads r against the registry at url and returns its one error.
func (r hostileRead) run(t *testing.T, s tfprotov6.ProviderServer, l *listRPC) string {
	t.Helper()
	if r.dataSource != "" {
		var errs []string
		for _, d := range readDataSourceRPC(t, s, r.dataSource, r.set) {
			if d.Severity == tfprotov6.DiagnosticSeverityError {
				errs = append(errs, d.Summary+": "+d.Detail)
			}
		}
		if len(errs) != 1 {
			t.Fatalf("errors %q, want one", errs)
		}
		return errs[0]
	}
	errs := errorsOf(l.list(r.list, r.set, r.include, 1_000_000, 0)) // a limit past every cap
	if len(errs) != 1 {
		t.Fatalf("errors %q, want one", errs)
	}
	return errs[0]
}

func TestHostileRegistry_endlessPagesEndAtACap(t *testing.T) {
	caps := registryclient.DefaultPageLimits
	for _, tc := range []struct {
		name, cap string
		page      func(n int64) (int, int, string)
		// most is how many bytes the registry may have written.
		most int64
	}{
		// 100 records of 8 KB a page, a new token each time: the byte cap.
		{"full pages", "the cap of 67108864 bytes", func(n int64) (int, int, string) { return 100, 8 << 10, fmt.Sprint("t", n) },
			caps.Bytes + 2*6*100*(8<<10+400)},
		// Empty pages with a new token each: the cap of empty pages in a
		// row, a tenth of the page cap (which took over 30 s through a CLI).
		{"empty pages", "the cap of 100 empty pages in a row", func(n int64) (int, int, string) { return 0, 0, fmt.Sprint("t", n) },
			int64(caps.EmptyPages) * 600},
		// A record a page with a new token each: the page cap.
		{"one record a page", "the cap of 1000 pages", func(n int64) (int, int, string) { return 1, 1, fmt.Sprint("t", n) },
			int64(caps.Pages) * 3000},
		// Empty pages with 256 KB tokens: the token cap, on the first page.
		{"huge tokens", "the cap of 8192 bytes", func(n int64) (int, int, string) {
			return 0, 0, fmt.Sprint(n, strings.Repeat("t", 256<<10))
		}, 3 * 256 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range hostileReads() {
				if (tc.name == "full pages" && !r.full) || (tc.name == "one record a page" && r.unique) {
					continue
				}
				t.Run(r.name, func(t *testing.T) {
					h := &hostilePages{page: tc.page}
					srv := httptest.NewServer(h)
					defer srv.Close()
					s := configuredServer(t, "test-project", srv.URL)
					msg := r.run(t, s, newListRPC(t, srv.URL))
					for _, want := range []string{"Registry Read Stopped at a Cap", tc.cap, "Narrow the read with", r.narrow} {
						if !strings.Contains(msg, want) {
							t.Errorf("error %q\ndoes not say %q", msg, want)
						}
					}
					if w := h.written.Load(); w > tc.most {
						t.Errorf("the registry wrote %d bytes, past the %d the caps allow", w, tc.most)
					}
				})
			}
		})
	}
}

// A terraform query with include_resource over a registry whose services are
// few but whose derived records never end: the derived-record lookup ends
// at a cap instead of reading the agents list for ever.
func TestHostileRegistry_derivedLookupEndsAtACap(t *testing.T) {
	h := &hostilePages{servicesOnce: true, page: func(n int64) (int, int, string) { return 0, 0, fmt.Sprint("t", n) }}
	srv := httptest.NewServer(h)
	defer srv.Close()
	errs := errorsOf(newListRPC(t, srv.URL).list("agentregistry_agent", nil, true, 10, 0))
	if len(errs) != 1 || !containsInOrder(errs[0], []string{"Registry Read Stopped at a Cap", "agents.list", "the cap of 100 empty pages in a row", "`limit`"}) {
		t.Fatalf("errors %q, want the empty-page cap of the derived-record lookup", errs)
	}
	if got := h.requests.Load(); got != 1+int64(registryclient.DefaultPageLimits.EmptyPages) {
		t.Errorf("%d requests, want one services page and the cap of empty agents pages", got)
	}
}

// A registry that answers empty pages with a new token each, through the
// CLIs: a data source read by `plan` (OpenTofu and Terraform) and a `terraform
// query` list (Terraform 1.14+) each end at the cap of empty pages in a row,
// within seconds, where the page cap took over 30 s.
func TestAccHostileRegistry_endlessEmptyPagesEndWithinSeconds(t *testing.T) {
	h := &hostilePages{page: func(n int64) (int, int, string) { return 0, 0, fmt.Sprint("t", n) }}
	srv := httptest.NewServer(h)
	defer srv.Close()
	cli := newCLIHarness(t)
	cli.write(t, "main.tf", exampleProviders+testkit.ProviderConfig(srv.URL)+`
data "agentregistry_agents" "all" {
  query = "x"
}
`)
	cli.mustRun(t, "init", "-input=false")
	reads := map[string][]string{"plan": {"plan", "-json", "-input=false"}}
	if ok, _ := capQuery.supportedBy(cliFlavour(), cliVersion(t, cli)); ok {
		cli.write(t, "all.tfquery.hcl", "list \"agentregistry_agent\" \"all\" {\n  provider = agentregistry\n}\n")
		reads["query"] = []string{"query", "-json"}
	}
	for name, args := range reads {
		before, began := h.requests.Load(), time.Now()
		out := cli.mustExit(t, 1, args...)
		took := time.Since(began)
		if !containsInOrder(strings.Join(strings.Fields(out), " "), []string{"Registry Read Stopped at a Cap", "the cap of 100 empty pages in a row"}) {
			t.Errorf("%s: want the empty-page cap, got:\n%s", name, out)
		}
		if sent := h.requests.Load() - before; sent > int64(registryclient.DefaultPageLimits.EmptyPages) {
			t.Errorf("%s: %d requests, past the cap of %d empty pages", name, sent, registryclient.DefaultPageLimits.EmptyPages)
		}
		t.Logf("%s: %d requests, %s", name, h.requests.Load()-before, took.Round(time.Millisecond))
	}
}

// A page far inside the byte cap can hold what costs the provider a hundred
// times its size once kept (a one-letter tag is 4 bytes of JSON and half a
// kilobyte as a Terraform value; a skill is given each of its agent's URLs):
// every data source that reads the registry refuses a result past its caps
// of values or text, before any Terraform value is made, with an error that
// names the cap and what narrows the read.
func TestHostileRegistry_resultsPastTheCapsAreRefused(t *testing.T) {
	oneAgent := func(agent map[string]any) []byte {
		agent["name"] = hostileParent + "/agents/a"
		b, _ := json.Marshal(map[string]any{"agents": []any{agent}, "bindings": []any{map[string]any{
			"name": hostileParent + "/bindings/b", "authProviderBinding": map[string]any{"scopes": agent["scopes"]}}}})
		return b
	}
	urls := make([]any, 500)
	for i := range urls {
		urls[i] = map[string]any{"url": fmt.Sprintf("https://a.example/%d", i)}
	}
	tags := slices.Repeat([]string{"a"}, maxResultValues)
	for _, tc := range []struct {
		name, dataSource string
		set              map[string]string
		page             []byte
		want             []string
	}{
		{"a skill for each of 500 URLs x 500 skills", "agentregistry_skills", map[string]string{"query": "x"},
			oneAgent(map[string]any{"protocols": []any{map[string]any{"interfaces": urls}}, "skills": slices.Repeat([]any{map[string]any{"id": "x"}}, 500)}),
			[]string{"Reading skills stopped", "the cap of 200000 values per read", "Narrow the read with `max_results`, a narrower `query`, or `tags`."}},
		{"200,000 one-letter tags in 1 MB", "agentregistry_agents", map[string]string{"query": "x"},
			oneAgent(map[string]any{"skills": []any{map[string]any{"id": "s", "tags": tags}}}),
			[]string{"Reading agents stopped", "the cap of 200000 values per read", "`max_results` or a narrower `query`"}},
		{"a description of 16 MiB", "agentregistry_agents", map[string]string{"query": "x"},
			oneAgent(map[string]any{"description": strings.Repeat("d", 16<<20)}),
			[]string{"Reading agents stopped", "the cap of 16 MiB of text per read"}},
		{"one agent by name with 200,000 tags", "agentregistry_agent", map[string]string{"name": hostileParent + "/agents/a"},
			oneAgentRecord(map[string]any{"skills": []any{map[string]any{"id": "s", "tags": tags}}}),
			[]string{"Reading " + hostileParent + "/agents/a stopped", "the cap of 200000 values", "larger than a data source returns"}},
		{"a binding of 200,000 scopes", "agentregistry_bindings", nil, oneAgent(map[string]any{"scopes": tags}),
			[]string{"Reading bindings stopped", "the cap of 200000 values per read", "`max_results`, `source`, `target` or `filter`"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if strings.HasSuffix(r.URL.Path, "/services") {
					_, _ = w.Write([]byte(`{}`))
					return
				}
				_, _ = w.Write(tc.page)
			}))
			defer srv.Close()
			var errs []string
			for _, d := range readDataSourceRPC(t, configuredServer(t, "test-project", srv.URL), tc.dataSource, tc.set) {
				if d.Severity == tfprotov6.DiagnosticSeverityError {
					errs = append(errs, d.Summary+": "+d.Detail)
				}
			}
			if len(errs) != 1 || !containsInOrder(errs[0], append([]string{"Registry Read Over the Result Cap"}, tc.want...)) {
				t.Fatalf("errors %q, want the result cap", errs)
			}
		})
	}
}

// oneAgentRecord is an agent record alone, as agents.get answers.
func oneAgentRecord(agent map[string]any) []byte {
	agent["name"] = hostileParent + "/agents/a"
	b, _ := json.Marshal(agent)
	return b
}
