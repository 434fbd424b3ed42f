package registryserver

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
)

const benchParent = "projects/bench/locations/global"

var (
	benchOnce sync.Once
	benchSrv  *Server
	benchDocs map[string]docFields
)

var benchWords = []string{"travel", "booking", "invoice", "billing", "weather", "forecast", "calendar", "meeting",
	"planner", "planning", "plane", "support", "ticket", "refund", "payment", "search", "summary", "translate",
	"document", "report", "email", "schedule", "hotel", "flight", "customer", "order", "inventory", "shipping"}

// benchServer holds 10,000 agents with 5 skills each. Records are loaded
// through the same code path as a restart (putDerived), which skips the
// per-request validation that would dominate the set-up time.
func benchServer(tb testing.TB) (*Server, map[string]docFields) {
	benchOnce.Do(func() {
		r := rand.New(rand.NewPCG(42, 43))
		word := func() string {
			if r.IntN(4) == 0 {
				return benchWords[r.IntN(len(benchWords))]
			}
			return fmt.Sprintf("term%d", r.IntN(5000))
		}
		words := func(n int) string {
			w := make([]string, n)
			for i := range w {
				w[i] = word()
			}
			return strings.Join(w, " ")
		}
		s, err := New(Options{})
		if err != nil {
			panic(err)
		}
		now := time.Now().UTC().Format(time.RFC3339Nano)
		benchDocs = map[string]docFields{}
		for i := range 10000 {
			var skills []map[string]any
			for j := range 5 {
				skills = append(skills, map[string]any{
					"id": fmt.Sprintf("skill-%d-%d", i, j), "name": words(3), "description": words(10),
					"tags": []string{word(), word(), word()}, "examples": []string{words(5), words(5)},
				})
			}
			card, _ := json.Marshal(map[string]any{
				"protocolVersion": "0.3.0", "name": "Agent " + words(2), "description": words(12), "version": "1.0.0",
				"url": fmt.Sprintf("https://a%d.example.test", i), "capabilities": map[string]any{},
				"defaultInputModes": []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"}, "skills": skills,
			})
			svc := &resource.Service{
				Name:       fmt.Sprintf("%s/services/agent-%05d", benchParent, i),
				AgentSpec:  &resource.AgentSpec{Type: "A2A_AGENT_CARD", Content: json.RawMessage(card)},
				CreateTime: now, UpdateTime: now,
			}
			svc.RegistryResource = registryResource(svc)
			s.services.put(svc.Name, svc)
			s.putDerived(svc)
			a, d := deriveAgent(svc)
			benchDocs[a.Name] = d
		}
		benchSrv = s
	})
	if versions, _ := benchSrv.agentIx[benchParent].Held(); versions != 10000 {
		tb.Fatalf("bench corpus has %d agents", versions)
	}
	return benchSrv, benchDocs
}

var benchQueries = []struct{ name, q string }{
	{"single-word", "travel"},
	{"field-value", "skills.tags:booking"},
	{"prefix", "plan*"},
	{"boolean", "(travel OR invoice) AND NOT billing"},
}

// reportPercentiles reports the median and 99th percentile of lat, in ms.
func reportPercentiles(b *testing.B, lat []time.Duration) {
	p50, p99 := percentiles(lat)
	b.ReportMetric(p50, "p50-ms")
	b.ReportMetric(p99, "p99-ms")
}

func percentiles(d []time.Duration) (p50, p99 float64) {
	slices.Sort(d)
	at := func(p float64) float64 {
		i := int(p * float64(len(d)-1))
		return float64(d[i].Nanoseconds()) / 1e6
	}
	return at(0.50), at(0.99)
}

// BenchmarkSearchAgents measures agents:search end to end through the HTTP
// handler (parse, index, sort, page of 20, JSON), reporting p50/p99 per query
// kind, and the same queries answered by a naive scan for comparison.
func BenchmarkSearchAgents(b *testing.B) {
	s, docs := benchServer(b)
	for _, bq := range benchQueries {
		b.Run("index/"+bq.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for b.Loop() {
				lat = append(lat, serveSearch(b, s, bq.q))
			}
			reportPercentiles(b, lat)
		})
		b.Run("scan/"+bq.name, func(b *testing.B) {
			n, err := search.ParseQuery(bq.q, agentFields)
			if err != nil {
				b.Fatal(err)
			}
			lat := make([]time.Duration, 0, b.N)
			for b.Loop() {
				t0 := time.Now()
				res := naiveScan(docs, n, 20)
				lat = append(lat, time.Since(t0))
				if len(res) == 0 {
					b.Fatal("no results")
				}
			}
			reportPercentiles(b, lat)
		})
	}
}

// naiveScan is the baseline: test every document, sort, take a page. It
// does no JSON, so it flatters the scan.
func naiveScan(docs map[string]docFields, n queryNode, limit int) []string {
	var out []string
	for name, d := range docs {
		if matchDoc(n, agentFields, d) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// TestSearchIndexAgreesWithScan10k checks the index against a full scan on the
// benchmark's 10,000-agent corpus, through the HTTP handler. It logs latencies
// for information only: speed is judged by BenchmarkSearchAgents, never by a
// timed assertion on a shared machine. Skipped in -short mode.
func TestSearchIndexAgreesWithScan10k(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10,000-agent corpus")
	}
	s, docs := benchServer(t)
	for _, bq := range benchQueries {
		n, _ := search.ParseQuery(bq.q, agentFields)
		want := naiveScan(docs, n, 20)
		body := fmt.Sprintf(`{"searchString":%q,"pageSize":20}`, bq.q)
		var lat []time.Duration
		for range 200 {
			req := httptest.NewRequest("POST", "/v1/"+benchParent+"/agents:search", strings.NewReader(body))
			w := httptest.NewRecorder()
			t0 := time.Now()
			s.ServeHTTP(w, req)
			lat = append(lat, time.Since(t0))
			var resp agentregistry.SearchAgentsResponse
			if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil || len(resp.Agents) != len(want) || resp.Agents[0].Name != want[0] {
				t.Fatalf("%s: index and scan disagree (%v)", bq.q, err)
			}
		}
		p50, p99 := percentiles(lat)
		t.Logf("%-12s p50 %.3f ms  p99 %.3f ms", bq.name, p50, p99)
	}
}
