package registryserver_test

// The server against the rules of the agentregistry/v1 discovery document
// that TestDiscoveryDocuments does not reach by calling each method: the
// documented paths, orderBy, page sizes per method, query parameters,
// output-only fields, locations, list filters, page tokens of ordered lists.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/apphub/v1"
	"google.golang.org/api/googleapi"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

// Every documented path is answered on purpose: never an unknown path
// (404), a method misread as an id (400) or a 405 for a documented method.
func TestDocumentedPathsAreAnswered(t *testing.T) {
	srv, err := registryserver.New(registryserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := startOn(t, srv)
	e.create(t, "planner", agentService("Planner", "Plans trips."))
	op, err := e.ar.Projects.Locations.Operations.List(parent).Do()
	if err != nil || len(op.Operations) != 1 {
		t.Fatalf("operations.list: %+v %v", op, err)
	}
	opName := op.Operations[0].Name
	for _, c := range []struct {
		method, path string
		code         int
		want         string
	}{
		{"GET", "/v1/projects/p1/locations", 200, `"locationId":"global"`},
		{"GET", "/v1/projects/p1/locations/us-central1", 200, `"name":"projects/p1/locations/us-central1"`},
		{"POST", "/v1/" + opName + ":cancel", 200, "{}"},
		{"GET", "/v1/" + parent + "/aiApplications", 200, "{}"},
		{"GET", "/v1/" + parent + "/aiApplications/app", 404, "discovers no AI applications"},
		{"GET", "/v1/" + parent + "/findings", 200, "{}"},
		{"GET", "/v1/" + parent + "/publishers", 501, "agentregistry.projects.locations.publishers.list"},
		{"GET", "/v1/" + parent + "/skills/pdf-tools:getIamPolicy", 501, "agentregistry.projects.locations.skills.getIamPolicy"},
		{"POST", "/v1/" + parent + "/skills/pdf-tools:setIamPolicy", 501, "agentregistry.projects.locations.skills.setIamPolicy"},
		{"POST", "/v1/" + parent + "/applications/app/workloads?workloadId=w", 501, "apphub.projects.locations.applications.workloads.create"},
		{"GET", "/v1/" + parent + "/discoveredWorkloads:lookup?uri=x", 501, "apphub.projects.locations.discoveredWorkloads.lookup"},
		{"DELETE", "/v1/" + opName, 200, "{}"},
		// A verb no method has, and a documented path with another method.
		{"GET", "/v1/" + parent + "/skills/pdf-tools:nosuchverb", 404, "no method :nosuchverb"},
		{"POST", "/v1/" + parent + "/skills/pdf-tools", 405, "allowed: DELETE, GET, PATCH"},
		{"PUT", "/v1/" + parent + "/applications/app", 405, "the API documents DELETE, GET, PATCH"},
		// An empty segment inside a path is no id (ServeMux would have redirected to a/b).
		{"GET", "/v1/" + parent + "//services", 404, "empty path segment"},
		{"GET", "/v1/" + parent + "/services//x", 404, "empty path segment"},
	} {
		w := serve(srv, context.Background(), c.method, c.path, "{}")
		if w.Code != c.code || !strings.Contains(w.Body.String(), c.want) {
			t.Errorf("%s %s: %d %.300s; want %d with %q", c.method, c.path, w.Code, w.Body, c.code, c.want)
		}
		if c.code == 501 && !strings.Contains(w.Body.String(), `"UNIMPLEMENTED"`) {
			t.Errorf("%s %s: %s; want status UNIMPLEMENTED", c.method, c.path, w.Body)
		}
	}
	// Where the server serves every documented method, the 405 lists them once.
	if w := serve(srv, context.Background(), "POST", "/v1/"+parent+"/skills/pdf-tools", "{}"); strings.Contains(w.Body.String(), "the API documents") {
		t.Errorf("POST on a skill: %s; every documented method is allowed, so none is said to be refused", w.Body)
	}
	// A path all of whose methods are refused allows none.
	if w := serve(srv, context.Background(), "PUT", "/v1/"+parent+"/applications/app", ""); w.Header().Get("Allow") != "" {
		t.Errorf("Allow %q on a path the server serves no method of", w.Header().Get("Allow"))
	}
}

// orderBy orders every list that takes it (displayName desc comes back
// descending), and a field it cannot order by is INVALID_ARGUMENT.
func TestOrderBy(t *testing.T) {
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	e := start(t, registryserver.Options{Now: clk.Now})
	loc := e.ar.Projects.Locations
	// Created half a second apart, in the reverse order of their names'
	// letters: as RFC 3339 text "…00Z" sorts after "…00.5Z", so times are
	// compared as times.
	for i, id := range []string{"delta", "charlie", "bravo", "alpha"} {
		e.create(t, "agent-"+id, agentService("Agent "+strings.ToUpper(id[:1])+id[1:], "An agent."))
		if _, err := loc.Bindings.Create(parent, binding("", urnFlights)).BindingId("binding-" + id).Do(); err != nil {
			t.Fatal(err)
		}
		w := &apphub.Workload{DisplayName: fmt.Sprintf("Workload %d", 4-i)}
		if _, err := e.ah.Projects.Locations.Applications.Workloads.Patch(parent+"/applications/app/workloads/w-"+id, w).
			UpdateMask("displayName").Do(googleapi.QueryParameter("allowMissing", "true")); err != nil {
			t.Fatal(err)
		}
		clk.advance(500 * time.Millisecond)
	}
	agents := func(orderBy string, size int64, token string) ([]string, string) {
		t.Helper()
		l, err := loc.Agents.List(parent).OrderBy(orderBy).PageSize(size).PageToken(token).Do()
		if err != nil {
			t.Fatalf("agents orderBy %q: %v", orderBy, err)
		}
		var ids []string
		for _, a := range l.Agents {
			ids = append(ids, idOf(a.Name))
		}
		return ids, l.NextPageToken
	}
	for orderBy, want := range map[string]string{
		"":                            "agent-alpha agent-bravo agent-charlie agent-delta",
		"displayName desc":            "agent-delta agent-charlie agent-bravo agent-alpha",
		"display_name DESC":           "agent-delta agent-charlie agent-bravo agent-alpha",
		"createTime":                  "agent-delta agent-charlie agent-bravo agent-alpha",
		"create_time desc":            "agent-alpha agent-bravo agent-charlie agent-delta",
		"description, createTime asc": "agent-delta agent-charlie agent-bravo agent-alpha",
	} {
		if got, _ := agents(orderBy, 0, ""); strings.Join(got, " ") != want {
			t.Errorf("agents orderBy %q: %v, want %s", orderBy, got, want)
		}
	}
	// Pages of an ordered list follow on, and their token is for that order only.
	first, tok := agents("displayName desc", 3, "")
	rest, last := agents("displayName desc", 3, tok)
	if strings.Join(append(first, rest...), " ") != "agent-delta agent-charlie agent-bravo agent-alpha" || last != "" {
		t.Errorf("pages of displayName desc: %v then %v (token %q)", first, rest, last)
	}
	_, err := loc.Agents.List(parent).OrderBy("createTime").PageToken(tok).Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")

	// Bindings and workloads are ordered by their own code (listOrdered):
	// each order below differs from the name order, which an ignored
	// orderBy would give.
	bindings := func(orderBy string) (string, error) {
		l, err := loc.Bindings.List(parent).OrderBy(orderBy).Do()
		if err != nil {
			return "", err
		}
		return idsOf(l.Bindings, func(b *agentregistry.Binding) string { return b.Name }), nil
	}
	workloads := func(orderBy string) (string, error) {
		l, err := e.ah.Projects.Locations.Applications.Workloads.List(parent + "/applications/app").OrderBy(orderBy).Do()
		if err != nil {
			return "", err
		}
		return idsOf(l.Workloads, func(w *apphub.Workload) string { return w.Name }), nil
	}
	for _, c := range []struct {
		what          string
		list          func(orderBy string) (string, error)
		orderBy, want string
	}{
		{"bindings", bindings, "createTime", "binding-delta binding-charlie binding-bravo binding-alpha"},
		{"bindings", bindings, "createTime desc", "binding-alpha binding-bravo binding-charlie binding-delta"},
		{"bindings", bindings, "", "binding-alpha binding-bravo binding-charlie binding-delta"},
		{"workloads", workloads, "displayName desc", "w-delta w-charlie w-bravo w-alpha"},
		{"workloads", workloads, "displayName", "w-alpha w-bravo w-charlie w-delta"},
	} {
		if got, err := c.list(c.orderBy); err != nil || got != c.want {
			t.Errorf("%s orderBy %q: %s %v, want %s", c.what, c.orderBy, got, err, c.want)
		}
	}
	e.create(t, "mcp-one", &agentregistry.Service{DisplayName: "Zulu", McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: googleapi.RawMessage(toolSpec)}})
	e.create(t, "mcp-two", &agentregistry.Service{DisplayName: "Yankee", McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: googleapi.RawMessage(toolSpec)}})
	ml, err := loc.McpServers.List(parent).OrderBy("displayName").Do()
	if err != nil || len(ml.McpServers) != 2 || idOf(ml.McpServers[0].Name) != "mcp-two" {
		t.Errorf("mcpServers orderBy displayName: %+v %v", ml, err)
	}
	for _, call := range []func() error{
		func() error { _, err := loc.Agents.List(parent).OrderBy("nosuchfield").Do(); return err },
		func() error { _, err := loc.McpServers.List(parent).OrderBy("agentId").Do(); return err },
		func() error { _, err := loc.Bindings.List(parent).OrderBy("source").Do(); return err },
		func() error { _, err := loc.Findings.List(parent).OrderBy("colour").Do(); return err },
		func() error {
			_, err := e.ah.Projects.Locations.Applications.Workloads.List(parent + "/applications/app").OrderBy("name sideways").Do()
			return err
		},
	} {
		if ge := asAPIErr(t, call(), 400, "INVALID_ARGUMENT"); violations(t, ge)["order_by"] == "" {
			t.Errorf("an unorderable field: %s; want a violation on order_by", ge.Body)
		}
	}
}

