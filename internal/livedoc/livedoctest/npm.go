//go:build unix

package livedoctest

import (
	"bufio"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// NPMPackages are the npm packages the stdio and MCP 2026-07-28 tests run,
// pinned: real MCP servers published on npm (TypeScript SDK v1, MCP
// 2025-11-25) and the TypeScript SDK v2 that speaks 2026-07-28.
var NPMPackages = []string{
	"@modelcontextprotocol/server-memory@2026.8.31",
	"@modelcontextprotocol/server-filesystem@2026.8.31",
	"@modelcontextprotocol/server@2.4.0",
	"zod@4.6.7",
}

// ConformancePackages are the npm packages of the official MCP conformance
// suite's client scenarios, pinned: the suite, and the Node.js 22 it needs
// (npm ships Node as a package, node-<os>-<cpu>; this machine's may be older).
var ConformancePackages = []string{
	"@modelcontextprotocol/conformance@0.2.0-alpha.12",
	nodePackage() + "@22.23.5",
}

// nodePackage is the npm package of the Node.js binary for this machine.
func nodePackage() string {
	cpu := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	return "node-" + runtime.GOOS + "-" + cpu
}

//go:embed js/*.mjs
var scripts embed.FS

// npmSet is a pinned list of packages installed once per test process.
type npmSet struct {
	packages []string
	scripts  bool // copy js/*.mjs beside node_modules
	once     sync.Once
	dir      string
	failure  string
}

var (
	mcpSet         = &npmSet{packages: NPMPackages, scripts: true}
	conformanceSet = &npmSet{packages: ConformancePackages}
)

// NPMDir returns a folder whose node_modules holds NPMPackages and whose
// top level holds this package's scripts (js/*.mjs). The packages are
// installed once, outside the repository, in a folder named for the pinned
// list beside GOPATH (…/agentregistry-npm/<digest>), and reused while it is
// there. Without npm the test is skipped, except under CI=true, where it
// fails: CI must run these tests.
func NPMDir(t testing.TB) string {
	t.Helper()
	return mcpSet.install(t)
}

// Conformance returns the Node.js 22 binary and the command-line script of
// the MCP conformance suite (ConformancePackages), installed as NPMDir
// installs its packages (skipped without npm, failed under CI=true).
func Conformance(t testing.TB) (node, suite string) {
	t.Helper()
	modules := filepath.Join(conformanceSet.install(t), "node_modules")
	return filepath.Join(modules, nodePackage(), "bin", "node"),
		filepath.Join(modules, "@modelcontextprotocol", "conformance", "dist", "index.js")
}

func (s *npmSet) install(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("npm is not installed, and CI must run the tests of MCP servers published on npm: %v", err)
		}
		t.Skipf("npm is not installed: these tests run MCP servers published on npm (CI fails here): %v", err)
	}
	s.once.Do(func() { s.dir, s.failure = installNPM(s.packages, s.scripts) })
	if s.failure != "" {
		t.Fatal(s.failure)
	}
	return s.dir
}

// NodeScript returns the command that runs one of this package's scripts
// (js/<name>) with node, with the packages it imports installed.
func NodeScript(t testing.TB, name string, args ...string) []string {
	t.Helper()
	return append([]string{"node", filepath.Join(NPMDir(t), name)}, args...)
}

// NPMBin returns the command that runs the main script of an installed
// package, such as "@modelcontextprotocol/server-memory", with node.
func NPMBin(t testing.TB, pkg, main string, args ...string) []string {
	t.Helper()
	return append([]string{"node", filepath.Join(NPMDir(t), "node_modules", pkg, main)}, args...)
}

func installNPM(packages []string, withScripts bool) (dir, failure string) {
	sum := sha256.Sum256([]byte(strings.Join(packages, "\n")))
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = build.Default.GOPATH
	}
	gopath = filepath.SplitList(gopath)[0]
	dir = filepath.Join(filepath.Dir(gopath), "agentregistry-npm", hex.EncodeToString(sum[:8]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "cannot make the npm cache folder: " + err.Error()
	}
	// Test binaries of several packages may install at once: one does,
	// the others wait for it and find the packages there.
	lock, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", err.Error()
	}
	defer func() { _ = lock.Close() }() // closing releases the lock
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", "cannot lock the npm cache folder: " + err.Error()
	}
	done := filepath.Join(dir, ".installed")
	if _, err := os.Stat(done); err != nil {
		args := append([]string{"install", "--prefix", dir, "--no-audit", "--no-fund", "--save-exact", "--loglevel=error"}, packages...)
		out, err := exec.Command("npm", args...).CombinedOutput()
		if err != nil {
			return "", "npm " + strings.Join(args, " ") + " failed: " + err.Error() + "\n" + string(out)
		}
		if err := os.WriteFile(done, []byte(strings.Join(packages, "\n")), 0o644); err != nil {
			return "", err.Error()
		}
	}
	if !withScripts {
		return dir, ""
	}
	return dir, writeScripts(dir)
}

// writeScripts copies js/*.mjs beside node_modules, where node resolves
// their imports.
func writeScripts(dir string) string {
	entries, err := scripts.ReadDir("js")
	if err != nil {
		return err.Error()
	}
	for _, e := range entries {
		b, err := scripts.ReadFile("js/" + e.Name())
		target := filepath.Join(dir, e.Name())
		if old, rerr := os.ReadFile(target); err == nil && (rerr != nil || string(old) != string(b)) {
			// Rewritten only when it differs: another test binary may be running it.
			err = os.WriteFile(target, b, 0o644)
		}
		if err != nil {
			return "cannot write " + e.Name() + ": " + err.Error()
		}
	}
	return ""
}

// ServeTS2HTTP starts ts2-server.mjs over Streamable HTTP: an MCP server of
// the TypeScript SDK v2 that speaks 2026-07-28 only. It returns its URL; the
// server stops when the test ends.
func ServeTS2HTTP(t testing.TB) string {
	t.Helper()
	args := NodeScript(t, "ts2-server.mjs", "http")
	return strings.TrimSpace(string(startScript(t, "ts2-server.mjs", exec.Command(args[0], args[1:]...))))
}

// startScript starts name, a script that prints one line when it is ready (its URL,
// or a JSON object) and exits when its stdin ends, and returns that line; the
// script is stopped when the test ends.
func startScript(t testing.TB, name string, cmd *exec.Cmd) []byte {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Process.Kill() // at once: nothing of it is checked after the test
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	if err != nil {
		t.Fatalf("%s printed no line: %v", name, err)
	}
	return line
}
