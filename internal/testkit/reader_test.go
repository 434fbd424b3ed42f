package testkit

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// reader follows page in a new folder, with the test process's environment
// (bash, and nothing else, is what these pages run).
func reader(t *testing.T, page string) *Reader {
	return &Reader{Page: NewPage("page.md", page), Dir: t.TempDir(), Env: os.Environ(), Logf: t.Logf}
}

func follow(r *Reader) error { return r.Follow(r.Page.Blocks) }

// A ```text block after a ```sh block must appear in what it printed: a line
// that does not fails the page, naming the line.
func TestReader_textThatDoesNotMatchFails(t *testing.T) {
	r := reader(t, "```sh\necho 'Plan:  1 to add'\n```\n```text\nPlan: 1 to add\n```\n")
	if err := follow(r); err != nil {
		t.Fatalf("matching output failed: %v", err)
	}
	if !r.Page.HasRun(r.Page.Blocks[0]) || r.Page.Check() != nil {
		t.Fatal("the block that ran is not counted")
	}
	r = reader(t, "# G\n```sh\necho 'Plan: 1 to add'\n```\n```text\nPlan: 1 to add\nApply complete!\n```\n")
	err := follow(r)
	if err == nil || !strings.Contains(err.Error(), "Apply complete!") || !strings.Contains(err.Error(), "page.md:2") {
		t.Fatalf("a line the block did not print passed, or the error does not name it and the block: %v", err)
	}
	if r.Page.HasRun(r.Page.Blocks[0]) {
		t.Error("a block whose output does not match counts as run")
	}
}

// A block the page says to save is saved in the reader's folder, with the
// test's replacements: "save ... as `NAME`:" or a first line "# NAME".
func TestReader_saveAsWritesTheFile(t *testing.T) {
	r := reader(t, "Save it as `conf/main.tf`:\n\n```terraform\nendpoint = \"http://127.0.0.1:8787\"\n```\n"+
		"```hcl\n# approve/main.tf\nx = 1\n```\n"+
		"Shown only:\n```terraform\ny = 2\n```\n"+
		"```sh\ncat conf/main.tf approve/main.tf\n```\n```text\nendpoint = \"http://127.0.0.1:9999\"\n# approve/main.tf\n```\n")
	r.Replace = strings.NewReplacer("127.0.0.1:8787", "127.0.0.1:9999")
	if err := follow(r); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(r.Dir)
	if len(entries) != 2 {
		t.Errorf("the folder holds %v, want conf/ and approve/ only (a block shown only is not saved)", entries)
	}
}

// Format checks that every .tf file the page saves is formatted: a block
// that is not fails, naming the file.
func TestReader_formatChecksSavedFiles(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "fmt")
	// A CLI whose fmt -check fails on files holding "  =".
	if err := os.WriteFile(fake, []byte("#!/bin/sh\n! grep -q '  =' \"$4\"\n"), 0o700); err != nil { //nolint:gosec // a script the test runs
		t.Fatal(err)
	}
	r := reader(t, "```hcl\n# main.tf\nx  = 1\n```\n")
	r.Format = fake
	if err := follow(r); err == nil || !strings.Contains(err.Error(), "main.tf is not formatted") {
		t.Fatalf("an unformatted block passed: %v", err)
	}
}

