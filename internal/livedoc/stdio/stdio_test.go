//go:build unix

package stdio

// A process started from /bin/sh scripts: what it gets, what is kept of what
// it writes, and how it is stopped. (The reads of tools from a server started
// this way are livedoc's tests.)

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

var wantContains = livedoctest.WantContains

// sh is a command that runs script with /bin/sh.
func sh(script string) Command { return Command{Args: []string{"/bin/sh", "-c", script}} }

// maxLine is the longest line of stdout the tests read.
const maxLine = 1 << 20

func started(t *testing.T, c Command) *Process {
	t.Helper()
	p, err := Start(c, maxLine, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop(time.Now()) })
	return p
}

func TestCommandCheck(t *testing.T) {
	file := t.TempDir() + "/file"
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c    Command
		want string
	}{
		{Command{}, "the command is empty"},
		{Command{Args: []string{""}}, "the command is empty"},
		{Command{Args: []string{"x"}, InheritEnv: []string{"*"}}, `inherit_env entry "*"`},
		{Command{Args: []string{"x"}, Dir: file}, "the working directory " + fmt.Sprintf("%q", file) + " of the MCP server command is not a directory"},
		{Command{Args: []string{"x"}, Dir: file + "/missing"}, "is not a directory"},
		{Command{Args: []string{"x"}, Dir: t.TempDir()}, ""},
		{Command{Args: []string{"x"}}, ""},
	} {
		err := tc.c.Check()
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check(%+v) = %v, want %q", tc.c, err, tc.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	s := &redact.Secrets{}
	s.Add("a value of env", "tok-0123456789")
	args := []string{"npx", "--token=tok-0123456789", "\x1b]0;t\a", strings.Repeat("a", 200)}
	got := Command{Args: args}.Describe(s)
	want := `["npx", "--token=(a value of env)", "\x1b]0;t\a", "` + strings.Repeat("a", 128) + `..."]`
	if got != want {
		t.Errorf("Describe = %s\nwant %s", got, want)
	}
	many := make([]string, 20)
	for i := range many {
		many[i] = fmt.Sprint(i)
	}
	if got := (Command{Args: many}).Describe(nil); !strings.HasSuffix(got, `"14", "15", ... (4 more)]`) {
		t.Errorf("Describe of 20 arguments = %s", got)
	}
	if got := (Command{Args: many[:16]}).Describe(nil); !strings.HasSuffix(got, `"15"]`) {
		t.Errorf("Describe of 16 arguments = %s", got)
	}
}

func TestCheckInheritEnv(t *testing.T) {
	for pattern, want := range map[string]string{
		"": "expected a variable name", "*": "would pass the whole environment", "A=B": "expected a variable name",
		"A*B*": "expected a variable name", " A": "expected a variable name", "A\x00": "expected a variable name",
		"AGENTREGISTRY_ACCESS_TOKEN": "it is a credential of the provider", "GOOGLE_CREDENTIALS": "credential of the provider",
		"AGENTREGISTRY_*": "", "GOOGLE_*": "", "NODE_OPTIONS": "", "NODE_*": "",
	} {
		err := CheckInheritEnv([]string{pattern})
		if (err == nil) != (want == "") || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("CheckInheritEnv(%q) = %v, want %q", pattern, err, want)
		}
	}
}

// The environment is the defaults and what inherit_env names, less the
// provider's credentials and exported shell functions, then env; sorted,
// and never nil.
func TestCommandEnv(t *testing.T) {
	for k, v := range map[string]string{
		"AGENTREGISTRY_ACCESS_TOKEN": "p", "GOOGLE_OAUTH_ACCESS_TOKEN": "g", "GOOGLE_PROJECT": "proj", "LIVEDOCN_OPTIONS": "n",
		"LIVEDOC_NAMED": "named", "LIVEDOC_OTHER": "other", "FUNC": "() { x; }", "TERM": "xterm", "HOME": "/home/h",
	} {
		t.Setenv(k, v)
	}
	got := commandEnv([]string{"LIVEDOC_NAMED", "LIVEDOCN_*", "AGENTREGISTRY_*", "GOOGLE_*", "FUNC"}, map[string]string{"TERM": "dumb", "X": "1"})
	want := []string{"GOOGLE_PROJECT=proj", "HOME=/home/h", "LIVEDOC_NAMED=named", "LIVEDOCN_OPTIONS=n", "TERM=dumb", "X=1"}
	for _, name := range []string{"LOGNAME", "PATH", "SHELL", "USER"} {
		if v, ok := os.LookupEnv(name); ok {
			want = append(want, name+"="+v)
		}
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("commandEnv:\n%v\nwant:\n%v", got, want)
	}
	if env := commandEnv(nil, nil); env == nil {
		t.Error("commandEnv is nil: the process would get the whole environment")
	}
}

