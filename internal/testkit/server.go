package testkit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BuildServer builds the bundled server as `make build` does (its recipe's
// `go build` of ./cmd/agentregistry-server, which MakeRecipe reads), once
// per test process, into a folder that Main removes, and returns the binary.
func BuildServer(t testing.TB) string {
	t.Helper()
	return serverBuild.value(t)
}

var serverBuild = onceFor(func() (string, error) {
	dir, err := root()
	if err != nil {
		return "", err
	}
	return buildServer(dir)
})

func buildServer(root string) (string, error) {
	recipe, err := MakeRecipe(root, "build")
	if err != nil {
		return "", err
	}
	const build = "go build -trimpath -o bin/agentregistry-server ./cmd/agentregistry-server"
	if !strings.Contains(recipe, build) {
		return "", fmt.Errorf("`make build` no longer runs %q, as the tests build the server:\n%s", build, recipe)
	}
	dir, err := scratch()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "server", "agentregistry-server")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/agentregistry-server")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/agentregistry-server: %w\n%s", err, out)
	}
	return bin, nil
}

// serverLine is a page's command line that starts the bundled server:
// variables, the binary, its flags, and "&" or a comment after them.
var serverLine = regexp.MustCompile(`^((?:[A-Z_]+=\S+ +)*)(?:\S*/)?agentregistry-server((?: +[^&#\s]+)*) *&? *(#.*)?$`)

// ServerLine matches the lines of a page that start the bundled server
// (`bin/agentregistry-server -listen 127.0.0.1:8787 -data x &`), for a
// Reader's Instead: StartServerLine starts them.
var ServerLine = regexp.MustCompile(`^(?:[A-Z_]+=\S+ +)*(?:\S*/)?agentregistry-server( |$)`)

// StartServerLine starts the bundled server (BuildServer) as a page's line
// does, with its variables and flags, in dir, on a free loopback port in place
// of the address it names, and a data file of the test's in place of an
// absolute one; it returns the address the server listens on. The server is
// stopped with the test.
func StartServerLine(t testing.TB, dir, line string) (string, error) {
	t.Helper()
	m := serverLine.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return "", fmt.Errorf("%q does not start agentregistry-server as a page writes it", line)
	}
	args := strings.Fields(m[2])
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "-listen":
			args[i+1] = "127.0.0.1:0"
		case "-data":
			if filepath.IsAbs(args[i+1]) {
				args[i+1] = filepath.Join(t.TempDir(), filepath.Base(args[i+1]))
			}
		}
	}
	if !strings.Contains(m[2], "-listen") {
		args = append(args, "-listen", "127.0.0.1:0")
	}
	env := append(os.Environ(), strings.Fields(m[1])...)
	return StartServer(t, dir, env, BuildServer(t), args...)
}

// StartServer starts the server binary with args in dir and returns the
// address it says it listens on; it is stopped with the test.
func StartServer(t testing.TB, dir string, env []string, bin string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() })
	listening := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			if addr, ok := strings.CutPrefix(s.Text(), "agentregistry-server listening on http://"); ok {
				listening <- addr
			}
		}
		close(listening)
	}()
	select {
	case addr, ok := <-listening:
		if !ok {
			return "", fmt.Errorf("agentregistry-server %s ended without listening:\n%s", strings.Join(args, " "), stderr.String())
		}
		return addr, nil
	case <-time.After(time.Minute):
		return "", fmt.Errorf("agentregistry-server %s did not say where it listens within a minute", strings.Join(args, " "))
	}
}

// StartBackground runs script in bash in dir, in the background in a process
// group of its own (stopped with the test, with what it started), as a reader
// runs a server in a second terminal, and waits until something listens on
// addr (5 minutes: `make server` builds the server first).
func StartBackground(t testing.TB, dir string, env []string, script, addr string) error {
	t.Helper()
	log, err := os.Create(filepath.Join(t.TempDir(), "background.log"))
	if err != nil {
		return err
	}
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		t.Logf("%s stopped: %v", strings.TrimSpace(script), <-exited)
		_ = log.Close()
	})
	logged := func() string { raw, _ := os.ReadFile(log.Name()); return string(raw) }
	for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); {
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			return conn.Close()
		}
		select {
		case err := <-exited:
			return fmt.Errorf("%s ended: %v\n%s", script, err, logged())
		case <-time.After(200 * time.Millisecond):
		}
	}
	return fmt.Errorf("nothing listened on %s within 5 minutes of %s:\n%s", addr, script, logged())
}

// FreeAddress is a loopback address with a port nobody listens on.
func FreeAddress(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().String()
}

var makeReference = regexp.MustCompile(`\$\(([A-Z_]+)\)`)

// MakeRecipe is the recipe of a GNUmakefile target, its lines joined, with
// each $(VARIABLE) at the value the GNUmakefile gives it ("" when it gives
// none), as `make TARGET` without arguments runs it.
func MakeRecipe(root, target string) (string, error) {
	raw, err := os.ReadFile(filepath.Join(root, "GNUmakefile"))
	if err != nil {
		return "", err
	}
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(target) + `:.*\n((?:\t.*\n)+)`).FindSubmatch(raw)
	if m == nil {
		return "", errors.New("the GNUmakefile has no target " + target + " with a recipe")
	}
	return makeReference.ReplaceAllStringFunc(string(m[1]), func(ref string) string {
		name := makeReference.FindStringSubmatch(ref)[1]
		def := regexp.MustCompile(`(?m)^` + name + `\s*[:?]?=(.*)$`).FindSubmatch(raw)
		if def == nil {
			return ""
		}
		return strings.TrimSpace(string(def[1]))
	}), nil
}