// The exit code a block must end with is what the text after it implies.
func TestExpectedExit(t *testing.T) {
	for _, c := range []struct {
		block, text string
		want        int
	}{
		{"terraform apply -auto-approve\n", "Apply complete!\n", 0},
		{"terraform init\nterraform plan\n", "Error: Invalid A2A Agent Card\n", 1},
		{"terraform plan\n", "│ Error: MCP Tools Changed Since Approval\n", 1},
		{"curl x\nterraform plan -detailed-exitcode\n", "~ display_name = \"a\" -> \"b\"\n", 2},
		{"terraform plan -detailed-exitcode\n# a comment\n\n", "", 2},
		{"terraform plan -detailed-exitcode\n", "No changes. Your infrastructure matches the configuration.\n", 0},
		{"terraform plan -detailed-exitcode || echo \"exit code: $?\"\n", "exit code: 2\n", 0},
		{"terraform plan -detailed-exitcode\nterraform apply\n", "", 0},
		{"echo ErrorS: none\n", "ErrorS: none\n", 0},
	} {
		next := &Block{Lang: "text", Text: c.text}
		if got := ExpectedExit(Block{Lang: "sh", Text: c.block}, next); got != c.want {
			t.Errorf("%q then %q: exit %d, want %d", c.block, c.text, got, c.want)
		}
	}
	r := reader(t, "```sh\nfalse\n```\n")
	if err := follow(r); err == nil || !strings.Contains(err.Error(), "exit code 1, want 0") {
		t.Errorf("a failing block passed: %v", err)
	}
	r = reader(t, "```sh\nexit 2\n```\n```text\nError: x\n```\n")
	if err := follow(r); err == nil || !strings.Contains(err.Error(), "exit code 2, want 1") {
		t.Errorf("a block shown failing with an error exited 2, and passed: %v", err)
	}
}

// Blocks run in bash with -euo pipefail, with the variables earlier blocks
// set; "# in the clone" runs in the clone; a "#!" block is a script run as
// written (its own set, no -e).
func TestReader_runsAsTheReaderDoes(t *testing.T) {
	r := reader(t, "```sh\nR=http://127.0.0.1:8787/v1\n```\n"+
		"```sh\necho \"$R/x\"\n```\n```text\nhttp://127.0.0.1:9999/v1/x\n```\n"+
		"```sh\n# in the clone\npwd\n```\n"+
		"```sh\n#!/usr/bin/env bash\nfalse\necho \"went on\"\n```\n```text\nwent on\n```\n"+
		"```sh\nfalse\necho \"went on\"\n```\n")
	r.Replace = strings.NewReplacer("127.0.0.1:8787", "127.0.0.1:9999")
	r.Clone = t.TempDir()
	blocks := r.Page.Blocks
	if err := r.Follow(blocks[:5]); err != nil {
		t.Fatal(err)
	}
	out, code, err := r.Run(blocks[3].Text)
	if err != nil || code != 0 || strings.TrimSpace(out) != r.Clone {
		t.Errorf("# in the clone ran in %q (exit %d, %v), want %s", out, code, err, r.Clone)
	}
	if err := r.Follow(blocks[6:]); err == nil {
		t.Error("a block went on after a failing command")
	}
	r.Clone = ""
	if _, _, err := r.Run(blocks[3].Text); err == nil {
		t.Error("# in the clone ran with no clone")
	}
}

// Instead: the lines the test does itself split a block, and run in order
// with the rest; a line not run at all is said so.
func TestReader_instead(t *testing.T) {
	var did []string
	r := reader(t, "```sh\necho one\nbin/server -listen 127.0.0.1:8787 &\necho two\nmake test\n```\n```text\none\ntwo\n```\n")
	r.Instead = []Instead{
		{Line: regexp.MustCompile(`^bin/server `), Why: "the test's server", Do: func(line string) error {
			did = append(did, line)
			return nil
		}},
		{Line: regexp.MustCompile(`^make test$`), Why: "the suite itself"},
	}
	if err := follow(r); err != nil {
		t.Fatal(err)
	}
	if len(did) != 1 || did[0] != "bin/server -listen 127.0.0.1:8787 &" {
		t.Errorf("did %q", did)
	}
	r.Instead[0].Do = func(string) error { return errors.New("no server") }
	if err := follow(r); err == nil || !strings.Contains(err.Error(), "no server") {
		t.Errorf("a failed stand-in passed: %v", err)
	}
}

