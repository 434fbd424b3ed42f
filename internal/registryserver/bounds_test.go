package registryserver_test

// Tests of what a client can make the bundled server spend or store, and of
// the input it refuses before anything is kept: requests retained, searches
// against writes and deadlines, the cost of a page, ids in paths, update
// masks, malformed tokens and bodies, the in-flight cap, the token on every
// route, logged values. Through raw HTTP or the official generated clients.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/googleapi"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

// heapInUse returns the live heap after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// The shipped server keeps nothing of a request, so requests without the
// token (and with it) cannot make it grow: 300 GETs with 100 KB query
// strings (30 MB if they were kept) grow the heap by less than 8 MB.
func TestRequestsAreNotRetained(t *testing.T) {
	for _, token := range []string{"s3cret", ""} {
		srv, err := registryserver.New(registryserver.Options{Token: token})
		if err != nil {
			t.Fatal(err)
		}
		// A parameter the server ignores (a system parameter, fields), so
		// that the request succeeds without a token.
		query := "?fields=" + strings.Repeat("x", 100<<10)
		before := heapInUse()
		for range 300 {
			w := httptest.NewRecorder()
			srv.ServeHTTP(w, httptest.NewRequest("GET", "/v1/"+parent+"/services"+query, nil))
			if want := map[string]int{"s3cret": http.StatusUnauthorized, "": http.StatusOK}[token]; w.Code != want {
				t.Fatalf("token %q: status %d, want %d: %s", token, w.Code, want, w.Body)
			}
		}
		after := heapInUse()
		runtime.KeepAlive(srv)
		if grown := int64(after) - int64(before); grown > 8<<20 {
			t.Errorf("token %q: the heap grew by %d MB over 300 requests of 100 KB; the server keeps requests", token, grown>>20)
		}
	}
}

// serve sends one request straight to the server's handler, with ctx as the
// request's context, and returns the response.
func serve(srv http.Handler, ctx context.Context, method, path, body string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest(method, path, strings.NewReader(body)).WithContext(ctx))
	return w
}

// pausingCtx pauses the first caller of Deadline until released. A search
// derives its server-side deadline from the request's context once it has
// captured the index, so the pause holds a search in the middle of its work.
type pausingCtx struct {
	context.Context
	once    sync.Once
	entered chan struct{}
	release chan struct{}
}

func (c *pausingCtx) Deadline() (time.Time, bool) {
	c.once.Do(func() {
		close(c.entered)
		<-c.release
	})
	return c.Context.Deadline()
}

