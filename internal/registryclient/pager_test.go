package registryclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// hostileRegistry answers every list and search, for ever: page is called
// with the request's number (from 1) and writes the answer. It counts the
// requests it was sent.
func hostileRegistry(t *testing.T, page func(w http.ResponseWriter, r *http.Request, n int64)) (string, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		page(w, r, n.Add(1))
	})
	return srv.URL, &n
}

// fullPage is a page of count records under every list key, each with a
// description of descBytes bytes, and the next token.
func fullPage(w http.ResponseWriter, count, descBytes int, next string) {
	desc := strings.Repeat("d", descBytes)
	records := make([]map[string]any, count)
	for i := range records {
		records[i] = map[string]any{"name": fmt.Sprintf("%s/things/r%d", testParent, i), "description": desc}
	}
	body := map[string]any{"nextPageToken": next}
	for _, key := range []string{"services", "agents", "mcpServers", "endpoints", "bindings", "skills"} {
		body[key] = records
	}
	writeJSON(w, 200, body)
}

// pagedReads are every paged read of the client, each run to its end.
func pagedReads() map[string]func(ctx context.Context, c *Client) error {
	p := testParent
	return map[string]func(ctx context.Context, c *Client) error{
		"ServicePages": func(ctx context.Context, c *Client) error {
			_, err := countPages(c.ServicePages(ctx, p, "", 100), 0)
			return err
		},
		"AgentPages": func(ctx context.Context, c *Client) error {
			_, err := countPages(c.AgentPages(ctx, p, 100), 0)
			return err
		},
		"McpServerPages": func(ctx context.Context, c *Client) error {
			_, err := countPages(c.McpServerPages(ctx, p, 100), 0)
			return err
		},
		"EndpointPages": func(ctx context.Context, c *Client) error {
			_, err := countPages(c.EndpointPages(ctx, p, 100), 0)
			return err
		},
		"SearchAgentPages": func(ctx context.Context, c *Client) error {
			_, err := countPages(c.SearchAgentPages(ctx, p, "x", 100), 0)
			return err
		},
		"SearchMcpServerPages": func(ctx context.Context, c *Client) error {
			_, err := countPages(c.SearchMcpServerPages(ctx, p, "x", 100), 0)
			return err
		},
		"BindingPages": func(ctx context.Context, c *Client) error {
			_, err := countPages(c.BindingPages(ctx, p, "", 100), 0)
			return err
		},
		"SkillPages": func(ctx context.Context, c *Client) error {
			_, err := countPages(c.SkillPages(ctx, p, "", 100), 0)
			return err
		},
		"ListAgents":     func(ctx context.Context, c *Client) error { _, err := c.ListAgents(ctx, p, "", 0); return err },
		"ListMcpServers": func(ctx context.Context, c *Client) error { _, err := c.ListMcpServers(ctx, p, "", 0); return err },
		"ListEndpoints":  func(ctx context.Context, c *Client) error { _, err := c.ListEndpoints(ctx, p, "", 0); return err },
		"ListBindings":   func(ctx context.Context, c *Client) error { _, err := c.ListBindings(ctx, p, "", 0); return err },
		"FetchAvailableBindings": func(ctx context.Context, c *Client) error {
			_, err := c.FetchAvailableBindings(ctx, p, "s", "", 0)
			return err
		},
		"SearchAgents":     func(ctx context.Context, c *Client) error { _, err := c.SearchAgents(ctx, p, "x", 0); return err },
		"SearchMcpServers": func(ctx context.Context, c *Client) error { _, err := c.SearchMcpServers(ctx, p, "x", 0); return err },
		"SearchSkills":     func(ctx context.Context, c *Client) error { _, err := c.SearchSkills(ctx, p, "x", "", 0); return err },
	}
}

// limitError asserts err is a *PageLimitError at cap and returns it.
func limitError(t *testing.T, err error, want string) *PageLimitError {
	t.Helper()
	var le *PageLimitError
	if !errors.As(err, &le) {
		t.Fatalf("error %v (%T), want a *PageLimitError at the %s cap", err, err, want)
	}
	if le.Cap != want {
		t.Fatalf("stopped at the %s cap (%v), want the %s cap", le.Cap, le, want)
	}
	if !strings.Contains(le.Error(), "cap of") {
		t.Errorf("message %q does not name the cap", le.Error())
	}
	return le
}

