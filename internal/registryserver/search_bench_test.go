package registryserver_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

const benchParent = "projects/bench/locations/global"

var (
	benchOnce sync.Once
	benchDir  string // the corpus's data file's folder, removed by TestMain
	benchSrv  *registryserver.Server
	benchDocs map[string]searchquery.Fields
	benchErr  error
)

var benchWords = []string{"travel", "booking", "invoice", "billing", "weather", "forecast", "calendar", "meeting",
	"planner", "planning", "plane", "support", "ticket", "refund", "payment", "search", "summary", "translate",
	"document", "report", "email", "schedule", "hotel", "flight", "customer", "order", "inventory", "shipping"}

// TestMain removes the benchmark corpus's data file once the tests and
// benchmarks that share it are done.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		_ = os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// benchServer holds 10,000 agents with 5 skills each. The services are
// written straight into a data file and the server loads them from it, as
// at a restart: the per-request validation of 10,000 creates would
// dominate the set-up time. The naive scan's documents are the agents the
// server derived, as it lists them.
func benchServer(tb testing.TB) (*registryserver.Server, map[string]searchquery.Fields) {
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "registryserver-bench-") //nolint:usetesting // shared by every test and benchmark of the binary: TestMain removes it
		if benchErr == nil {
			path := filepath.Join(benchDir, "data.db")
			if benchErr = writeBenchCorpus(path); benchErr == nil {
				benchSrv, benchErr = registryserver.New(registryserver.Options{DataPath: path})
			}
		}
		if benchErr == nil {
			benchDocs, benchErr = agentDocs(benchSrv)
		}
	})
	if benchErr != nil {
		tb.Fatal(benchErr)
	}
	if len(benchDocs) != 10000 {
		tb.Fatalf("bench corpus has %d agents", len(benchDocs))
	}
	return benchSrv, benchDocs
}

// writeBenchCorpus writes the services of the corpus into a new data file
// at path (the bucket the server loads its services from).
func writeBenchCorpus(path string) error {
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
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return err
	}
	now := time.Now().UTC().Format(time.RFC3339Nano)
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte("services"))
		for i := 0; i < 10000 && err == nil; i++ {
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
			name := fmt.Sprintf("%s/services/agent-%05d", benchParent, i)
			svc, _ := json.Marshal(map[string]any{"name": name, "agentSpec": map[string]any{"type": "A2A_AGENT_CARD", "content": json.RawMessage(card)},
				"createTime": now, "updateTime": now, "registryResource": fmt.Sprintf("%s/agents/agent-%05d", benchParent, i)})
			err = b.Put([]byte(name), svc)
		}
		return err
	})
	return errors.Join(err, db.Close())
}

// agentDocs lists the agents of the corpus through the server and returns
// each one's search fields, by name.
func agentDocs(s *registryserver.Server) (map[string]searchquery.Fields, error) {
	docs := map[string]searchquery.Fields{}
	tok := ""
	for {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", "/v1/"+benchParent+"/agents?pageSize=100&pageToken="+tok, nil))
		var page agentregistry.ListAgentsResponse
		if err := json.Unmarshal(w.Body.Bytes(), &page); err != nil {
			return nil, fmt.Errorf("list agents: %d %.200s: %w", w.Code, w.Body, err)
		}
		for _, a := range page.Agents {
			doc := searchquery.Agent{AgentID: a.AgentId, Name: a.Name, DisplayName: a.DisplayName, Description: a.Description}
			for _, sk := range a.Skills {
				doc.Skills = append(doc.Skills, searchquery.AgentSkill{ID: sk.Id, Name: sk.Name, Description: sk.Description, Tags: sk.Tags, Examples: sk.Examples})
			}
			docs[a.Name] = doc.Fields()
		}
		if tok = page.NextPageToken; tok == "" {
			return docs, nil
		}
	}
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
			n, err := searchquery.Parse(bq.q, searchquery.Agents)
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
func naiveScan(docs map[string]searchquery.Fields, q searchquery.Query, limit int) []string {
	var out []string
	for name, d := range docs {
		if searchquery.MatchNode(q.Root, searchquery.Agents, d) {
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
		n, _ := searchquery.Parse(bq.q, searchquery.Agents)
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
