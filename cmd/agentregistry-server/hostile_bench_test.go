package main

// BenchmarkHostileUploads measures the server's memory under hostile skill
// uploads (front matter of 900,000 keys, metadata of megabytes, archives of
// random bytes), sent concurrently at the default in-flight cap,
// and how long unrelated reads take meanwhile. It prints figures and asserts
// none (machines here are shared and noisy):
//
//	go test ./cmd/agentregistry-server -run '^$' -bench HostileUploads -benchtime 1x
//
// The server runs as its own process with its default flags, on loopback;
// the run is bounded in requests (uploadRounds per client) and in time.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

const (
	hostileClients = 64 // the default -max-in-flight
	uploadRounds   = 4  // uploads per client
	benchLimit     = 3 * time.Minute
)

// hostileArchives are the hostile uploads, each a SKILL.md (and for
// the largest, a file of random bytes that does not compress).
func hostileArchives(b *testing.B) map[string][]byte {
	head := "---\nname: pdf-tools\ndescription: d\n"
	var keys, meta strings.Builder
	for i := range 900_000 {
		fmt.Fprintf(&keys, "k%d: 1\n", i)
	}
	for i := range 10 {
		fmt.Fprintf(&meta, "  k%d: %s\n", i, strings.Repeat("v", 960_000))
	}
	noise := make([]byte, skillpkg.MaxArchiveBytes-64<<10)
	_, _ = rand.Read(noise)
	files := map[string]map[string][]byte{
		"flow sequence, 4.9M items": {"SKILL.md": []byte(head + "metadata: [" + strings.Repeat("a,", 4_900_000) + "a]\n---\n")},
		"flow mapping, 2.4M pairs":  {"SKILL.md": []byte(head + "metadata: {" + strings.Repeat("a: a, ", 2_400_000) + "a: a}\n---\n")},
		"900,000 unknown keys":      {"SKILL.md": []byte(head + keys.String() + "---\n")},
		"9.6 MB of metadata":        {"SKILL.md": []byte(head + "metadata:\n" + meta.String() + "---\n")},
		"10 MiB SKILL.md body":      {"SKILL.md": []byte(head + "---\n" + strings.Repeat("body line\n", 1_000_000))},
		"a 10 MiB archive":          {"SKILL.md": []byte(head + "---\n"), "noise.bin": noise},
	}
	out := map[string][]byte{}
	for name, f := range files {
		z, err := skillpkg.Zip(f)
		if err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		out[name] = z
	}
	return out
}

// memStatus reads fields of a process's /proc status (VmRSS, VmHWM: its
// peak, RssAnon: heap and stacks, RssFile: mapped file pages), in MB.
func memStatus(pid int) map[string]float64 {
	out := map[string]float64{}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && strings.HasSuffix(f[0], ":") {
			kb, _ := strconv.ParseFloat(f[1], 64)
			out[strings.TrimSuffix(f[0], ":")] = kb / 1024
		}
	}
	return out
}

