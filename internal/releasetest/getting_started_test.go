package releasetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	gettingStartedGuide = "templates/guides/getting-started.md.tmpl"
	// guideAddress is where the guide starts the bundled server; the test
	// starts it on a free port instead and reads the guide with that address.
	guideAddress = "127.0.0.1:8787"
)

// TestAccGettingStartedGuide follows the guide "Getting started" word for word
// with Terraform and OpenTofu (TERRAFORM and TOFU): every ```sh block runs in
// order, as `terraform` (a shim to the CLI under test), in the clone when the
// block says "# in the clone" and in a new folder otherwise; `make server` runs
// in the background for the rest of the guide; the files the guide says to save
// are saved; the card fix is made as the guide shows it; and each ```text block
// must appear in what the ```sh block before it printed (spacing and colours
// aside). A block not followed by a ```text block must succeed.
func TestAccGettingStartedGuide(t *testing.T) {
	forEachCLI(t, []string{"TERRAFORM", "TOFU"}, func(t *testing.T, c cli) {
		root := repositoryRoot(t)
		address := freeAddress(t)
		page := strings.ReplaceAll(string(readFile(t, filepath.Join(root, gettingStartedGuide))), guideAddress, address)
		g := &guideRun{t: t, root: root, work: t.TempDir(), address: address, env: guideEnv(t, c)}
		blocks := fencedBlocks(page)
		for i, b := range blocks {
			next := docBlock{}
			if i+1 < len(blocks) {
				next = blocks[i+1]
			}
			g.follow(b, next)
		}
		if g.commands < 5 {
			t.Fatalf("only %d ```sh blocks ran: the guide lost its steps", g.commands)
		}
	})
}

// guideRun is the state of one reading of the guide.
type guideRun struct {
	t        *testing.T
	root     string // the clone
	work     string // the new folder of step 3
	address  string // the bundled server's
	env      []string
	commands int // ```sh blocks run
}

var (
	saveAs     = regexp.MustCompile("(?i)save .*as `([^`]+)`:\\s*$")
	skillEntry = regexp.MustCompile("its entry in `skills` reads:\\s*$")
)

func (g *guideRun) follow(b, next docBlock) {
	switch {
	case b.lang == "sh":
		g.commands++
		g.run(b, next)
	case saveAs.MatchString(b.caption):
		name := saveAs.FindStringSubmatch(b.caption)[1]
		if err := os.WriteFile(filepath.Join(g.work, name), []byte(b.body), 0o600); err != nil {
			g.t.Fatal(err)
		}
	case skillEntry.MatchString(b.caption):
		g.replaceFirstSkill(b.body)
	}
}

