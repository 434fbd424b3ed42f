package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

const parent = "projects/p/locations/global"

// buildServer compiles this command into a temporary directory.
func buildServer(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the server binary")
	}
	bin := filepath.Join(t.TempDir(), "agentregistry-server")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startServer runs the binary and returns it with the URL it printed.
func startServer(t testing.TB, bin string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	return startServerLogging(t, bin, io.Discard, args...)
}

// startServerLogging is startServer with the server's log (stderr) written to log.
func startServerLogging(t testing.TB, bin string, log io.Writer, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-listen", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("read listening line: %v", err)
	}
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "agentregistry-server listening on ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("unexpected first line %q", line)
	}
	return cmd, url
}

func card(i int) string {
	return fmt.Sprintf(`{"protocolVersion":"0.3.0","name":"Agent %d","description":"Durable agent number %d.","version":"1.0.0",
	"url":"https://a%d.example.test","capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
	"skills":[{"id":"s","name":"Skill","description":"Does durable things.","tags":["durable"]}]}`, i, i, i)
}

// TestDurabilityKill9 writes concurrently, kills the process with SIGKILL in
// the middle of the writes, restarts it on the same file and expects every
// write that was acknowledged before the kill.
func TestDurabilityKill9(t *testing.T) {
	bin := buildServer(t)
	data := filepath.Join(t.TempDir(), "registry.db")
	cmd, url := startServer(t, bin, "-data", data)

	ids := killDuringWrites(t, cmd, 8, 150, func(w, i int) (string, string, string) {
		n := w*100000 + i
		id := fmt.Sprintf("agent-%07d", n)
		return id, url + "/v1/" + parent + "/services?serviceId=" + id, fmt.Sprintf(`{"agentSpec":{"type":"A2A_AGENT_CARD","content":%s}}`, card(n))
	})
	if len(ids) < 50 {
		t.Fatalf("only %d writes acknowledged before the kill", len(ids))
	}

	_, url2 := startServer(t, bin, "-data", data)
	for _, id := range ids {
		res, err := http.Get(url2 + "/v1/" + parent + "/services/" + id)
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("acknowledged service %s lost after kill -9 (status %d)", id, res.StatusCode)
		}
		res, err = http.Get(url2 + "/v1/" + parent + "/agents/" + id)
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("derived agent %s missing after restart (status %d)", id, res.StatusCode)
		}
	}
	// The search index was rebuilt from the store.
	res, err := http.Post(url2+"/v1/"+parent+"/agents:search", "application/json", strings.NewReader(`{"searchString":"skills.tags:durable","pageSize":100}`))
	if err != nil {
		t.Fatal(err)
	}
	var sr struct {
		Agents []json.RawMessage `json:"agents"`
	}
	_ = json.NewDecoder(res.Body).Decode(&sr)
	_ = res.Body.Close()
	if want := min(len(ids), 100); len(sr.Agents) < want {
		t.Fatalf("search after restart found %d agents, want at least %d", len(sr.Agents), want)
	}
	t.Logf("%d acknowledged writes survived kill -9", len(ids))
}

// TestDurabilityKill9Uploads: skill uploads (archives in files of their own,
// written before the revision's commit) survive kill -9 too: after a
// restart every acknowledged skill has its revision, and the archives
// folder holds exactly one archive per revision (one written before a commit the
// kill prevented is deleted at start).
func TestDurabilityKill9Uploads(t *testing.T) {
	bin := buildServer(t)
	data := filepath.Join(t.TempDir(), "registry.db")
	cmd, url := startServer(t, bin, "-data", data)
	archive, err := skillpkg.Zip(map[string][]byte{"SKILL.md": []byte("---\nname: pdf-tools\ndescription: Durable.\n---\n"),
		"notes.txt": []byte(strings.Repeat("durable notes\n", 20000))})
	if err != nil {
		t.Fatal(err)
	}
	body := `{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE","initialRevision":{"archiveUploadSource":{"archiveContent":"` +
		base64.StdEncoding.EncodeToString(archive) + `"}}}`
	ids := killDuringWrites(t, cmd, 4, 60, func(w, i int) (string, string, string) {
		id := fmt.Sprintf("skill-%c-%c%c%c", 'a'+w, 'a'+i/676%26, 'a'+i/26%26, 'a'+i%26)
		return id, url + "/v1/" + parent + "/skills?skillId=" + id, body
	})
	if len(ids) < 10 {
		t.Fatalf("only %d uploads acknowledged before the kill", len(ids))
	}

	cmd2, url2 := startServer(t, bin, "-data", data)
	uids := map[string]bool{}
	for _, id := range ids {
		var sk struct{ DefaultRevision string }
		get(t, url2+"/v1/"+parent+"/skills/"+id, &sk)
		var rev struct{ Uid string }
		get(t, url2+"/v1/"+sk.DefaultRevision, &rev)
		uids[rev.Uid] = true
	}
	var list struct{ Skills []json.RawMessage }
	get(t, url2+"/v1/"+parent+"/skills?pageSize=100", &list) // acknowledged or not, each has one revision
	_ = cmd2.Process.Signal(syscall.SIGTERM)
	_ = cmd2.Wait()
	entries, err := os.ReadDir(data + ".archives")
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]bool{}
	for _, e := range entries {
		stored[e.Name()] = true
	}
	for uid := range uids {
		if !stored[uid] {
			t.Errorf("the archive of acknowledged revision %s was lost", uid)
		}
	}
	if len(stored) != len(list.Skills) {
		t.Errorf("%d archives for %d revisions after the restart", len(stored), len(list.Skills))
	}
	t.Logf("%d acknowledged uploads survived kill -9", len(ids))
}