func TestStartErrors(t *testing.T) {
	s := &redact.Secrets{}
	s.Add("a value of env", "secret-arg-123")
	_, err := Start(Command{Args: []string{"no-such-program-here", "secret-arg-123"}}, maxLine, s)
	wantContains(t, fmt.Sprint(err), `cannot start the MCP server ["no-such-program-here", "(a value of env)"]: the program "no-such-program-here" was not found in PATH`)
	_, err = Start(Command{Args: []string{t.TempDir()}}, maxLine, nil)
	wantContains(t, fmt.Sprint(err), "cannot start the MCP server [", "permission denied")
}

// stdin and stdout are the process's; stderr's end is kept, blanked where
// it is quoted; an exit says how it ended.
func TestProcessExchangesAndExits(t *testing.T) {
	p := started(t, sh(`read line; echo "got $line"; echo "fatal: token tok-0123456789 refused" >&2; exit 3`))
	if _, err := io.WriteString(p.Stdin(), "hello\n"); err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(p.Stdout())
	if string(out) != "got hello\n" || err != nil {
		t.Errorf("stdout %q, %v", out, err)
	}
	if how := p.ExitedEarly(); how != "exited (exit status 3)" {
		t.Errorf("ExitedEarly = %q", how)
	}
	s := &redact.Secrets{}
	s.Add("a value of env", "tok-0123456789")
	if note := p.StderrNote(s); note != "; the end of its stderr:\nfatal: token (a value of env) refused" {
		t.Errorf("StderrNote = %q", note)
	}
	quiet := started(t, sh("exit 0"))
	if how := quiet.ExitedEarly(); how != "exited with status 0" {
		t.Errorf("ExitedEarly = %q", how)
	}
	if note := quiet.StderrNote(nil); note != "; it wrote nothing on stderr" {
		t.Errorf("StderrNote = %q", note)
	}
	running := started(t, sh("sleep 30"))
	if how := running.ExitedEarly(); how != "" {
		t.Errorf("ExitedEarly of a running process = %q", how)
	}
	killed := started(t, sh("kill -9 $$"))
	if how := killed.ExitedEarly(); how != "exited (signal: killed)" {
		t.Errorf("ExitedEarly of a killed process = %q", how)
	}
}

// stdout fails a read past the longest line, or past MaxStdoutBytes in all,
// and says which.
func TestStdoutBounds(t *testing.T) {
	long := started(t, sh("head -c 1048577 /dev/zero | tr '\\0' x"))
	got, err := io.ReadAll(long.Stdout())
	if !errors.Is(err, ErrTooLarge) || len(got) != 1<<20 || long.OverLimit() != "a message of more than 1048576 bytes (1 MiB)" {
		t.Errorf("a long line: read %d bytes, %v, %q", len(got), err, long.OverLimit())
	}
	exact := started(t, sh("head -c 1048576 /dev/zero | tr '\\0' x; echo; head -c 1048576 /dev/zero | tr '\\0' y"))
	got, err = io.ReadAll(exact.Stdout())
	if err != nil || len(got) != 2<<20+1 || exact.OverLimit() != "" {
		t.Errorf("lines of exactly the limit: read %d bytes, %v, %q", len(got), err, exact.OverLimit())
	}
	flood := started(t, sh("yes 0123456789abcdef"))
	got, err = io.ReadAll(flood.Stdout())
	if !errors.Is(err, ErrTooLarge) || len(got) != MaxStdoutBytes || flood.OverLimit() != "more than 33554432 bytes (32 MiB)" {
		t.Errorf("a flood: read %d bytes, %v, %q", len(got), err, flood.OverLimit())
	}
}