// A write does not wait for a search in progress (the search holds no lock
// while it evaluates), and the search answers from the index as it was when
// it started.
func TestWriteDoesNotWaitForSearch(t *testing.T) {
	srv, err := registryserver.New(registryserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := startOn(t, srv)
	seedAgents(t, e)
	ctx := &pausingCtx{Context: context.Background(), entered: make(chan struct{}), release: make(chan struct{})}
	searched := make(chan *httptest.ResponseRecorder, 1)
	go func() {
		searched <- serve(srv, ctx, "POST", "/v1/"+parent+"/agents:search", `{"searchString":"travel OR concurrent"}`)
	}()
	select {
	case <-ctx.entered:
	case w := <-searched:
		t.Fatalf("the search finished (%d) without consulting its request context: it cannot stop when the client goes away", w.Code)
	case <-time.After(10 * time.Second):
		t.Fatal("the search never consulted its request context")
	}
	wrote := make(chan *httptest.ResponseRecorder, 1)
	go func() {
		svc, _ := json.Marshal(agentService("Concurrent Writer", "Written during a search."))
		wrote <- serve(srv, context.Background(), "POST", "/v1/"+parent+"/services?serviceId=concurrent-writer", string(svc))
	}()
	select {
	case w := <-wrote:
		if w.Code != http.StatusOK {
			t.Fatalf("write during the search: %d %s", w.Code, w.Body)
		}
	case <-time.After(10 * time.Second):
		close(ctx.release)
		t.Fatal("the write waited for the search to finish")
	}
	close(ctx.release)
	w := <-searched
	var resp agentregistry.SearchAgentsResponse
	if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil || w.Code != http.StatusOK {
		t.Fatalf("search: %d %s", w.Code, w.Body)
	}
	var ids []string
	for _, a := range resp.Agents {
		ids = append(ids, idOf(a.Name))
	}
	if got := strings.Join(ids, " "); got != "flight-booker trip-planner" {
		t.Errorf("the search that started before the write found %q, want the agents of its start", got)
	}
	if got := searchIDs(t, e, "travel OR concurrent"); len(got) != 3 {
		t.Errorf("a search after the write found %v, want 3 agents", got)
	}
}

// A search stops when its client goes away (499 CANCELLED, in the log) and
// when the server's time limit runs out (504 DEADLINE_EXCEEDED).
func TestSearchHonoursContext(t *testing.T) {
	srv, err := registryserver.New(registryserver.Options{SearchTimeout: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	seedAgents(t, startOn(t, srv))
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	for _, path := range []string{"/agents:search", "/agents?filter=travel"} {
		method, body := "GET", ""
		if strings.HasSuffix(path, ":search") {
			method, body = "POST", `{"searchString":"travel"}`
		}
		if w := serve(srv, gone, method, "/v1/"+parent+path, body); w.Code != 499 || !strings.Contains(w.Body.String(), `"CANCELLED"`) {
			t.Errorf("%s after the client left: %d %.200s", path, w.Code, w.Body)
		}
		w := serve(srv, context.Background(), method, "/v1/"+parent+path, body)
		if w.Code != http.StatusGatewayTimeout || !strings.Contains(w.Body.String(), `"DEADLINE_EXCEEDED"`) || !strings.Contains(w.Body.String(), "limit of 1ns") {
			t.Errorf("%s past the server's limit: %d %.200s", path, w.Code, w.Body)
		}
	}
}

// allocPerPage returns the bytes allocated to serve one page of 20 records
// of a parent holding n endpoint services, from the middle of the list of
// collection: "services", or "endpoints" (the records derived from them,
// served from the search index).
func allocPerPage(t *testing.T, collection string, n int) uint64 {
	srv, err := registryserver.New(registryserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		w := serve(srv, context.Background(), "POST", fmt.Sprintf("/v1/%s/services?serviceId=svc-%05d", parent, i), `{"endpointSpec":{"type":"NO_SPEC"}}`)
		if w.Code != http.StatusOK {
			t.Fatalf("create: %d %s", w.Code, w.Body)
		}
	}
	var token string
	for range n / 40 { // halfway through the list
		w := serve(srv, context.Background(), "GET", "/v1/"+parent+"/"+collection+"?pageSize=20&pageToken="+token, "")
		var page map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &page); err != nil || len(as[[]any](t, page[collection])) != 20 {
			t.Fatalf("list %s: %d %s", collection, w.Code, w.Body)
		}
		token = as[string](t, page["nextPageToken"])
	}
	const pages = 20
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range pages {
		serve(srv, context.Background(), "GET", "/v1/"+parent+"/"+collection+"?pageSize=20&pageToken="+token, "")
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / pages
}

// A page of services costs what it returns, however many services the
// parent holds: measured in bytes allocated, not time, so that a page that
// collected and sorted the names of every service would fail.
// The same holds for the derived records, which the search index serves: a
// page without orderBy keeps only the names it returns, where an ordered one
// sorts every match.
func TestListPageCost(t *testing.T) {
	for _, collection := range []string{"services", "endpoints"} {
		small, large := allocPerPage(t, collection, 100), allocPerPage(t, collection, 5000)
		t.Logf("bytes allocated per page of %s: %d with 100 services, %d with 5,000", collection, small, large)
		if large > 2*small {
			t.Errorf("a page of 20 %s allocates %d bytes among 5,000 services and %d among 100: it costs what the collection holds, not what it returns", collection, large, small)
		}
	}
}

// Every id in a path is checked against the API's rules (a trailing hyphen
// included), and a malformed one is a 400 INVALID_ARGUMENT naming the part,
// before anything is stored: a 40,000-character project id, or bytes that
// are not UTF-8 (/projects/%FF%FE/), store nothing.
func TestPathIDsValidated(t *testing.T) {
	srv, err := registryserver.New(registryserver.Options{DataPath: t.TempDir() + "/state.db"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mustClose(t, srv) })
	const loc = "/locations/global"
	svc := `{"endpointSpec":{"type":"NO_SPEC"}}`
	for _, c := range []struct{ method, path, body, field string }{
		{"POST", "/v1/projects/" + strings.Repeat("x", 40000) + loc + "/services?serviceId=abcd", svc, "project"},
		{"POST", "/v1/projects/%FF%FE" + loc + "/services?serviceId=abcd", svc, "project"},
		{"POST", "/v1/projects/a%00b" + loc + "/services?serviceId=abcd", svc, "project"},
		{"POST", "/v1/projects/.." + loc + "/services?serviceId=abcd", svc, "project"},
		{"POST", "/v1/projects/Upper" + loc + "/services?serviceId=abcd", svc, "project"},
		{"POST", "/v1/projects/p1/locations/" + strings.Repeat("l", 64) + "/services?serviceId=abcd", svc, "location"},
		{"POST", "/v1/projects/p1/locations/gl%C3%B6bal/services?serviceId=abcd", svc, "location"},
		{"POST", "/v1/" + parent + "/services?serviceId=abc-", svc, "service_id"},
		{"POST", "/v1/" + parent + "/services?serviceId=" + strings.Repeat("a", 64), svc, "service_id"},
		{"GET", "/v1/" + parent + "/services/%FF", "", "service_id"},
		{"PATCH", "/v1/" + parent + "/services/a..b?updateMask=description", `{"description":"x"}`, "service_id"},
		{"DELETE", "/v1/" + parent + "/services/abc%00", "", "service_id"},
		{"GET", "/v1/" + parent + "/agents/" + strings.Repeat("a", 100), "", "service_id"},
		{"GET", "/v1/" + parent + "/mcpServers/..", "", "service_id"},
		{"GET", "/v1/" + parent + "/operations/" + strings.Repeat("o", 129), "", "operation"},
		{"GET", "/v1/" + parent + "/applications/%FF/workloads", "", "application"},
		{"PATCH", "/v1/" + parent + "/applications/app/workloads/w-?allowMissing=true&updateMask=displayName", `{"displayName":"W"}`, "workload"},
		{"GET", "/v1/" + parent + "/extendedMetadataSchemas/apphub.googleapis.com/../x", "", "extended_metadata_schema"},
	} {
		w := serve(srv, context.Background(), c.method, c.path, c.body)
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `"field":"`+c.field+`"`) {
			t.Errorf("%s %.80s: %d %.300s; want 400 naming %s", c.method, c.path, w.Code, w.Body, c.field)
		}
	}
	// Nothing was stored under any of those names.
	if w := serve(srv, context.Background(), "GET", "/v1/"+parent+"/services", ""); w.Body.String() != "{}\n" {
		t.Errorf("services after the rejected writes: %s", w.Body)
	}
	// What the rules allow: short ids for local tests, project numbers, a
	// workload created by PATCH with allowMissing.
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/v1/projects/p/locations/l/services?serviceId=a-b1", svc},
		{"POST", "/v1/projects/123456789012/locations/us-central1/services?serviceId=abcd", svc},
		{"PATCH", "/v1/" + parent + "/applications/app/workloads/w-1?allowMissing=true&updateMask=displayName", `{"displayName":"W"}`},
	} {
		if w := serve(srv, context.Background(), c.method, c.path, c.body); w.Code != http.StatusOK {
			t.Errorf("%s %s: %d %.300s", c.method, c.path, w.Code, w.Body)
		}
	}
}

// The field named in the update mask takes its value from the same field of
// the request, never from another spec the request carries: a mask of
// agent_spec.content with only mcpServerSpec in the body changes no card,
// and the reverse.
func TestUpdateMaskTakesItsOwnField(t *testing.T) {
	e := start(t, registryserver.Options{})
	svcs := e.ar.Projects.Locations.Services
	cardA := card("Mask Agent", "The original card.")
	e.create(t, "mask-agent", &agentregistry.Service{AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: googleapi.RawMessage(cardA)}})
	e.create(t, "mask-mcp", &agentregistry.Service{McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: googleapi.RawMessage(toolSpec)}})
	otherTools := `{"tools":[{"name":"other","inputSchema":{"type":"object"}}]}`
	for _, c := range []struct {
		name, mask, field string
		body              *agentregistry.Service
	}{
		{"mask-agent", "agentSpec.content", "agent_spec.content", &agentregistry.Service{
			McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: googleapi.RawMessage(card("Smuggled", "Sent as MCP content."))}}},
		{"mask-mcp", "mcpServerSpec.content", "mcp_server_spec.content", &agentregistry.Service{
			AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: googleapi.RawMessage(otherTools)}}},
	} {
		before, err := svcs.Get(parent + "/services/" + c.name).Do()
		if err != nil {
			t.Fatal(err)
		}
		_, err = svcs.Patch(parent+"/services/"+c.name, c.body).UpdateMask(c.mask).Do()
		ge := asAPIErr(t, err, 400, "INVALID_ARGUMENT")
		if v := violations(t, ge); !strings.Contains(v[c.field], "the request has no") {
			t.Errorf("%s: violations %v, want one on %s", c.name, v, c.field)
		}
		after, err := svcs.Get(parent + "/services/" + c.name).Do()
		if err != nil {
			t.Fatal(err)
		}
		if b, a := specContent(before), specContent(after); b != a {
			t.Errorf("%s: the spec changed from %s to %s", c.name, b, a)
		}
	}
}

