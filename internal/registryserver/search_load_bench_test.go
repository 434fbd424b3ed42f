package registryserver_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

// worstQueries are the costliest searches the query limits accept (at most
// searchquery.MaxTerms terms, nesting at most searchquery.MaxDepth deep):
// prefixes that each expand to thousands of terms, phrases whose words are
// common, and the deepest nesting.
var worstQueries = []struct{ name, q string }{
	{"worst-prefix", worstPrefixQuery()},
	{"worst-phrase", worstPhraseQuery()},
	{"worst-nested", strings.Repeat("NOT (t* OR ", 16) + "travel" + strings.Repeat(")", 16)},
}

// worstPrefixQuery ORs 64 distinct prefixes of the corpus's "termN" words, so
// that no two terms share an evaluation and the broadest ones expand to every
// such word.
func worstPrefixQuery() string {
	terms := []string{"t*", "te*", "ter*", "term*"}
	for i := 1; len(terms) < 64; i++ {
		terms = append(terms, fmt.Sprintf("term%d*", i))
	}
	return strings.Join(terms, " OR ")
}

// worstPhraseQuery ORs 64 distinct two-word phrases of common words, the last
// a prefix, which the phrase check must confirm document by document.
func worstPhraseQuery() string {
	var terms []string
	for i := 0; len(terms) < 64; i++ {
		a, b := benchWords[i%len(benchWords)], benchWords[(i/len(benchWords)+i+1)%len(benchWords)]
		terms = append(terms, fmt.Sprintf(`"%s %s*"`, a, b[:2]))
	}
	return strings.Join(terms, " OR ")
}

// timed serves one request and returns how long it took; anything but a
// 200 fails the benchmark.
func timed(tb testing.TB, s *registryserver.Server, method, path, body string) time.Duration {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	w := httptest.NewRecorder()
	t0 := time.Now()
	s.ServeHTTP(w, req)
	d := time.Since(t0)
	if w.Code != http.StatusOK {
		tb.Fatalf("%s %.80s: %d %.200s", method, path, w.Code, w.Body)
	}
	return d
}

func serveSearch(tb testing.TB, s *registryserver.Server, q string) time.Duration {
	return timed(tb, s, "POST", "/v1/"+benchParent+"/agents:search", fmt.Sprintf(`{"searchString":%q,"pageSize":20}`, q))
}

// BenchmarkSearchWorstCase reports p50/p99 of the worst accepted searches on
// the 10,000-agent corpus.
func BenchmarkSearchWorstCase(b *testing.B) {
	s, _ := benchServer(b)
	for _, wq := range worstQueries {
		b.Run(wq.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for b.Loop() {
				lat = append(lat, serveSearch(b, s, wq.q))
			}
			reportPercentiles(b, lat)
		})
	}
}

// BenchmarkWriteDuringSearch reports the latency of a write (PATCH of a
// service's display name, which re-validates its card) while another
// goroutine runs a worst-case search over and over, and with no search at all
// as the baseline.
func BenchmarkWriteDuringSearch(b *testing.B) {
	s, _ := benchServer(b)
	cases := append([]struct{ name, q string }{{"idle", ""}}, worstQueries...)
	for _, wq := range cases {
		b.Run(wq.name, func(b *testing.B) {
			var stop atomic.Bool
			var wg sync.WaitGroup
			if wq.q != "" {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for !stop.Load() {
						serveSearch(b, s, wq.q)
					}
				}()
				// Let the first search start before the first write.
				time.Sleep(5 * time.Millisecond)
			}
			lat := make([]time.Duration, 0, b.N)
			for i := 0; b.Loop(); i++ {
				name := fmt.Sprintf("/v1/%s/services/agent-%05d?updateMask=displayName", benchParent, i%100)
				lat = append(lat, timed(b, s, "PATCH", name, fmt.Sprintf(`{"displayName":"Renamed %d"}`, i)))
			}
			stop.Store(true)
			wg.Wait()
			reportPercentiles(b, lat)
		})
	}
}

// BenchmarkListServices reports p50/p99 of a page of 20 services taken from
// the middle of the 10,000 services of the corpus.
func BenchmarkListServices(b *testing.B) {
	s, _ := benchServer(b)
	tok := registryserver.PageToken(fmt.Sprintf("%s/services/agent-%05d", benchParent, 5000), "services", benchParent, "")
	lat := make([]time.Duration, 0, b.N)
	for b.Loop() {
		lat = append(lat, timed(b, s, "GET", "/v1/"+benchParent+"/services?pageSize=20&pageToken="+tok, ""))
	}
	reportPercentiles(b, lat)
}