// The tail of stderr keeps the last StderrTailBytes, however they come.
func TestTailBuffer(t *testing.T) {
	var b tailBuffer
	for _, w := range []string{"ab", strings.Repeat("x", StderrTailBytes-3), "cd"} {
		if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if got := b.String(); got != "b"+strings.Repeat("x", StderrTailBytes-3)+"cd" {
		t.Errorf("tail of %d bytes: %q...", len(got), got[:8])
	}
	_, _ = b.Write([]byte("z" + strings.Repeat("y", StderrTailBytes)))
	if got := b.String(); got != strings.Repeat("y", StderrTailBytes) {
		t.Errorf("after a write of more than the tail: %d bytes %q...", len(got), got[:8])
	}
	_, _ = b.Write([]byte(strings.Repeat("w", StderrTailBytes)))
	if got := b.String(); got != strings.Repeat("w", StderrTailBytes) {
		t.Errorf("after a write of exactly the tail: %q...", got[:8])
	}
	var fits tailBuffer
	_, _ = fits.Write([]byte(strings.Repeat("a", StderrTailBytes-1)))
	_, _ = fits.Write([]byte("b"))
	if got := fits.String(); len(got) != StderrTailBytes || got[0] != 'a' {
		t.Errorf("writes that fill the tail exactly: %d bytes", len(got))
	}
}

// Stop closes stdin, then sends SIGTERM to the group, then SIGKILL, each
// wait cut by the deadline; a server gets termGrace after SIGTERM whatever
// the deadline.
func TestStop(t *testing.T) {
	polite := started(t, sh("cat >/dev/null"))
	began := time.Now()
	polite.Stop(time.Now().Add(time.Minute))
	if d := time.Since(began); d > stopGrace {
		t.Errorf("a server that exits when its stdin closes took %s to stop", d)
	}

	dir := t.TempDir()
	termed := started(t, sh(`trap 'echo term >`+dir+`/term; exit 0' TERM; while :; do sleep 0.05; done`))
	time.Sleep(200 * time.Millisecond) // the trap is set
	began = time.Now()
	termed.Stop(time.Now().Add(time.Minute))
	if d := time.Since(began); d < stopGrace || d > 2*stopGrace {
		t.Errorf("a server that exits on SIGTERM stopped after %s, want the grace of stdin (%s) then SIGTERM", d, stopGrace)
	}
	if b, _ := os.ReadFile(dir + "/term"); string(b) != "term\n" {
		t.Errorf("the server got no SIGTERM: %q", b)
	}

	stubborn := started(t, sh(`trap '' TERM; echo $$; while :; do sleep 0.05; done`))
	var pid int
	if _, err := fmt.Fscan(stubborn.Stdout(), &pid); err != nil {
		t.Fatal(err)
	}
	began = time.Now()
	stubborn.Stop(time.Now()) // the deadline has passed: termGrace after SIGTERM, then SIGKILL
	if d := time.Since(began); d < termGrace || d > termGrace+stopGrace {
		t.Errorf("a server that ignores SIGTERM, past the deadline, stopped after %s, want about %s", d, termGrace)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the server %d still runs: %v", pid, err)
	}
}

// Terminate closes stdin and sends SIGTERM at once, once.
func TestTerminate(t *testing.T) {
	p := started(t, sh(`trap 'exit 7' TERM; while :; do sleep 0.05; done`))
	time.Sleep(200 * time.Millisecond) // the trap is set
	p.Terminate()
	p.Terminate()
	if !p.exitWithin(stopGrace) {
		t.Fatal("the server did not exit after Terminate")
	}
	if how := p.ExitedEarly(); how != "exited (exit status 7)" {
		t.Errorf("ExitedEarly = %q", how)
	}
	for range 64 { // a timer of 0 and an exit both ready: only the exit may answer
		if !p.exitWithin(0) {
			t.Fatal("exitWithin(0) of an exited process")
		}
	}
	running := started(t, sh("sleep 30"))
	if running.exitWithin(0) || running.exitWithin(-time.Second) || running.exitWithin(50*time.Millisecond) {
		t.Error("exitWithin says a running process exited")
	}
}

// On Unix, variable names are case-sensitive: another case is another
// variable, neither withheld nor inherited by the name given. A variable
// named exactly a prefix matches that prefix.
func TestEnvNames(t *testing.T) {
	t.Setenv("LIVEDOC_CASE", "upper")
	t.Setenv("AGENTREGISTRY_", "withheld")
	t.Setenv("LIVEDOCP_", "exact prefix")
	if err := CheckInheritEnv([]string{"google_credentials"}); err != nil {
		t.Errorf("google_credentials is not GOOGLE_CREDENTIALS on Unix: %v", err)
	}
	got := commandEnv([]string{"livedoc_case", "AGENTREGISTRY_*", "LIVEDOCP_*"}, nil)
	if slices.Contains(got, "LIVEDOC_CASE=upper") || slices.Contains(got, "AGENTREGISTRY_=withheld") {
		t.Errorf("inherited another case, or a credential: %v", got)
	}
	if !slices.Contains(got, "LIVEDOCP_=exact prefix") {
		t.Errorf("a variable named exactly the prefix LIVEDOCP_* is not inherited: %v", got)
	}
}

// alive says whether pid runs (a zombie does not).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) == 0 || fields[0] != "Z"
}

// SIGTERM and SIGKILL go to the process group: a child that exits on
// SIGTERM gets it though its parent ignores it, and a child that ignores it
// is killed with its parent.
func TestStopReachesTheGroup(t *testing.T) {
	dir := t.TempDir()
	script := `trap '' TERM
(trap 'echo term >` + dir + `/child; exit 0' TERM; while :; do sleep 0.05; done) &
sh -c 'trap "" TERM; echo $$; while :; do sleep 0.05; done' &
while :; do sleep 0.05; done`
	p := started(t, sh(script))
	var pid int
	if _, err := fmt.Fscan(p.Stdout(), &pid); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the traps are set
	p.Stop(time.Now())
	if b, _ := os.ReadFile(dir + "/child"); string(b) != "term\n" {
		t.Errorf("the child that exits on SIGTERM got none: %q", b)
	}
	deadline := time.Now().Add(2 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the child %d that ignores SIGTERM outlived Stop", pid)
	}
}

// A process whose stdio a child still holds when it exits is waited for
// WaitDelay, and said to have ended so.
func TestExitedEarlyAfterWaitDelay(t *testing.T) {
	p := started(t, sh("sleep 5 & exit 0"))
	time.Sleep(1500 * time.Millisecond)
	if how := p.ExitedEarly(); how != "ended: exec: WaitDelay expired before I/O complete" {
		t.Errorf("ExitedEarly = %q", how)
	}
}