// A registry that sends full pages for ever (100 records of 8 KB, a new
// token each time) ends every read at the byte cap: the client reads no more
// than the cap, and sends a bounded number of requests.
func TestHostileEndlessFullPagesStopAtTheByteCap(t *testing.T) {
	url, requests := hostileRegistry(t, func(w http.ResponseWriter, _ *http.Request, n int64) {
		fullPage(w, 100, 8<<10, fmt.Sprintf("token-%d", n))
	})
	const byteCap = 4 << 20
	c := testClient(t, url, func(cfg *Config) { cfg.PageLimits = PageLimits{Bytes: byteCap} })
	for name, read := range pagedReads() {
		t.Run(name, func(t *testing.T) {
			before := requests.Load()
			le := limitError(t, read(testCtx(t), c), CapBytes)
			if le.Bytes > byteCap+1 {
				t.Errorf("read %d bytes, past the cap of %d", le.Bytes, byteCap)
			}
			// Each page is about 820 KB: the cap is reached on the sixth.
			if sent := requests.Load() - before; sent > 6 {
				t.Errorf("%d requests for a cap of %d bytes of 820 KB pages", sent, byteCap)
			}
		})
	}
}

// Full pages of small records end at the record cap.
func TestHostileEndlessRecordsStopAtTheRecordCap(t *testing.T) {
	url, _ := hostileRegistry(t, func(w http.ResponseWriter, _ *http.Request, n int64) {
		fullPage(w, 100, 1, fmt.Sprintf("token-%d", n))
	})
	c := testClient(t, url, func(cfg *Config) { cfg.PageLimits = PageLimits{Records: 1000} })
	for name, read := range pagedReads() {
		t.Run(name, func(t *testing.T) {
			le := limitError(t, read(testCtx(t), c), CapRecords)
			if le.Pages != 11 || le.Records != 1100 {
				t.Errorf("stopped after %d pages and %d records, want 11 and 1100", le.Pages, le.Records)
			}
		})
	}
}

// Empty pages, each with a new token, end at the cap of empty pages in a
// row: no result is ever produced, so a caller's limit would never stop
// them, and a thousand of them (the page cap) took over 30 s through a CLI.
func TestHostileEndlessEmptyPagesStopAtTheEmptyPageCap(t *testing.T) {
	url, requests := hostileRegistry(t, func(w http.ResponseWriter, _ *http.Request, n int64) {
		fullPage(w, 0, 0, fmt.Sprintf("token-%d", n))
	})
	c := testClient(t, url, func(cfg *Config) { cfg.PageLimits = PageLimits{EmptyPages: 10} })
	for name, read := range pagedReads() {
		t.Run(name, func(t *testing.T) {
			before := requests.Load()
			le := limitError(t, read(testCtx(t), c), CapEmptyPages)
			if sent := requests.Load() - before; sent != 10 || le.Pages != 10 || le.Records != 0 {
				t.Errorf("%d requests, %d pages, %d records; want the cap of 10 empty pages", sent, le.Pages, le.Records)
			}
			if !strings.Contains(le.Error(), "10 pages in a row that brought no record") {
				t.Errorf("message %q does not say the cap", le.Error())
			}
		})
	}
	defaultCapHolds(t, url, requests, CapEmptyPages, DefaultPageLimits.EmptyPages)
}

// defaultCapHolds reads the registry at url with the default caps and checks
// that the read stops at the default of capName after limit requests.
func defaultCapHolds(t *testing.T, url string, requests *atomic.Int64, capName string, limit int) {
	t.Helper()
	before := requests.Load()
	le := limitError(t, pagedReads()["SearchAgents"](testCtx(t), testClient(t, url)), capName)
	if sent := requests.Load() - before; sent != int64(limit) || le.Limit != int64(limit) {
		t.Errorf("%d requests at the default cap (%d), want %d", sent, le.Limit, limit)
	}
}