// An Instead that starts a server can set Replace to its address: the lines
// after its own, in the same block, run with it.
func TestReader_insteadSetsTheAddressOfTheLinesAfterIt(t *testing.T) {
	r := reader(t, "```sh\necho before http://127.0.0.1:8787\nbin/server -listen 127.0.0.1:8787 &\necho after http://127.0.0.1:8787\n```\n"+
		"```text\nbefore http://127.0.0.1:8787\nafter http://127.0.0.1:9999\n```\n")
	r.Instead = []Instead{{Line: regexp.MustCompile(`^bin/server `), Why: "the test's server", Do: func(string) error {
		r.Replace = strings.NewReplacer("127.0.0.1:8787", "127.0.0.1:9999")
		return nil
	}}}
	if err := follow(r); err != nil {
		t.Fatal(err)
	}
}

// Before runs when the reader reaches a section; a section that is gone is
// an error. Own handles a block; Output rewrites what a block printed;
// Warnings fails a block that prints a warning the page does not show.
func TestReader_hooks(t *testing.T) {
	r := reader(t, "## 1. First\n```sh\necho \"version 0.2.0+dev.abc installed\"\n```\n```text\nversion 0.2.0 installed\n```\n"+
		"## 2. Second\n```sh\nmake server\n```\n```sh\necho 'Warning: Incomplete lock file information'\n```\n")
	var events []string
	r.Before = map[string]func() error{
		"## 2.": func() error { events = append(events, "before 2"); return nil },
		"## 3.": func() error { return nil },
	}
	r.Own = func(b Block) (bool, error) {
		if strings.HasPrefix(b.Text, "make server") {
			events = append(events, "own")
			return true, nil
		}
		return false, nil
	}
	r.Output = func(s string) string { return strings.ReplaceAll(s, "0.2.0+dev.abc", "0.2.0") }
	r.Warnings = []string{"Incomplete lock file"}
	if err := follow(r); err != nil {
		t.Fatal(err)
	}
	if strings.Join(events, ",") != "before 2,own" || !r.Page.HasRun(r.Page.Blocks[2]) {
		t.Errorf("events %q; the block Own handled counts as run: %v", events, r.Page.HasRun(r.Page.Blocks[2]))
	}
	if err := r.BeforeAllCalled(); err == nil || !strings.Contains(err.Error(), "## 3.") {
		t.Errorf("a section the page lost: %v", err)
	}
	r.Warnings = []string{}
	if err := r.Follow(r.Page.Blocks[3:]); err == nil || !strings.Contains(err.Error(), "Warning: Incomplete lock file information") {
		t.Errorf("a warning the page does not show passed: %v", err)
	}
}

// The GNUmakefile's recipes, with its variables, as make runs them.
func TestMakeRecipe(t *testing.T) {
	recipe, err := MakeRecipe(Root(t), "server")
	if err != nil || !strings.Contains(recipe, "exec bin/agentregistry-server") {
		t.Fatalf("the server recipe = %q, %v", recipe, err)
	}
	if _, err := MakeRecipe(Root(t), "no-such-target"); err == nil {
		t.Error("a target the GNUmakefile does not have")
	}
}

// The lines a page starts the server with, as StartServerLine reads them.
func TestServerLine(t *testing.T) {
	for line, want := range map[string]string{
		"bin/agentregistry-server -listen 127.0.0.1:8787":                                 "| -listen 127.0.0.1:8787",
		"bin/agentregistry-server -listen 127.0.0.1:8787 -data ./registry.db   # durable": "| -listen 127.0.0.1:8787 -data ./registry.db",
		"AGENTREGISTRY_SERVER_TOKEN=s3cret bin/agentregistry-server -listen 127.0.0.1:8787": "AGENTREGISTRY_SERVER_TOKEN=s3cret|" +
			" -listen 127.0.0.1:8787",
		"agentregistry-server -listen 127.0.0.1:8787 &": "| -listen 127.0.0.1:8787",
	} {
		m := serverLine.FindStringSubmatch(line)
		if !ServerLine.MatchString(line) || m == nil || strings.TrimSpace(m[1])+"|"+strings.TrimRight(m[2], " ") != want {
			t.Errorf("%q = %q, want %q", line, m, want)
		}
	}
	for _, line := range []string{"make build", "go run ./cmd/agentregistry-server", "echo agentregistry-server"} {
		if ServerLine.MatchString(line) {
			t.Errorf("%q taken for a server start", line)
		}
	}
}