// killDuringWrites runs workers that POST one write after another, kills
// the server with SIGKILL (no shutdown path runs) once want writes were
// acknowledged (done operations) or 20 s have passed, and returns the ids
// of the acknowledged writes. write gives the id of a worker's i-th write,
// the URL it is posted to and its body.
func killDuringWrites(t *testing.T, cmd *exec.Cmd, workers, want int, write func(worker, i int) (id, target, body string)) []string {
	t.Helper()
	var mu sync.Mutex
	var acked []string
	stop := make(chan struct{})
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 10 * time.Second}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				id, target, body := write(w, i)
				res, err := client.Post(target, "application/json", strings.NewReader(body))
				if err != nil {
					return // the server is gone
				}
				var op struct {
					Done bool `json:"done"`
				}
				err = json.NewDecoder(res.Body).Decode(&op)
				_ = res.Body.Close()
				if err == nil && res.StatusCode == 200 && op.Done {
					mu.Lock()
					acked = append(acked, id)
					mu.Unlock()
				}
			}
		}()
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= want || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	close(stop)
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return append([]string(nil), acked...)
}

// get decodes the JSON of a GET that must answer 200.
func get(t *testing.T, url string, v any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = res.Body.Close() }()
	if res.StatusCode != 200 {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("GET %s: %d %s", url, res.StatusCode, b)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func TestTokenAndGracefulShutdown(t *testing.T) {
	bin := buildServer(t)
	t.Setenv("AGENTREGISTRY_SERVER_TOKEN", "env-token")
	cmd, url := startServer(t, bin)
	res, err := http.Get(url + "/v1/" + parent + "/services")
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	if res.StatusCode != 401 {
		t.Fatalf("without token: %d", res.StatusCode)
	}
	req, _ := http.NewRequest("GET", url+"/v1/"+parent+"/services", nil)
	req.Header.Set("Authorization", "Bearer env-token")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("with token: %d", res.StatusCode)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no exit after SIGTERM")
	}
}

func TestBadFlags(t *testing.T) {
	if err := run([]string{"-listen", "256.0.0.1:99999"}, io.Discard, io.Discard); err == nil {
		t.Fatal("want a listen error")
	}
	if err := run([]string{"-data", filepath.Join(os.DevNull, "x", "y.db")}, io.Discard, io.Discard); err == nil {
		t.Fatal("want a data file error")
	}
	if err := run([]string{"-max-uploads", "0"}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "at least 1") {
		t.Fatalf("-max-uploads 0: %v", err)
	}
}

// A client that declares a body and sends one byte of it is cut off by
// -read-timeout: its connection ends instead of staying open unanswered.
func TestSlowBodyIsCutOff(t *testing.T) {
	bin := buildServer(t)
	_, url := startServer(t, bin, "-read-timeout", "1s")
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	if _, err := fmt.Fprintf(conn, "POST /v1/%s/services?serviceId=slow-body HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n\r\n{", parent); err != nil {
		t.Fatal(err)
	}
	// The server answers or closes; either way the connection ends.
	_ = conn.SetReadDeadline(time.Now().Add(15 * time.Second))
	if _, err := io.Copy(io.Discard, conn); err != nil {
		t.Fatalf("the connection of a slow body was still open after 15 s with -read-timeout 1s: %v", err)
	}
}

// -max-connections caps the connections open at once; a further client
// waits until one closes.
func TestConnectionCap(t *testing.T) {
	bin := buildServer(t)
	_, url := startServer(t, bin, "-max-connections", "1", "-read-header-timeout", "30s")
	idle, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	get := func(timeout time.Duration) error {
		c := &http.Client{Timeout: timeout}
		res, err := c.Get(url + "/v1/" + parent + "/services")
		if err == nil {
			_ = res.Body.Close()
		}
		return err
	}
	if err := get(time.Second); err == nil {
		t.Fatal("a second connection was served while the first, idle, held the only one")
	}
	if err := idle.Close(); err != nil {
		t.Fatal(err)
	}
	if err := get(10 * time.Second); err != nil {
		t.Fatalf("once the idle connection closed: %v", err)
	}
}

// -help documents each flag, and the environment
// variable for the token first, saying why.
func TestHelp(t *testing.T) {
	var out strings.Builder
	if err := run([]string{"-help"}, io.Discard, &out); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-help: %v", err)
	}
	help := out.String()
	env := strings.Index(help, "AGENTREGISTRY_SERVER_TOKEN")
	if env < 0 || env > strings.Index(help, "-token") || !strings.Contains(help, "visible to other users in ps") {
		t.Errorf("-help does not document AGENTREGISTRY_SERVER_TOKEN first, with the reason:\n%s", help)
	}
	for _, f := range []string{"-read-header-timeout", "-read-timeout", "-write-timeout", "-idle-timeout", "-max-connections", "-max-in-flight", "-search-timeout", "-max-uploads"} {
		if !strings.Contains(help, f+" ") {
			t.Errorf("-help does not document %s", f)
		}
	}
}