// A registry whose filtered pages are sparse (here a record every tenth
// page, nine empty pages between) is read to its end: only pages in a row
// that bring nothing count against the cap of empty pages.
func TestSparsePagesAreReadToTheEnd(t *testing.T) {
	url, requests := hostileRegistry(t, func(w http.ResponseWriter, _ *http.Request, n int64) {
		next := fmt.Sprintf("token-%d", n)
		if n == 300 {
			next = ""
		}
		fullPage(w, int(n%10/9), 1, next) // one record on pages 9, 19, 29...
	})
	c := testClient(t, url, func(cfg *Config) { cfg.PageLimits = PageLimits{EmptyPages: 10} })
	agents, err := c.ListAgents(testCtx(t), testParent, "", 0)
	if err != nil || len(agents) != 30 || requests.Load() != 300 {
		t.Fatalf("%d agents in %d pages, %v; want 30 in 300", len(agents), requests.Load(), err)
	}
}

// Pages that each bring a record, with a new token each time, end at the
// page cap.
func TestHostileEndlessSparsePagesStopAtThePageCap(t *testing.T) {
	url, requests := hostileRegistry(t, func(w http.ResponseWriter, _ *http.Request, n int64) {
		fullPage(w, 1, 1, fmt.Sprintf("token-%d", n))
	})
	c := testClient(t, url, func(cfg *Config) { cfg.PageLimits = PageLimits{Pages: 50} })
	for name, read := range pagedReads() {
		t.Run(name, func(t *testing.T) {
			before := requests.Load()
			_ = limitError(t, read(testCtx(t), c), CapPages)
			if sent := requests.Load() - before; sent != 50 {
				t.Errorf("%d requests, want the cap of 50", sent)
			}
		})
	}
	defaultCapHolds(t, url, requests, CapPages, DefaultPageLimits.Pages)
}

// A token of 256 KB ends the read on the page that sent it: the tokens the
// pager remembers are digests, and none that large is sent back.
func TestHostileHugeTokensStopAtTheTokenCap(t *testing.T) {
	url, requests := hostileRegistry(t, func(w http.ResponseWriter, _ *http.Request, n int64) {
		fullPage(w, 0, 0, fmt.Sprintf("%d-%s", n, strings.Repeat("t", 256<<10)))
	})
	c := testClient(t, url)
	for name, read := range pagedReads() {
		t.Run(name, func(t *testing.T) {
			before := requests.Load()
			le := limitError(t, read(testCtx(t), c), CapToken)
			if sent := requests.Load() - before; sent != 1 || le.Limit != int64(DefaultPageLimits.TokenBytes) {
				t.Errorf("%d requests, cap %d; want 1 at %d", sent, le.Limit, DefaultPageLimits.TokenBytes)
			}
		})
	}
}