// Page sizes follow the document: bindings.list and bindings:fetchAvailable
// default to 500 and cap at 500; the searches default to 20 and cap at 100.
func TestPageSizesPerMethod(t *testing.T) {
	e := start(t, registryserver.Options{})
	bs := e.ar.Projects.Locations.Bindings
	for i := range 120 {
		if _, err := bs.Create(parent, binding("", urnFlights)).BindingId(fmt.Sprintf("binding-%03d", i)).Do(); err != nil {
			t.Fatal(err)
		}
	}
	for name, call := range map[string]func(int64) ([]*agentregistry.Binding, string, error){
		"list": func(n int64) ([]*agentregistry.Binding, string, error) {
			l, err := bs.List(parent).PageSize(n).Do()
			return l.Bindings, l.NextPageToken, err
		},
		"fetchAvailable": func(n int64) ([]*agentregistry.Binding, string, error) {
			l, err := bs.FetchAvailable(parent).SourceIdentifier(urnPlanner).PageSize(n).Do()
			return l.Bindings, l.NextPageToken, err
		},
	} {
		for _, n := range []int64{0, 600} {
			got, next, err := call(n)
			if err != nil || len(got) != 120 || next != "" {
				t.Errorf("bindings %s pageSize %d: %d bindings, token %q, %v; want all 120 on one page", name, n, len(got), next, err)
			}
		}
	}
	for i := range 101 {
		e.create(t, fmt.Sprintf("agent-%03d", i), agentService(fmt.Sprintf("Agent %d", i), "An agent."))
	}
	for n, want := range map[int64]int{0: 20, 500: 100} {
		r, err := e.ar.Projects.Locations.Agents.Search(parent, &agentregistry.SearchAgentsRequest{PageSize: n}).Do()
		if err != nil || len(r.Agents) != want {
			t.Errorf("agents:search pageSize %d: %d agents (%v), want %d", n, len(r.Agents), err, want)
		}
	}
}

