package main

// BenchmarkServerMemory runs hostile workloads against the server (its own
// process, default flags, loopback, with a token: the largest service
// patched again and again, operation pages read at once, tens of thousands
// of bindings listed in order by several clients, idle connections at the
// cap) and prints its memory after each, to check the memory model of the
// server's guide. It prints figures and asserts none (machines here are
// shared):
//
//	go test ./cmd/agentregistry-server -run '^$' -bench ServerMemory -benchtime 1x
//
// Scaled to finish in a few minutes on 2 shared cores, with the largest
// service the server accepts (32 interfaces of 2 KB URLs, about 64 KB).

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const benchToken = "bench-token"

func BenchmarkServerMemory(b *testing.B) {
	bin := buildServer(b)
	b.Setenv(tokenEnv, benchToken)
	for _, mode := range []string{"memory", "data file"} {
		b.Run(mode, func(b *testing.B) {
			args := []string{}
			if mode == "data file" {
				args = append(args, "-data", b.TempDir()+"/registry.db")
			}
			cmd, url := startServer(b, bin, args...)
			pid := cmd.Process.Pid
			report := func(phase string, start time.Time) {
				m := memStatus(pid)
				fmt.Printf("%-10s %-44s RSS %6.1f MB  peak %6.1f MB  %s\n", mode, phase, m["VmRSS"], m["VmHWM"], time.Since(start).Round(time.Millisecond))
			}
			report("start", time.Now())
			loadPatches(b, url, report)
			loadOperationPages(b, url, report)
			loadOrderedBindings(b, url, mode, report)
			loadIdleConnections(b, url, report)
			_ = cmd.Process.Signal(os.Interrupt)
			_ = cmd.Wait()
		})
	}
}

// call sends one authenticated request and returns its status.
func call(b *testing.B, client *http.Client, method, url, body string) int {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+benchToken)
	res, err := client.Do(req)
	if err != nil {
		b.Fatalf("%s %.100s: %v", method, url, err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	_ = res.Body.Close()
	return res.StatusCode
}

func largestService(display string) string {
	var ifs []string
	for i := range 32 {
		ifs = append(ifs, `{"url":"https://example.test/`+strconv.Itoa(i)+strings.Repeat("a", 1970)+`","protocolBinding":"HTTP_JSON"}`)
	}
	return `{"displayName":"` + display + `","endpointSpec":{"type":"NO_SPEC"},"interfaces":[` + strings.Join(ifs, ",") + `]}`
}

// loadPatches: the largest service patched 300 times, then deleted.
func loadPatches(b *testing.B, url string, report func(string, time.Time)) {
	client := &http.Client{Timeout: time.Minute}
	start := time.Now()
	if st := call(b, client, "POST", url+"/v1/"+parent+"/services?serviceId=large-one", largestService("v")); st != http.StatusOK {
		b.Fatalf("create: %d", st)
	}
	for i := range 300 {
		if st := call(b, client, "PATCH", url+"/v1/"+parent+"/services/large-one", largestService("v"+strconv.Itoa(i))); st != http.StatusOK {
			b.Fatalf("patch: %d", st)
		}
	}
	report("300 patches of a 64 KB service", start)
	call(b, client, "DELETE", url+"/v1/"+parent+"/services/large-one", "")
	report("... deleted", start)
}

// loadOperationPages: 8 clients list 100-operation pages at once.
func loadOperationPages(b *testing.B, url string, report func(string, time.Time)) {
	start := time.Now()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			client := &http.Client{Timeout: time.Minute}
			for range 20 {
				call(b, client, "GET", url+"/v1/"+parent+"/operations?pageSize=100", "")
			}
		})
	}
	wg.Wait()
	report("8 x 20 operations.list?pageSize=100", start)
}

// loadOrderedBindings: 40,000 bindings, listed by 8 clients at once in
// displayName order (5 pages of 500 each), while another client reads.
func loadOrderedBindings(b *testing.B, url, mode string, report func(string, time.Time)) {
	n := 40000
	if mode == "data file" {
		n = 4000 // each create is an fsync: the count costs minutes on a shared disk
	}
	start := time.Now()
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Go(func() {
			client := &http.Client{Timeout: time.Minute}
			for i := w; i < n; i += 16 {
				body := `{"displayName":"b` + strconv.Itoa(i*7919%n) + `","target":{"identifier":"urn:agent:acme:travel:planner"}}`
				if st := call(b, client, "POST", url+"/v1/"+parent+"/bindings?bindingId=bind-"+strconv.Itoa(i), body); st != http.StatusOK {
					b.Errorf("binding create: %d", st)
					return
				}
			}
		})
	}
	wg.Wait()
	report(strconv.Itoa(n)+" bindings created", start)
	start = time.Now()
	stop := make(chan struct{})
	var reads []time.Duration
	go func() {
		client := &http.Client{Timeout: time.Minute}
		for {
			select {
			case <-stop:
				return
			default:
			}
			t := time.Now()
			call(b, client, "GET", url+"/v1/"+parent+"/services?pageSize=1", "")
			reads = append(reads, time.Since(t))
		}
	}()
	for range 8 {
		wg.Go(func() {
			client := &http.Client{Timeout: time.Minute}
			tok := ""
			for range 5 {
				req, _ := http.NewRequest("GET", url+"/v1/"+parent+"/bindings?orderBy=displayName%20desc&pageSize=500&pageToken="+tok, nil)
				req.Header.Set("Authorization", "Bearer "+benchToken)
				res, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				body, _ := io.ReadAll(res.Body)
				_ = res.Body.Close()
				tok = between(string(body), `"nextPageToken":"`, `"`)
			}
		})
	}
	wg.Wait()
	close(stop)
	time.Sleep(50 * time.Millisecond)
	report("8 clients x 5 ordered pages of 500", start)
	if len(reads) > 0 {
		slices.Sort(reads)
		fmt.Printf("%-10s unrelated reads meanwhile: %d, p50 %s, p99 %s\n", mode, len(reads), reads[len(reads)/2], reads[len(reads)*99/100])
	}
}

func between(s, from, to string) string {
	_, after, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(after, to)
	return v
}

// loadIdleConnections: 256 keep-alive connections, each idle after a 401,
// then an authenticated request.
func loadIdleConnections(b *testing.B, url string, report func(string, time.Time)) {
	start := time.Now()
	addr := strings.TrimPrefix(url, "http://")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			_ = c.Close()
		}
	}()
	for range 256 {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			b.Fatal(err)
		}
		conns = append(conns, c)
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Write([]byte("GET /v1/" + parent + "/services HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
			break
		}
		if res, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
			_ = res.Body.Close()
		}
	}
	t := time.Now()
	st := call(b, &http.Client{Timeout: time.Minute}, "GET", url+"/v1/"+parent+"/services?pageSize=1", "")
	fmt.Printf("%-10s an authenticated request with 256 idle connections open: %d in %s\n", "", st, time.Since(t).Round(time.Millisecond))
	report("256 idle connections", start)
}