// A registry that never answers ends the read at the time cap (the test
// sets a short one), not at the caller's deadline.
func TestHostileSilentRegistryStopsAtTheTimeCap(t *testing.T) {
	release := make(chan struct{})
	url, _ := hostileRegistry(t, func(w http.ResponseWriter, r *http.Request, n int64) {
		if n == 1 {
			fullPage(w, 1, 1, "more")
			return
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	t.Cleanup(func() { close(release) })
	c := testClient(t, url, func(cfg *Config) { cfg.PageLimits = PageLimits{Time: 300 * time.Millisecond} })
	le := limitError(t, pagedReads()["ListAgents"](testCtx(t), c), CapTime)
	if le.Pages != 2 || le.Records != 1 {
		t.Errorf("stopped after %d pages and %d records, want 2 and 1", le.Pages, le.Records)
	}
	if !strings.Contains(le.Error(), "300ms") {
		t.Errorf("message %q does not say the time cap", le.Error())
	}
}

// The caller's own deadline stays the caller's: a read cancelled from above
// is not reported as the time cap.
func TestPagerCallerCancelIsNotTheTimeCap(t *testing.T) {
	url, _ := hostileRegistry(t, func(w http.ResponseWriter, r *http.Request, _ int64) { <-r.Context().Done() })
	c := testClient(t, url, func(cfg *Config) { cfg.RetryMax = -1 })
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := c.ListAgents(ctx, testParent, "", 0)
	var le *PageLimitError
	if err == nil || errors.As(err, &le) {
		t.Fatalf("error %v, want the caller's deadline", err)
	}
}

// A repeated token is quoted short and without control characters.
func TestPagerRepeatedTokenQuotedClean(t *testing.T) {
	token := "\x1b]0;pwned\x07" + strings.Repeat("a", 500)
	url, _ := hostileRegistry(t, func(w http.ResponseWriter, _ *http.Request, _ int64) { fullPage(w, 0, 0, token) })
	c := testClient(t, url)
	_, err := c.ListAgents(testCtx(t), testParent, "", 0)
	if err == nil || strings.ContainsRune(err.Error(), 0x1b) || len(err.Error()) > 200 || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("error %q, want a short, clean repeated-token error", err)
	}
}

// listPage is a page of one record under every list key whose "tags" list
// holds n one-letter strings (about 4 bytes and one JSON value each), and
// the next token.
func listPage(w http.ResponseWriter, n int, next string) {
	tags := make([]string, n)
	for i := range tags {
		tags[i] = "a"
	}
	record := map[string]any{"name": testParent + "/things/r", "tags": tags}
	body := map[string]any{"nextPageToken": next}
	for _, key := range []string{"services", "agents", "mcpServers", "endpoints", "bindings", "skills"} {
		body[key] = []any{record}
	}
	writeJSON(w, 200, body)
}

// A page far inside the byte cap can hold millions of small values, each of
// which costs the provider hundreds of bytes once it is a Terraform value: a
// read stops at the cap of JSON values, before the page is decoded.
func TestHostileValueBombsStopAtTheValueCap(t *testing.T) {
	url, requests := hostileRegistry(t, func(w http.ResponseWriter, _ *http.Request, n int64) {
		listPage(w, 3000, fmt.Sprintf("token-%d", n)) // 6 x 3,000 tags: about 18,000 values, 75 KB
	})
	c := testClient(t, url, func(cfg *Config) { cfg.PageLimits = PageLimits{Values: 50_000} })
	for name, read := range pagedReads() {
		t.Run(name, func(t *testing.T) {
			before := requests.Load()
			le := limitError(t, read(testCtx(t), c), CapValues)
			if sent := requests.Load() - before; sent != 3 || le.Pages != 3 || le.Bytes > 300_000 {
				t.Errorf("%d requests, %d pages, %d bytes; want the cap reached on the third page", sent, le.Pages, le.Bytes)
			}
			if !strings.Contains(le.Error(), "the cap of 50000 JSON values per read") {
				t.Errorf("message %q does not name the cap", le.Error())
			}
		})
	}
}

// The same holds for one answer that is not paged: an 8 MiB record of
// two million one-letter tags is refused on its own, never decoded.
func TestHostileValueBombInOneAnswer(t *testing.T) {
	url, requests := hostileRegistry(t, func(w http.ResponseWriter, _ *http.Request, _ int64) { listPage(w, 350_000, "") })
	c := testClient(t, url)
	_, err := c.GetService(testCtx(t), svcName)
	if !errors.Is(err, errResponseTooManyValues) || !strings.Contains(err.Error(), fmt.Sprintf("more than %d JSON values", DefaultPageLimits.Values)) {
		t.Fatalf("err = %v, want the answer refused at the value cap", err)
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("%d requests, want 1: the answer is not retried", n)
	}
}

func TestCountValues(t *testing.T) {
	for doc, want := range map[string]int64{
		``:                               0,
		`  `:                             0,
		`1`:                              1,
		`"a,b[c{"`:                       1,
		`"a\",[{"`:                       1,
		`"a\\",[1]`:                      3, // the string ends at the quote after an escaped backslash
		`{"a":[1,2],"b":"x"}`:            5,
		`{"k,":{"x":[true,null,false]}}`: 6,
		"[\n 1 ,\n 2 ]":                  3,
		`[]`:                             2, // an empty container counts twice: an upper bound
		`{"tags":["a","a","a"],"n":{}}`:  7,
		`"unterminated, [string`:         1,
	} {
		if got := countValues([]byte(doc)); got != want {
			t.Errorf("countValues(%s) = %d, want %d", doc, got, want)
		}
	}
}

// An answer of exactly the cap's values passes, one more does not: alone
// (DefaultValues) and against what is left of a paged read's budget.
func TestCountAnswerValuesAtTheCaps(t *testing.T) {
	array := func(values int) []byte { // an array of values-1 numbers: values JSON values
		return []byte("[" + strings.Repeat("1,", values-2) + "1]")
	}
	if err := countAnswerValues(nil, array(DefaultValues)); err != nil {
		t.Errorf("%d values alone: %v", DefaultValues, err)
	}
	if err := countAnswerValues(nil, array(DefaultValues+1)); !errors.Is(err, errResponseTooManyValues) {
		t.Errorf("%d values alone: %v, want errResponseTooManyValues", DefaultValues+1, err)
	}
	b := &byteBudget{}
	b.valuesLeft.Store(10)
	if err := countAnswerValues(b, array(10)); err != nil || b.valuesExceeded.Load() {
		t.Errorf("10 values of a budget of 10: %v", err)
	}
	if err := countAnswerValues(b, array(2)); !errors.Is(err, errPageValues) || !b.valuesExceeded.Load() {
		t.Errorf("2 values past the budget: %v, exceeded %v", err, b.valuesExceeded.Load())
	}
}

// The time cap counts the waits of every page, not each page's alone: pages
// that each take 60 ms end a read with a 200 ms cap after a few pages, long
// before the page cap.
func TestPagerTimeCapCountsEveryPage(t *testing.T) {
	url, requests := hostileRegistry(t, func(w http.ResponseWriter, _ *http.Request, n int64) {
		time.Sleep(60 * time.Millisecond)
		fullPage(w, 1, 1, fmt.Sprintf("token-%d", n))
	})
	c := testClient(t, url, func(cfg *Config) { cfg.PageLimits = PageLimits{Time: 200 * time.Millisecond, Pages: 50} })
	le := limitError(t, pagedReads()["ListAgents"](testCtx(t), c), CapTime)
	if le.Pages > 5 || requests.Load() > 5 {
		t.Errorf("stopped after %d pages (%d requests); want the time cap within 5 pages of 60 ms", le.Pages, requests.Load())
	}
}

// A next page token of exactly the token cap is followed; one byte more
// ends the read.
func TestPagerTokenAtTheCap(t *testing.T) {
	const tokenCap = 64
	for size, followed := range map[int]bool{tokenCap: true, tokenCap + 1: false} {
		url, requests := hostileRegistry(t, func(w http.ResponseWriter, _ *http.Request, n int64) {
			next := ""
			if n == 1 {
				next = strings.Repeat("t", size)
			}
			fullPage(w, 1, 1, next)
		})
		c := testClient(t, url, func(cfg *Config) { cfg.PageLimits = PageLimits{TokenBytes: tokenCap} })
		agents, err := c.ListAgents(testCtx(t), testParent, "", 0)
		switch {
		case followed && (err != nil || len(agents) != 2 || requests.Load() != 2):
			t.Errorf("a %d-byte token: %d agents in %d pages, %v; want 2 in 2", size, len(agents), requests.Load(), err)
		case !followed:
			if le := limitError(t, err, CapToken); le.Limit != tokenCap || requests.Load() != 1 {
				t.Errorf("a %d-byte token: cap %d after %d requests, want %d after 1", size, le.Limit, requests.Load(), tokenCap)
			}
		}
	}
}

// An answer that uses exactly what is left of the byte cap is read; one
// byte less of cap ends the read.
func TestPagerByteCapAtTheCap(t *testing.T) {
	const body = `{"agents":[{"name":"projects/p1/locations/global/agents/a"}]}`
	url, _ := hostileRegistry(t, func(w http.ResponseWriter, _ *http.Request, _ int64) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	})
	for byteCap, read := range map[int64]bool{int64(len(body)): true, int64(len(body)) - 1: false} {
		c := testClient(t, url, func(cfg *Config) { cfg.PageLimits = PageLimits{Bytes: byteCap} })
		agents, err := c.ListAgents(testCtx(t), testParent, "", 0)
		switch {
		case read && (err != nil || len(agents) != 1):
			t.Errorf("a cap of %d bytes for an answer of %d: %d agents, %v; want it read", byteCap, len(body), len(agents), err)
		case !read:
			_ = limitError(t, err, CapBytes)
		}
	}
}