// A query parameter the method does not take is refused, naming it, as
// Google's front end does. The system parameters every method takes are
// accepted.
func TestUnknownQueryParameters(t *testing.T) {
	srv, err := registryserver.New(registryserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ method, path, param string }{
		{"GET", "/services?colour=red", "colour"},
		{"GET", "/services?updateMask=displayName", "updateMask"}, // a parameter of another method
		{"GET", "/agents?orderby=name", "orderby"},                // names are case-sensitive
		{"POST", "/services?serviceId=abcd&validateOnly=true", "validateOnly"},
		{"GET", "/operations?pageSize=1&nosuch=1", "nosuch"},
	} {
		w := serve(srv, context.Background(), c.method, "/v1/"+parent+c.path, `{"endpointSpec":{"type":"NO_SPEC"}}`)
		if w.Code != 400 || !strings.Contains(w.Body.String(), `Unknown name \"`+c.param+`\"`) || !strings.Contains(w.Body.String(), `"field":"`+c.param+`"`) {
			t.Errorf("%s %s: %d %.300s; want 400 naming %s", c.method, c.path, w.Code, w.Body, c.param)
		}
	}
	if w := serve(srv, context.Background(), "GET", "/v1/"+parent+"/services", ""); w.Body.String() != "{}\n" {
		t.Errorf("a refused create was stored: %s", w.Body)
	}
	// Of two unknown parameters the first by name is named; a method without
	// query parameters says so.
	w := serve(srv, context.Background(), "GET", "/v1/"+parent+"/services/abcd?zeta=1&alpha=1", "")
	if !strings.Contains(w.Body.String(), `Unknown name \"alpha\"`) || !strings.Contains(w.Body.String(), "takes no query parameters") {
		t.Errorf("two unknown parameters on services.get: %s", w.Body)
	}
	const system = "?alt=json&prettyPrint=false&fields=services&%24.xgafv=2&quotaUser=q&key=k"
	if w := serve(srv, context.Background(), "GET", "/v1/"+parent+"/services"+system, ""); w.Code != 200 {
		t.Errorf("the system parameters: %d %s", w.Code, w.Body)
	}
}