func BenchmarkHostileUploads(b *testing.B) {
	bin := buildServer(b)
	archives := hostileArchives(b)
	bodies := map[string][]byte{} // revision bodies, encoded once
	for name, a := range archives {
		bodies[name], _ = json.Marshal(map[string]any{"archiveUploadSource": map[string]string{"archiveContent": base64.StdEncoding.EncodeToString(a)}})
	}
	names := make([]string, 0, len(bodies))
	for n := range bodies {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, mode := range []string{"memory", "data file"} {
		b.Run(mode, func(b *testing.B) {
			args := []string{}
			if mode == "data file" {
				args = append(args, "-data", b.TempDir()+"/registry.db")
			}
			var log lockedBuffer
			cmd, url := startServerLogging(b, bin, &log, args...)
			runHostile(b, cmd, url, names, bodies)
			_ = cmd.Process.Signal(os.Interrupt)
			_ = cmd.Wait()
			printReads(log.String())
		})
	}
}

func runHostile(b *testing.B, cmd *exec.Cmd, url string, names []string, bodies map[string][]byte) {
	client := &http.Client{Timeout: 60 * time.Second}
	skill := url + "/v1/" + parent + "/skills/pdf-tools"
	resp, err := client.Post(url+"/v1/"+parent+"/skills?skillId=pdf-tools", "application/json",
		strings.NewReader(`{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE"}`))
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("create the skill: %v %v", resp, err)
	}
	_ = resp.Body.Close()
	idle := memStatus(cmd.Process.Pid)["VmRSS"]
	ctx, cancel := context.WithTimeout(context.Background(), benchLimit)
	defer cancel()

	var mu sync.Mutex
	statuses := map[string]map[int]int{}
	var wg sync.WaitGroup
	for c := range hostileClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range uploadRounds {
				name := names[(c+r)%len(names)]
				target := skill + "/revisions"
				body := bodies[name]
				if (c+r)%2 == 1 { // half as the initial revision of a new skill
					target = url + "/v1/" + parent + "/skills?skillId=" + fmt.Sprintf("hostile-%c%c", 'a'+c%26, 'a'+r)
					body = append([]byte(`{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE","initialRevision":`), append(body, '}')...)
				}
				code := upload(ctx, client, target, body)
				mu.Lock()
				if statuses[name] == nil {
					statuses[name] = map[int]int{}
				}
				statuses[name][code]++
				mu.Unlock()
			}
		}()
	}
	// Reads meanwhile, one at a time: the server logs how long each took.
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			if resp, err := client.Get(skill); err == nil {
				_ = resp.Body.Close()
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	// VmHWM is the kernel's own peak of the whole RSS; samples of its two
	// parts say what it is made of.
	var anon, file float64
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for ctx.Err() == nil {
			m := memStatus(cmd.Process.Pid)
			anon, file = max(anon, m["RssAnon"]), max(file, m["RssFile"])
			time.Sleep(20 * time.Millisecond)
		}
	}()
	start := time.Now()
	wg.Wait()
	elapsed := time.Since(start)
	cancel()
	<-done
	<-sampled
	peak := memStatus(cmd.Process.Pid)["VmHWM"]
	b.ReportMetric(peak, "peak-RSS-MB")
	b.ReportMetric(peak-idle, "RSS-over-idle-MB")
	fmt.Printf("%d clients x %d uploads in %s; server RSS idle %.0f MB, peak (VmHWM) %.0f MB, %.0f MB over idle; sampled peaks: anonymous %.0f MB, file pages %.0f MB\n",
		hostileClients, uploadRounds, elapsed.Round(time.Millisecond), idle, peak, peak-idle, anon, file)
	for _, n := range names {
		fmt.Printf("  %-28s statuses %v\n", n, statuses[n])
	}
}

// upload sends one upload as a client of the registry would: a 503 is
// retried after its Retry-After, at most maxRetries times. It returns the
// final status (-1 when the request failed).
func upload(ctx context.Context, client *http.Client, target string, body []byte) int {
	const maxRetries = 120
	for range maxRetries {
		req, _ := http.NewRequestWithContext(ctx, "POST", target, bytes.NewReader(body))
		resp, err := client.Do(req)
		if err != nil {
			return -1
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable {
			return resp.StatusCode
		}
		wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		select {
		case <-ctx.Done():
			return -1
		case <-time.After(time.Duration(wait)*time.Second + time.Duration(mrand.IntN(500))*time.Millisecond):
		}
	}
	return http.StatusServiceUnavailable
}

// printReads prints how long the server took to answer the reads of the
// skill (GET .../skills/pdf-tools), from its request log.
func printReads(log string) {
	var reads []time.Duration
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, "method=GET") || !strings.Contains(line, "/skills/pdf-tools ") {
			continue
		}
		if _, d, ok := strings.Cut(line, "duration="); ok {
			if v, err := time.ParseDuration(strings.Fields(d)[0]); err == nil {
				reads = append(reads, v)
			}
		}
	}
	if len(reads) == 0 {
		fmt.Println("no reads logged")
		return
	}
	slices.Sort(reads)
	fmt.Printf("reads meanwhile, as the server timed them: %d, median %s, p99 %s, max %s\n", len(reads),
		reads[len(reads)/2].Round(time.Microsecond), reads[len(reads)*99/100].Round(time.Microsecond), reads[len(reads)-1].Round(time.Microsecond))
}

// lockedBuffer collects the server's log, written by the exec package's copier.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
