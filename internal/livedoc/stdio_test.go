//go:build unix

package livedoc

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/quote"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/stdio"
)

// hostileEnv selects what this test binary does when run as an MCP server
// by the stdio tests, instead of running the tests.
const hostileEnv = "LIVEDOC_HOSTILE_MCP"

func TestMain(m *testing.M) {
	if mode := os.Getenv(hostileEnv); mode != "" {
		hostile(mode)
		exitQuietly(0)
	}
	os.Exit(m.Run())
}

// exitQuietly ends this process, run as a server, with code. A build with
// coverage (go test -cover, the mutation runs) would otherwise write a
// warning on stderr as it exits (no GOCOVERDIR), which the tests read as the
// server's own.
func exitQuietly(code int) {
	if testing.CoverMode() != "" {
		if devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
			os.Stderr = devNull
		}
	}
	os.Exit(code)
}

// hostile is an MCP server on stdio for the tests: broken or hostile, or
// (paged, paged-2025) a well-behaved one of the Go SDK.
func hostile(mode string) {
	switch mode {
	case "flood": // valid messages, without end, never an answer
		line := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + strings.Repeat("x", 4000) + `"}}` + "\n")
		for {
			if _, err := os.Stdout.Write(line); err != nil {
				return
			}
		}
	case "endless-line": // one message that never ends
		_, _ = os.Stdout.WriteString(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"`)
		chunk := []byte(strings.Repeat("y", 64<<10))
		for {
			if _, err := os.Stdout.Write(chunk); err != nil {
				return
			}
		}
	case "silent": // starts a child, then reads its stdin and never answers
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), hostileEnv+"=sleep")
		if err := child.Start(); err != nil {
			panic(err)
		}
		fmt.Fprintf(os.Stderr, "server %d child %d started\nwaiting for nothing\n", os.Getpid(), child.Process.Pid)
		_, _ = os.Stdin.Read(make([]byte, 1<<20))
		time.Sleep(time.Hour) // even once its stdin is closed
	case "sleep":
		time.Sleep(time.Hour)
	case "paged": // a well-behaved server of the Go SDK, five tools at two a page
		s := newMCPServer(2, namedTools("a", "b", "c", "d", "e")...)
		_ = s.Run(context.Background(), &mcp.StdioTransport{}) // ends when its stdin does
	case "paged-2025": // the same, restricted to MCP 2025-11-25
		s := livedoctest.NewMCPServerSpeaking([]string{"2025-11-25"}, 2, namedTools("a", "b", "c", "d", "e")...)
		_ = s.Run(context.Background(), &mcp.StdioTransport{}) // ends when its stdin does
	case "env-file": // writes its environment to $LIVEDOC_ENV_FILE, then serves as "paged" does
		if err := os.WriteFile(os.Getenv("LIVEDOC_ENV_FILE"), []byte(strings.Join(os.Environ(), "\n")), 0o600); err != nil {
			panic(err)
		}
		s := newMCPServer(2, namedTools("a")...)
		_ = s.Run(context.Background(), &mcp.StdioTransport{}) // ends when its stdin does
	case "detached": // serves; its child runs in a session of its own, which only its SIGTERM handler ends
		detached()
	case "rpc-error": // answers server/discover and initialize with JSON-RPC errors that quote its token
		answerWithErrors()
	case "leak": // prints its token on stderr in every spelling, the 2 KiB tail cutting one, and exits
		leak(os.Getenv("LIVEDOC_TOKEN"))
	case "exit": // says why on stderr, and exits at once
		fmt.Fprint(os.Stderr, strings.Repeat("noise line\n", 500)+"fatal: \x1b[31mMEMORY_API_TOKEN\x1b[0m is not set\n"+
			"token tried: "+os.Getenv("LIVEDOC_TOKEN")+"\n")
		exitQuietly(3)
	}
}

// detached is a server that starts a child in a session of its own (out of
// its process group, as Puppeteer starts a browser), writes the child's pid
// to $LIVEDOC_PID_FILE and serves its tools. It does not exit when its stdin
// closes: only SIGTERM ends it, and its handler stops the child first.
func detached() {
	terms := make(chan os.Signal, 1)
	signal.Notify(terms, syscall.SIGTERM)
	child := exec.Command(os.Args[0])
	child.Env = append(os.Environ(), hostileEnv+"=sleep")
	child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := child.Start(); err != nil {
		panic(err)
	}
	if err := os.WriteFile(os.Getenv("LIVEDOC_PID_FILE"), []byte(strconv.Itoa(child.Process.Pid)), 0o600); err != nil {
		panic(err)
	}
	s := newMCPServer(0, namedTools("a")...)
	_ = s.Run(context.Background(), &mcp.StdioTransport{}) // returns when stdin closes
	<-terms
	_ = child.Process.Kill()
	_, _ = child.Process.Wait()
	exitQuietly(0)
}