// The output-only fields the server has the information for are
// filled: Agent.location, the attributes of agents, MCP servers and
// endpoints, and OperationMetadata.statusMessage.
func TestOutputOnlyFields(t *testing.T) {
	e := start(t, registryserver.Options{})
	e.create(t, "planner", agentService("Planner", "Plans trips."))
	op := e.create(t, "flights", &agentregistry.Service{McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: googleapi.RawMessage(toolSpec)}})
	e.create(t, "billing", &agentregistry.Service{EndpointSpec: &agentregistry.EndpointSpec{Type: "NO_SPEC"},
		Interfaces: []*agentregistry.Interface{{Url: "https://billing.example.test", ProtocolBinding: "HTTP_JSON"}}})
	loc := e.ar.Projects.Locations
	a, err := loc.Agents.Get(parent + "/agents/planner").Do()
	if err != nil || a.Location != "global" {
		t.Errorf("agent location %q (%v), want global", a.Location, err)
	}
	m, err := loc.McpServers.Get(parent + "/mcpServers/flights").Do()
	if err != nil {
		t.Fatal(err)
	}
	ep, err := loc.Endpoints.Get(parent + "/endpoints/billing").Do()
	if err != nil {
		t.Fatal(err)
	}
	for id, attrs := range map[string]map[string]googleapi.RawMessage{"planner": a.Attributes, "flights": m.Attributes, "billing": ep.Attributes} {
		var ref struct{ URI string }
		_ = json.Unmarshal(attrs["agentregistry.googleapis.com/system/RuntimeReference"], &ref)
		if want := "//agentregistry.googleapis.com/" + parent + "/services/" + id; ref.URI != want {
			t.Errorf("%s: attributes %v, want a RuntimeReference to %s", id, attrs, want)
		}
	}
	var md agentregistry.OperationMetadata
	if err := json.Unmarshal(op.Metadata, &md); err != nil || md.StatusMessage != "Succeeded." || md.RequestedCancellation {
		t.Errorf("metadata of a done operation: %s (%v)", op.Metadata, err)
	}
}