func specContent(s *agentregistry.Service) string {
	if s.AgentSpec != nil {
		return string(s.AgentSpec.Content)
	}
	return string(s.McpServerSpec.Content)
}

// clock is a settable clock for Options.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Each request below is refused: a malformed pageToken, interface URLs that
// are javascript: or file: or number in the thousands, and a name repeated
// in a body (never resolved to its last value).
func TestSmallerHoles(t *testing.T) {
	srv, err := registryserver.New(registryserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	iface := func(url string) string { return `{"url":"` + url + `","protocolBinding":"JSONRPC"}` }
	many := strings.TrimSuffix(strings.Repeat(iface("https://a.example.test")+",", 33), ",")
	mcp := func(ifaces string) string {
		return `{"mcpServerSpec":{"type":"NO_SPEC"},"interfaces":[` + ifaces + `]}`
	}
	cardWithRepeatedName := strings.Replace(string(card("Twice", "A card with a repeated name.")), `"name":"Twice"`, `"name":"Twice","name":"Once"`, 1)
	for _, c := range []struct{ method, path, body, want string }{
		{"GET", "/extendedMetadataSchemas?pageToken=garbage", "", "page_token"},
		{"GET", "/extendedMetadataSchemas?pageToken=e30", "", "page_token"},
		{"POST", "/services?serviceId=js-url", mcp(iface("javascript://example.test/%0Aalert(1)")), "interfaces[0].url"},
		{"POST", "/services?serviceId=file-url", mcp(iface("file://host.example.test/etc/passwd")), "interfaces[0].url"},
		{"POST", "/services?serviceId=many-urls", mcp(many), "at most 32 interfaces, got 33"},
		{"POST", "/services?serviceId=repeated", `{"displayName":"a","endpointSpec":{"type":"NO_SPEC"},"displayName":"b"}`, "the name /displayName appears more than once"},
		{"POST", "/services?serviceId=repeated", `{"agentSpec":{"type":"A2A_AGENT_CARD","content":` + cardWithRepeatedName + `}}`, "the name /agentSpec/content/name appears more than once"},
		{"POST", "/agents:search", `{"searchString":"travel","searchString":"billing"}`, "the name /searchString appears more than once"},
		{"PATCH", "/applications/app/workloads/w?allowMissing=true", `{"attributes":{"criticality":{"type":"LOW","type":"HIGH"}}}`, "/attributes/criticality/type appears"},
		{"POST", "/services?serviceId=bad-utf8", "{\"displayName\":\"a\xffb\",\"endpointSpec\":{\"type\":\"NO_SPEC\"}}", "invalid UTF-8 byte 0xff"},
		{"POST", "/services?serviceId=lone-surrogate", `{"displayName":"a\ud800b","endpointSpec":{"type":"NO_SPEC"}}`, `unpaired surrogate \\ud800`},
	} {
		w := serve(srv, context.Background(), c.method, "/v1/"+parent+c.path, c.body)
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), c.want) {
			t.Errorf("%s %s: %d %.300s; want 400 with %q", c.method, c.path, w.Code, w.Body, c.want)
		}
		// Only a refusal for load asks the client to retry (TestMaxInFlight).
		if ra, ok := w.Header()["Retry-After"]; ok {
			t.Errorf("%s %s: a 400 with Retry-After %q", c.method, c.path, ra)
		}
	}
	// A name repeated in different objects (array elements included), or
	// as a value, is fine.
	for id, body := range map[string]string{
		"two-urls":     mcp(iface("http://a.example.test") + "," + iface("https://b.example.test")),
		"names-values": `{"displayName":"description","description":"displayName","endpointSpec":{"type":"NO_SPEC"}}`,
	} {
		if w := serve(srv, context.Background(), "POST", "/v1/"+parent+"/services?serviceId="+id, body); w.Code != http.StatusOK {
			t.Errorf("%s: %d %s", id, w.Code, w.Body)
		}
	}
}