// answerWithErrors is a stdio server without an SDK: it refuses
// server/discover as servers before MCP 2026-07-28 do, answers initialize
// with a JSON-RPC error that quotes its token (in its message, raw and behind
// an escape sequence, and in its data, base64-encoded), then exits with
// status 0.
func answerWithErrors() {
	token := os.Getenv("LIVEDOC_TOKEN")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		answer := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		switch req.Method {
		case "server/discover":
			answer["error"] = map[string]any{"code": -32601, "message": "Method not found"}
		case "initialize":
			answer["error"] = map[string]any{"code": -32001,
				"message": "invalid token " + token + "\x1b]0;owned\x07 for " + token[:4] + "\x1b[0m" + token[4:] + "\n" + strings.Repeat("x", 4000),
				"data":    map[string]string{"token": base64.StdEncoding.EncodeToString([]byte(token)), "hint": "rotate it"}}
		}
		line, _ := json.Marshal(answer)
		fmt.Println(string(line))
		if req.Method == "initialize" {
			exitQuietly(0)
		}
	}
}

// leak writes 3 KiB of noise, then its token cut by the 2 KiB tail (its
// last 20 bytes are the first of the tail), then the token wrapped over two
// lines, base64 (standard and URL alphabets, without padding), URL-encoded,
// and exits with status 3.
func leak(token string) {
	var tail strings.Builder
	fmt.Fprintf(&tail, "\nwrapped: %s\n   %s\n", token[:10], token[10:])
	fmt.Fprintf(&tail, "std: %s\nurl: %s\n", base64.StdEncoding.EncodeToString([]byte(token)), base64.RawURLEncoding.EncodeToString([]byte(token)))
	fmt.Fprintf(&tail, "query: %s\npath: %s\n", url.QueryEscape(token), url.PathEscape(token))
	fmt.Fprintf(&tail, "basic: %s\n", base64.StdEncoding.EncodeToString([]byte("user:"+token)))
	for tail.Len() < stdio.StderrTailBytes-20 {
		tail.WriteString("noise after the token\n")
	}
	rest := tail.String()[:stdio.StderrTailBytes-20]
	fmt.Fprint(os.Stderr, strings.Repeat("noise before\n", 250)+token+rest)
	exitQuietly(3)
}

// hostileCommand runs this test binary as the hostile server mode.
func hostileCommand(mode string) stdio.Command {
	return stdio.Command{Args: []string{os.Args[0]}, Env: map[string]string{hostileEnv: mode}}
}

func TestFetchToolSpecCommandStopsAServerThatWritesWithoutEnd(t *testing.T) {
	for mode, want := range map[string]string{
		"flood":        fmt.Sprintf("wrote more than %d bytes (32 MiB) on stdout; stopped it", stdio.MaxStdoutBytes),
		"endless-line": fmt.Sprintf("wrote a message of more than %d bytes (1 MiB) on stdout; stopped it", MaxResponseBytes),
	} {
		t.Run(mode, func(t *testing.T) {
			start := time.Now()
			_, err := FetchToolSpecCommand(context.Background(), hostileCommand(mode), ToolSpecOptions{Options: Options{Timeout: time.Minute}})
			if err == nil {
				t.Fatal("want an error")
			}
			wantContains(t, err.Error(), "the MCP server ["+strconv.Quote(os.Args[0])+"] (run as a process) "+want, "it wrote nothing on stderr")
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("took %s: the bound should stop it long before the timeout", d)
			}
		})
	}
}