// locations.get answers for any location, locations.list
// lists global and the locations in use, filtered; App Hub's locations are
// the same.
func TestLocations(t *testing.T) {
	e := start(t, registryserver.Options{})
	e.create(t, "planner", agentService("Planner", "Plans trips."))
	if _, err := e.ar.Projects.Locations.Services.Create("projects/p1/locations/us-central1", agentService("West", "In a region.")).ServiceId("west").Do(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ar.Projects.Locations.Services.Create("projects/p2/locations/europe-west1", agentService("Other", "Another project.")).ServiceId("other").Do(); err != nil {
		t.Fatal(err)
	}
	l, err := e.ar.Projects.Locations.List("projects/p1").Do()
	var ids []string
	for _, loc := range l.Locations {
		ids = append(ids, loc.LocationId)
	}
	if err != nil || strings.Join(ids, " ") != "global us-central1" {
		t.Errorf("locations of p1: %v %v", ids, err)
	}
	if l, err := e.ah.Projects.Locations.List("projects/p1").Filter("locationId=us-central1").Do(); err != nil || len(l.Locations) != 1 {
		t.Errorf("App Hub locations filtered: %+v %v", l, err)
	}
	if got, err := e.ar.Projects.Locations.Get("projects/p1/locations/asia-east1").Do(); err != nil || got.LocationId != "asia-east1" {
		t.Errorf("a location not in use: %+v %v", got, err)
	}
	if first, err := e.ar.Projects.Locations.List("projects/p1").PageSize(1).Do(); err != nil || len(first.Locations) != 1 || first.NextPageToken == "" {
		t.Errorf("a page of one location: %+v %v", first, err)
	} else if rest, err := e.ar.Projects.Locations.List("projects/p1").PageSize(1).PageToken(first.NextPageToken).Do(); err != nil || len(rest.Locations) != 1 || rest.Locations[0].LocationId != "us-central1" {
		t.Errorf("the second page: %+v %v", rest, err)
	}
}

// The list filters take the fields the document lists: the endpoints'
// interfaces.transport (the protocol binding), the workloads' fields.
func TestListFilterFields(t *testing.T) {
	e := start(t, registryserver.Options{})
	for id, binding := range map[string]string{"rest-api": "HTTP_JSON", "rpc-api": "GRPC"} {
		e.create(t, id, &agentregistry.Service{EndpointSpec: &agentregistry.EndpointSpec{Type: "NO_SPEC"},
			Interfaces: []*agentregistry.Interface{{Url: "https://" + id + ".example.test", ProtocolBinding: binding}}})
	}
	l, err := e.ar.Projects.Locations.Endpoints.List(parent).Filter(`interfaces.transport = "HTTP_JSON"`).Do()
	if err != nil || len(l.Endpoints) != 1 || idOf(l.Endpoints[0].Name) != "rest-api" {
		t.Errorf("endpoints by interfaces.transport: %+v %v", l, err)
	}
	for _, id := range []string{"w-one", "w-two"} {
		w := &apphub.Workload{DisplayName: "Workload " + id}
		if _, err := e.ah.Projects.Locations.Applications.Workloads.Patch(parent+"/applications/app/workloads/"+id, w).
			UpdateMask("displayName").Do(googleapi.QueryParameter("allowMissing", "true")); err != nil {
			t.Fatal(err)
		}
	}
	wl, err := e.ah.Projects.Locations.Applications.Workloads.List(parent + "/applications/app").Filter(`displayName:two`).Do()
	if err != nil || len(wl.Workloads) != 1 || idOf(wl.Workloads[0].Name) != "w-two" {
		t.Errorf("workloads filtered: %+v %v", wl, err)
	}
	_, err = e.ah.Projects.Locations.Applications.Workloads.List(parent + "/applications/app").Filter(`colour:red`).Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
}

// Bad values of the document's parameters (orderBy, filters, page sizes and
// tokens, ids of the paths above): each is a 400 that names the parameter,
// and none changes anything.
func TestBadQueryParameters(t *testing.T) {
	srv, err := registryserver.New(registryserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ method, path, field string }{
		{"GET", "/agents?orderBy=nosuchfield", "order_by"},
		{"GET", "/agents?orderBy=displayName,displayName", "order_by"},
		{"GET", "/agents?orderBy=displayName%20up", "order_by"},
		{"GET", "/agents?orderBy=a%20b%20c", "order_by"},
		{"GET", "/agents?orderBy=,", "order_by"},
		{"GET", "/mcpServers?orderBy=version", "order_by"},
		{"GET", "/bindings?orderBy=target", "order_by"},
		{"GET", "/aiApplications?orderBy=severity", "order_by"},
		{"GET", "/findings?orderBy=displayName", "order_by"},
		{"GET", "/applications/app/workloads?orderBy=attributes", "order_by"},
		{"GET", "/applications/app/workloads?filter=colour:red", "filter"},
		{"GET", "/aiApplications?filter=(", "filter"},
		{"GET", "/findings?filter=colour:red", "filter"},
		{"GET", "/operations?filter=colour:red", "filter"},
		{"GET", "/services?filter=labels.env=prod", "filter"},
		{"GET", "/endpoints?filter=version=v1", "filter"},
		{"GET", "/bindings?pageSize=-1", "page_size"},
		{"GET", "/operations?pageSize=-1", "page_size"},
		{"GET", "/findings?pageSize=-1", "page_size"},
		{"GET", "/aiApplications/app/agents?pageSize=-1", "page_size"},
		{"GET", "/agents?orderBy=name&pageToken=garbage", "page_token"},
		{"GET", "/findings?pageToken=e30", "page_token"},
		{"GET", "/bindings?orderBy=name&pageToken=eyJhIjoieCIsInEiOjF9", "page_token"},
		{"POST", "/operations/op%00x:cancel", "operation"},
		{"DELETE", "/operations/" + strings.Repeat("o", 129), "operation"},
		{"GET", "/aiApplications/%FF", "id"},
		{"GET", "/findings/..", "id"},
		{"GET", "/aiApplications/app/mcpServers/-bad", "service_id"},
	} {
		w := serve(srv, context.Background(), c.method, "/v1/"+parent+c.path, "{}")
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `"field":"`+c.field+`"`) {
			t.Errorf("%s %s: %d %.300s; want 400 naming %s", c.method, c.path, w.Code, w.Body, c.field)
		}
	}
	long := strings.Repeat("t", 100)
	if w := serve(srv, context.Background(), "GET", "/v1/"+parent+"/services?pageToken="+long, ""); !strings.Contains(w.Body.String(), strings.Repeat("t", 64)+`...\"`) || strings.Contains(w.Body.String(), strings.Repeat("t", 65)) {
		t.Errorf("a long page token is quoted whole: %s", w.Body)
	}
	if w := serve(srv, context.Background(), "GET", "/v1/"+parent+"/services?pageToken="+long[:64], ""); !strings.Contains(w.Body.String(), `\"`+long[:64]+`\"`) {
		t.Errorf("a page token of 64 characters is not quoted whole: %s", w.Body)
	}
	for _, path := range []string{"/v1/projects/Upper/locations", "/v1/projects/p1/locations/" + strings.Repeat("l", 64)} {
		if w := serve(srv, context.Background(), "GET", path, ""); w.Code != http.StatusBadRequest {
			t.Errorf("GET %s: %d %s; want 400", path, w.Code, w.Body)
		}
	}
	if w := serve(srv, context.Background(), "GET", "/v1/"+parent+"/operations", ""); w.Body.String() != "{}\n" {
		t.Errorf("operations after the refused requests: %s", w.Body)
	}
}