// Options.MaxInFlight caps the requests handled at once; the next
// is a 503 with Retry-After at once, and is served again once one finishes.
func TestMaxInFlight(t *testing.T) {
	srv, err := registryserver.New(registryserver.Options{MaxInFlight: 1})
	if err != nil {
		t.Fatal(err)
	}
	// A create whose body arrives slowly holds the one slot.
	body, feed := io.Pipe()
	held := make(chan int, 1)
	go func() {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest("POST", "/v1/"+parent+"/services?serviceId=slow-body", body))
		held <- w.Code
	}()
	if _, err := feed.Write([]byte(`{"endpointSpec":`)); err != nil { // returns once the handler reads
		t.Fatal(err)
	}
	w := serve(srv, context.Background(), "GET", "/v1/"+parent+"/services", "")
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "1" || !strings.Contains(w.Body.String(), `"UNAVAILABLE"`) {
		t.Errorf("a request over the cap: %d %q %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	_, _ = feed.Write([]byte(`{"type":"NO_SPEC"}}`))
	_ = feed.Close() // a pipe writer's Close returns nil
	if code := <-held; code != http.StatusOK {
		t.Fatalf("the slow create: %d", code)
	}
	if w := serve(srv, context.Background(), "GET", "/v1/"+parent+"/services", ""); w.Code != http.StatusOK {
		t.Errorf("after the slot was freed: %d %s", w.Code, w.Body)
	}
}

// Every route and method of the server requires the token, the
// operations included. With the token, a method outside each route's set is
// a 405 whose Allow header lists exactly the methods of the table, which
// keeps the table in step with the router.
func TestEveryRouteRequiresTheToken(t *testing.T) {
	const token = "s3cret-token"
	srv, err := registryserver.New(registryserver.Options{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	routes := []struct {
		path    string
		methods []string
	}{
		{"/services", []string{"GET", "POST"}},
		{"/services/a-service", []string{"DELETE", "GET", "PATCH"}},
		{"/agents", []string{"GET"}},
		{"/agents:search", []string{"POST"}},
		{"/agents/a-service", []string{"GET"}},
		{"/mcpServers", []string{"GET"}},
		{"/mcpServers:search", []string{"POST"}},
		{"/mcpServers/a-service", []string{"GET"}},
		{"/operations/operation-1-abc", []string{"DELETE", "GET"}},
		{"/applications/app/workloads", []string{"GET"}},
		{"/applications/app/workloads/w", []string{"DELETE", "GET", "PATCH"}},
		{"/extendedMetadataSchemas", []string{"GET"}},
		{"/extendedMetadataSchemas/apphub.googleapis.com/AgentProperties", []string{"GET"}},
	}
	send := func(method, path, auth string) *httptest.ResponseRecorder {
		query := "?serviceId=a-service&allowMissing=true" // what a create needs; a list takes neither
		if method == "GET" {
			query = ""
		}
		req := httptest.NewRequest(method, "/v1/"+parent+path+query, strings.NewReader(`{"endpointSpec":{"type":"NO_SPEC"}}`))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		return w
	}
	for _, rt := range routes {
		for _, method := range append([]string{"PUT"}, rt.methods...) {
			for _, auth := range []string{"", "Bearer wrong-token", "Basic " + token, "Bearer " + token + "x", token} {
				w := send(method, rt.path, auth)
				if w.Code != http.StatusUnauthorized || !strings.Contains(w.Body.String(), `"UNAUTHENTICATED"`) || w.Header().Get("WWW-Authenticate") == "" {
					t.Errorf("%s %s with Authorization %q: %d %.200s; want 401 UNAUTHENTICATED", method, rt.path, auth, w.Code, w.Body)
				}
			}
		}
		w := send("PUT", rt.path, "Bearer "+token)
		if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != strings.Join(rt.methods, ", ") {
			t.Errorf("PUT %s with the token: %d, Allow %q; want 405 allowing %v", rt.path, w.Code, w.Header().Get("Allow"), rt.methods)
		}
	}
	// Nothing the refused requests asked for happened.
	if w := send("GET", "/services", "Bearer "+token); w.Code != http.StatusOK || w.Body.String() != "{}\n" {
		t.Errorf("services after the refused writes: %d %s", w.Code, w.Body)
	}
	if w := send("GET", "/applications/app/workloads", "bearer "+token); w.Code != http.StatusOK || w.Body.String() != "{}\n" {
		t.Errorf("workloads after the refused writes (scheme in lower case): %d %s", w.Code, w.Body)
	}
}

// Empty path segments are never resource ids, except inside a schema id
// (which holds a slash); a parent with no collection after it is an unknown
// path, not a malformed one.
func TestEmptyAndShortPaths(t *testing.T) {
	srv, err := registryserver.New(registryserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, want, notWant string
	}{
		// locations.get and locations.list are methods (locations.go).
		{"/v1/projects/p1", "unknown path", "empty path segment"},
		{"/v1/projects/p1/locations/global/widgets", "unknown path", "empty path segment"},
		{"/v1/" + parent + "/services/", "empty path segment", ""},
		{"/v1/" + parent + "/services/x/", "empty path segment", ""},
		{"/v1/" + parent + "/extendedMetadataSchemas/", "empty path segment", ""},
		{"/v1/" + parent + "/extendedMetadataSchemas/apphub.googleapis.com/", "", "empty path segment"},
	} {
		w := serve(srv, context.Background(), "GET", c.path, "")
		body := w.Body.String()
		if w.Code < 400 || !strings.Contains(body, c.want) || (c.notWant != "" && strings.Contains(body, c.notWant)) {
			t.Errorf("GET %s: %d %.200s; want an error with %q, without %q", c.path, w.Code, body, c.want, c.notWant)
		}
	}
}

// The request log line carries the status the client received: an error's,
// not the 200 that a body write would otherwise imply.
func TestRequestLogHasTheStatus(t *testing.T) {
	var logged bytes.Buffer
	srv, err := registryserver.New(registryserver.Options{Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"/v1/" + parent + "/services/missing": "status=404",
		"/v1/" + parent + "/services":         "status=200",
	} {
		logged.Reset()
		serve(srv, context.Background(), "GET", path, "")
		if !strings.Contains(logged.String(), want) {
			t.Errorf("GET %s logged %q, want %s", path, logged.String(), want)
		}
	}
}

// A refused id is quoted in the message whole up to 64 bytes, and cut with
// "..." beyond, so that a hostile id does not fill the error.
func TestRefusedIDIsQuotedUpTo64Bytes(t *testing.T) {
	srv, err := registryserver.New(registryserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ id, quoted string }{
		{strings.Repeat("a", 64), `\"` + strings.Repeat("a", 64) + `\"`},
		{strings.Repeat("a", 65), `\"` + strings.Repeat("a", 64) + `...\"`},
	} {
		w := serve(srv, context.Background(), "GET", "/v1/"+parent+"/services/"+c.id, "")
		if w.Code != 400 || !strings.Contains(w.Body.String(), c.quoted) {
			t.Errorf("GET of an id of %d bytes: %d %.300s; want it quoted as %s", len(c.id), w.Code, w.Body, c.quoted)
		}
	}
}

// Every logged value is truncated to a prefix and its length: 1 MB paths
// sent without a token write log lines of a few hundred bytes.
func TestLoggedValuesTruncated(t *testing.T) {
	var buf bytes.Buffer
	srv, err := registryserver.New(registryserver.Options{Token: "secret", Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	long := "/v1/" + strings.Repeat("a", 1<<20)
	method := strings.Repeat("M", 1<<16)
	if w := do(t, srv, "GET", long, ""); w.Code != http.StatusUnauthorized {
		t.Fatalf("%d", w.Code)
	}
	if w := do(t, srv, method, "/v1/x", ""); w.Code != http.StatusUnauthorized {
		t.Fatalf("%d", w.Code)
	}
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if len(line) > 2048 {
			t.Errorf("a log line of %d bytes: %.200s...", len(line), line)
		}
	}
	for _, n := range []int{len(long), len(method)} {
		if !strings.Contains(buf.String(), strconv.Itoa(n)+" bytes") {
			t.Errorf("the log does not give the length of a truncated value (%d bytes): %.300s", n, buf.String())
		}
	}
}