func TestFetchToolSpecCommandStopsAServerThatNeverAnswers(t *testing.T) {
	_, err := FetchToolSpecCommand(context.Background(), hostileCommand("silent"), ToolSpecOptions{Options: Options{Timeout: 3 * time.Second}})
	if err == nil {
		t.Fatal("want an error")
	}
	msg := err.Error()
	wantContains(t, msg, "did not answer server/discover or initialize within 3s; stopped it; the end of its stderr:\nserver ", "waiting for nothing")
	// The child it started was killed with it (its process group).
	var pid int
	if _, err := fmt.Sscanf(msg[strings.Index(msg, " child "):], " child %d", &pid); err != nil {
		t.Fatalf("no child pid in %q: %v", msg, err)
	}
	// SIGKILL is sent; give the kernel a moment to end the child.
	for end := time.Now().Add(2 * time.Second); running(pid) && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	if running(pid) {
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		t.Errorf("the server's child %d is still running: %s", pid, stat)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// running says whether the process pid runs: it exists and is no zombie (a
// killed orphan stays one where the machine's init does not reap it).
func running(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // no /proc to tell: it exists
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) == 0 || fields[0] != "Z"
}

func TestFetchToolSpecCommandQuotesTheStderrOfAServerThatExits(t *testing.T) {
	c := hostileCommand("exit")
	c.Env["LIVEDOC_TOKEN"] = "s3cret-token"
	_, err := FetchToolSpecCommand(context.Background(), c, ToolSpecOptions{})
	if err == nil {
		t.Fatal("want an error")
	}
	msg := err.Error()
	wantContains(t, msg, "(run as a process) exited (exit status 3) before answering server/discover or initialize; the end of its stderr:\n",
		"fatal: MEMORY_API_TOKEN is not set", "token tried: (a value of env)")
	if strings.Contains(msg, "s3cret") {
		t.Errorf("a value of env is quoted: %s", msg)
	}
	if tail := msg[strings.Index(msg, "stderr:\n")+len("stderr:\n"):]; len(tail) > stdio.StderrTailBytes+len("(a value of env)") {
		t.Errorf("quotes %d bytes of stderr, over %d (and the hidden value's stand-in)", len(tail), stdio.StderrTailBytes)
	}
}

// Every page is listed over stdio, with a Go SDK server that speaks
// 2026-07-28 and with one restricted to 2025-11-25.
func TestFetchToolSpecCommandFollowsEveryPage(t *testing.T) {
	for mode, version := range map[string]string{"paged": "2026-07-28", "paged-2025": "2025-11-25"} {
		got, err := FetchToolSpecCommand(context.Background(), hostileCommand(mode), ToolSpecOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.ToolNames, []string{"a", "b", "c", "d", "e"}) || got.ProtocolVersion != version || got.ServerName != "test-server" {
			t.Errorf("%s: tools %v, protocol %q, server %q", mode, got.ToolNames, got.ProtocolVersion, got.ServerName)
		}
	}
}

func TestFetchToolSpecCommandRefusesWhatCannotStart(t *testing.T) {
	for c, want := range map[*stdio.Command]string{
		{}:                                      "the command is empty",
		{Args: []string{"no-such-mcp-server"}}:  `the program "no-such-mcp-server" was not found in PATH`,
		{Args: []string{"true"}, Dir: "/nope/"}: `the working directory "/nope/" of the MCP server command is not a directory`,
	} {
		_, err := FetchToolSpecCommand(context.Background(), *c, ToolSpecOptions{})
		if err == nil {
			t.Fatalf("%v: want an error", c.Args)
		}
		wantContains(t, err.Error(), want)
	}
}

// The real servers published on npm (TypeScript SDK v1, MCP 2025-11-25),
// installed by the test itself.
func TestFetchToolSpecCommandFromNPMServers(t *testing.T) {
	dir := t.TempDir()
	memory := stdio.Command{Args: livedoctest.NPMBin(t, "@modelcontextprotocol/server-memory", "dist/index.js"),
		Env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(dir, "memory.jsonl")}, Dir: dir}
	got, err := FetchToolSpecCommand(context.Background(), memory, ToolSpecOptions{DropOutputSchemas: true, Options: Options{Timeout: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	if got.ProtocolVersion != "2025-11-25" || got.ServerName != "memory-server" || !slices.Contains(got.ToolNames, "create_entities") {
		t.Errorf("server-memory: %s %s %v", got.ProtocolVersion, got.ServerName, got.ToolNames)
	}
	files := stdio.Command{Args: livedoctest.NPMBin(t, "@modelcontextprotocol/server-filesystem", "dist/index.js", dir)}
	got, err = FetchToolSpecCommand(context.Background(), files, ToolSpecOptions{IncludeTools: []string{"read_*", "list_*"}, Options: Options{Timeout: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"read_file", "read_text_file", "read_media_file", "read_multiple_files", "list_directory", "list_directory_with_sizes", "list_allowed_directories"}
	if !slices.Equal(got.ToolNames, want) || got.ServerName != "secure-filesystem-server" {
		t.Errorf("server-filesystem: %s %v, want %v", got.ServerName, got.ToolNames, want)
	}
}

// A server gets the MCP SDKs' allowlist of this process's environment, what
// inherit_env names, and env; never the provider's credentials, nor anything
// else of the runner's (TF_VAR_ values, tokens).
func TestFetchToolSpecCommandEnvironment(t *testing.T) {
	runner := map[string]string{
		"AGENTREGISTRY_ACCESS_TOKEN": "provider-token-1234", "AGENTREGISTRY_ENDPOINT": "https://registry.example",
		"GOOGLE_OAUTH_ACCESS_TOKEN": "ya29.google-token", "GOOGLE_APPLICATION_CREDENTIALS": "/keys/adc.json",
		"TF_VAR_db_password": "db-password-5678", "LIVEDOC_RUNNER_SECRET": "runner-secret",
		"LIVEDOC_NAMED": "named", "NODE_OPTIONS": "--max-old-space-size=64", "NODE_EXTRA_CA_CERTS": "/ca.pem",
		"SHELLFUNC": "() { echo exported function; }", "TERM": "xterm-test", "HOME": t.TempDir(),
	}
	for k, v := range runner {
		t.Setenv(k, v)
	}
	file := filepath.Join(t.TempDir(), "env")
	c := hostileCommand("env-file")
	c.Env["LIVEDOC_ENV_FILE"] = file
	c.Env["TERM"] = "dumb" // env overrides what is inherited
	c.InheritEnv = []string{"LIVEDOC_NAMED", "NODE_*", "AGENTREGISTRY_*", "GOOGLE_*", "SHELLFUNC"}
	if _, err := FetchToolSpecCommand(context.Background(), c, ToolSpecOptions{}); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(string(raw), "\n")
	want := []string{hostileEnv + "=env-file", "LIVEDOC_ENV_FILE=" + file, "TERM=dumb", "LIVEDOC_NAMED=named",
		"NODE_OPTIONS=--max-old-space-size=64", "NODE_EXTRA_CA_CERTS=/ca.pem", "HOME=" + runner["HOME"]}
	for _, name := range []string{"LOGNAME", "PATH", "SHELL", "USER"} {
		if v, ok := os.LookupEnv(name); ok {
			want = append(want, name+"="+v)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the server's environment:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestFetchToolSpecCommandRefusesCredentialsInInheritEnv(t *testing.T) {
	for pattern, want := range map[string]string{
		"AGENTREGISTRY_ACCESS_TOKEN":     "it is a credential of the provider, never passed to an MCP server",
		"GOOGLE_APPLICATION_CREDENTIALS": "it is a credential of the provider",
		"*":                              `"*" alone would pass the whole environment`,
		"A*B*":                           "expected a variable name, or a name prefix followed by one trailing *",
		"":                               "expected a variable name",
		"X=1":                            "expected a variable name",
	} {
		c := hostileCommand("paged")
		c.InheritEnv = []string{"HTTPS_PROXY", pattern}
		_, err := FetchToolSpecCommand(context.Background(), c, ToolSpecOptions{})
		if err == nil {
			t.Fatalf("%q: want an error", pattern)
		}
		wantContains(t, err.Error(), fmt.Sprintf("inherit_env entry %q: ", pattern), want)
	}
}

// Shutdown as MCP's stdio transport specifies: stdin closed, then SIGTERM to
// the group, then SIGKILL. A server that cleans up on SIGTERM (here: stops a
// child it started in a session of its own, out of reach of the group's
// SIGKILL) gets to do it.
func TestFetchToolSpecCommandSendsSIGTERMBeforeSIGKILL(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	c := hostileCommand("detached")
	c.Env["LIVEDOC_PID_FILE"] = pidFile
	start := time.Now()
	if _, err := FetchToolSpecCommand(context.Background(), c, ToolSpecOptions{Options: Options{Timeout: 20 * time.Second}}); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) }) // when the test fails
	if running(pid) {
		t.Errorf("the server's detached child %d outlived the fetch: the server got no SIGTERM", pid)
	}
	if d := time.Since(start); d > 2*2*time.Second+5*time.Second { // two graces of 2 s (stdio), and a margin
		t.Errorf("the stop took %s", d)
	}
}

// Thirty servers at once, each with a child in its group, none answering:
// every process is gone when the fetches end.
func TestFetchToolSpecCommandConcurrentServersLeaveNoProcess(t *testing.T) {
	const n = 30
	errs := make(chan error, n)
	for range n {
		go func() {
			_, err := FetchToolSpecCommand(context.Background(), hostileCommand("silent"), ToolSpecOptions{Options: Options{Timeout: 2 * time.Second}})
			errs <- err
		}()
	}
	var pids []int
	for range n {
		err := <-errs
		if err == nil {
			t.Fatal("a silent server answered")
		}
		var server, child int
		msg := err.Error()
		if _, err := fmt.Sscanf(msg[strings.Index(msg, "stderr:\nserver "):], "stderr:\nserver %d child %d", &server, &child); err != nil {
			t.Fatalf("no pids in %q: %v", msg, err)
		}
		pids = append(pids, server, child)
	}
	for _, pid := range pids {
		for end := time.Now().Add(2 * time.Second); running(pid) && time.Now().Before(end); {
			time.Sleep(20 * time.Millisecond)
		}
		if running(pid) {
			t.Errorf("process %d still runs", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// A JSON-RPC error answered to initialize is quoted, blanked and one line,
// not reported as an exit.
func TestFetchToolSpecCommandQuotesAJSONRPCErrorToInitialize(t *testing.T) {
	const token = "sk-live-0123456789abcdef"
	c := hostileCommand("rpc-error")
	c.Env["LIVEDOC_TOKEN"] = token
	_, err := FetchToolSpecCommand(context.Background(), c, ToolSpecOptions{})
	if err == nil {
		t.Fatal("want an error")
	}
	msg := err.Error()
	wantContains(t, msg, "(run as a process) answered server/discover with JSON-RPC error -32601: Method not found, "+
		"then initialize with JSON-RPC error -32001: invalid token (a value of env) for (a value of env) x",
		`(data: {"hint":"rotate it","token":"(a value of env)"})`)
	for _, leaked := range []string{"exited with status 0", token, token[:8], token[4:], base64.StdEncoding.EncodeToString([]byte(token)), "\x1b", "owned", strings.Repeat("x", quote.MaxRunes+1)} {
		if strings.Contains(msg, leaked) {
			t.Errorf("the error shows %q: %s", leaked, msg)
		}
	}
}

// Every spelling of a value of env on stderr is blanked, the end of one that
// the 2 KiB tail cut included.
func TestFetchToolSpecCommandBlanksEverySpellingOnStderr(t *testing.T) {
	const token = "sk-live-0123456789abcdef+/="
	c := hostileCommand("leak")
	c.Env["LIVEDOC_TOKEN"] = token
	_, err := FetchToolSpecCommand(context.Background(), c, ToolSpecOptions{})
	if err == nil {
		t.Fatal("want an error")
	}
	msg := err.Error()
	wantContains(t, msg, "exited (exit status 3)", "the end of its stderr:\n(a value of env)\nwrapped: (a value of env)\nstd: (a value of env)",
		"query: (a value of env)", "path: (a value of env)", "basic: dXNlcjp")
	for i := 0; i+8 <= len(token); i++ {
		if part := token[i : i+8]; strings.Contains(msg, part) {
			t.Errorf("the error shows %q of the token: %s", part, msg)
		}
	}
	for _, enc := range []string{base64.StdEncoding.EncodeToString([]byte(token)), base64.RawURLEncoding.EncodeToString([]byte(token)), url.QueryEscape(token)} {
		if strings.Contains(msg, enc[4:16]) {
			t.Errorf("the error shows an encoded token %q: %s", enc, msg)
		}
	}
}

// The command is quoted with its arguments: terminal-safe, blanked, bounded.
func TestFetchToolSpecCommandQuotesTheCommand(t *testing.T) {
	const token = "tok-0123456789"
	c := hostileCommand("exit")
	c.Args = append(c.Args, "--token", token, "\x1b]0;title\x07", "\u202e", strings.Repeat("a", 200))
	c.Env["LIVEDOC_TOKEN"] = token
	_, err := FetchToolSpecCommand(context.Background(), c, ToolSpecOptions{})
	if err == nil {
		t.Fatal("want an error")
	}
	msg := err.Error()
	wantContains(t, msg, "the MCP server ["+strconv.Quote(os.Args[0])+`, "--token", "(a value of env)", "\x1b]0;title\a", "\u202e", "`+strings.Repeat("a", quote.MaxArgRunes)+`..."] (run as a process) exited`)
	if strings.ContainsAny(msg, "\x1b\x07\u202e") || strings.Contains(msg, token) {
		t.Errorf("the error shows a control character or the token: %q", msg)
	}
}