// operations.list refuses returnPartialSuccess: the bundled server lists
// the operations of one location, which are all reachable.
func TestOperationsListRefusesPartialSuccess(t *testing.T) {
	e := start(t, registryserver.Options{})
	_, err := e.ar.Projects.Locations.Operations.List(parent).ReturnPartialSuccess(true).Do()
	apiErr(t, err, 501, "UNIMPLEMENTED")
}

// A page token of an ordered list continues that list only: the same list
// in another order of as many keys refuses it, and so does the list by name
// (its token was issued for a different query); in its own order it goes on.
func TestOrderedListTokenIsForItsOrder(t *testing.T) {
	e := start(t, registryserver.Options{})
	bs := e.ar.Projects.Locations.Bindings
	for _, id := range []string{"binding-a", "binding-b", "binding-c"} {
		if _, err := bs.Create(parent, binding("", urnFlights)).BindingId(id).Do(); err != nil {
			t.Fatal(err)
		}
	}
	first, err := bs.List(parent).OrderBy("displayName").PageSize(1).Do()
	if err != nil || first.NextPageToken == "" {
		t.Fatalf("first page: %+v %v", first, err)
	}
	if next, err := bs.List(parent).OrderBy("displayName").PageSize(1).PageToken(first.NextPageToken).Do(); err != nil || len(next.Bindings) != 1 {
		t.Errorf("the next page in the same order: %+v %v", next, err)
	}
	for _, orderBy := range []string{"createTime", ""} {
		_, err := bs.List(parent).OrderBy(orderBy).PageSize(1).PageToken(first.NextPageToken).Do()
		if v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT")); !strings.Contains(v["page_token"], "was issued for a different query") {
			t.Errorf("the token in order %q: %v", orderBy, v)
		}
	}
}