// run runs one ```sh block and judges it by the ```text block after it, or by
// its exit status when none follows.
func (g *guideRun) run(b, next docBlock) {
	t := g.t
	dir := g.work
	if strings.HasPrefix(b.body, "# in the clone") {
		dir = g.root
	}
	if strings.Contains(b.body, "make server") {
		g.startServer(b.body, dir)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", b.body)
	cmd.Dir, cmd.Env = dir, g.env
	out, err := cmd.CombinedOutput()
	if unshown := unshownWarnings(string(out), next); len(unshown) > 0 {
		t.Fatalf("the block prints warnings the guide does not show after it:\n%s\n--- the block:\n%s--- its output:\n%s",
			strings.Join(unshown, "\n"), b.body, out)
	}
	if next.lang == "text" {
		if missing := missingLines(string(out), next.body); len(missing) > 0 {
			t.Fatalf("the guide says these lines appear, and they do not:\n%s\n--- the block:\n%s--- its output:\n%s",
				strings.Join(missing, "\n"), b.body, out)
		}
		return
	}
	if err != nil {
		t.Fatalf("the guide's block failed: %v\n--- the block:\n%s--- its output:\n%s", err, b.body, out)
	}
}

var (
	warningLine = regexp.MustCompile(`(?m)Warning: (.+)$`)
	// installWarnings are what the CLIs say of a provider installed from a
	// local mirror, which the README explains: not the guide's to show.
	installWarnings = []string{"Incomplete lock file information for providers"}
)

// unshownWarnings lists the warnings in a block's output that the ```text
// block after it does not show: a reader who sees a warning the guide never
// mentions is left to wonder.
func unshownWarnings(out string, next docBlock) []string {
	shown := ""
	if next.lang == "text" {
		shown = normalized(next.body)
	}
	var unshown []string
	for _, m := range warningLine.FindAllStringSubmatch(normalized(out), -1) {
		summary := strings.TrimSpace(m[1])
		if !strings.Contains(shown, "Warning: "+summary) && !slices.Contains(installWarnings, summary) {
			unshown = append(unshown, "Warning: "+summary)
		}
	}
	return unshown
}

// startServer starts the block (make server) in the background in a process
// group of its own, stopped with the test, and waits until it accepts connections.
func (g *guideRun) startServer(body, dir string) {
	t := g.t
	log, err := os.Create(filepath.Join(t.TempDir(), "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", body)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, g.env, log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) // make and the server it runs
		t.Logf("the bundled server stopped: %v", <-exited)
		_ = log.Close()
	})
	deadline := time.Now().Add(5 * time.Minute) // `make server` builds the server first
	for time.Now().Before(deadline) {
		if conn, err := net.DialTimeout("tcp", g.address, time.Second); err == nil {
			_ = conn.Close()
			return
		}
		select {
		case err := <-exited:
			t.Fatalf("the server exited: %v\n%s", err, readFile(t, log.Name()))
		case <-time.After(200 * time.Millisecond):
		}
	}
	t.Fatalf("the server did not listen on %s within 5 minutes:\n%s", g.address, readFile(t, log.Name()))
}

// replaceFirstSkill makes the card's first skill what the guide shows.
func (g *guideRun) replaceFirstSkill(entry string) {
	t := g.t
	name := filepath.Join(g.work, "agent-card.json")
	var card map[string]any
	var skill any
	if err := errors.Join(json.Unmarshal(readFile(t, name), &card), json.Unmarshal([]byte(entry), &skill)); err != nil {
		t.Fatalf("the guide's card or skill is not JSON: %v", err)
	}
	skills, ok := card["skills"].([]any)
	if !ok || len(skills) == 0 {
		t.Fatalf("the guide's card has no skills to fix")
	}
	skills[0] = skill
	fixed, err := json.MarshalIndent(card, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, fixed, 0o600); err != nil {
		t.Fatal(err)
	}
}

// guideEnv is the environment of a user who installs from a clone: a home of
// their own (where `make install` puts the provider), `terraform` on the PATH
// naming the CLI under test, Go's caches kept (they would default to the empty
// home, and every module would be downloaded and built again), and none of
// the caller's TF_* or make variables.
func guideEnv(t *testing.T, c cli) []string {
	t.Helper()
	home, shim := t.TempDir(), t.TempDir()
	if err := os.Symlink(c.path, filepath.Join(shim, "terraform")); err != nil {
		t.Fatal(err)
	}
	goEnv, err := exec.Command("go", "env", "GOPATH", "GOMODCACHE", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	dirs := strings.Fields(string(goEnv))
	if len(dirs) != 3 {
		t.Fatalf("go env printed %q", goEnv)
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "TF_"), name == "HOME", name == "PATH", name == "MAKEFLAGS", name == "MAKELEVEL",
			name == "MFLAGS", name == "VERSION":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "PATH="+shim+string(os.PathListSeparator)+os.Getenv("PATH"), "CHECKPOINT_DISABLE=1",
		"GOPATH="+dirs[0], "GOMODCACHE="+dirs[1], "GOCACHE="+dirs[2])
}

// freeAddress is a loopback address with a port nobody listens on.
func freeAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	return fmt.Sprint(l.Addr())
}
