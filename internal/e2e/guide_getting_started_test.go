package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The guide "Getting started" word for word, as a user with a clone and
// nothing installed follows it: `make install` in the clone puts the provider
// in their (new) home's implied mirror; `make server` runs in the clone in
// the background (listening on a free address in place of 127.0.0.1:8787);
// the files the guide says to save are saved in a new folder, and the card
// fixed as it shows; every ```sh block runs, the ```text block after one must
// appear in what it printed, and a warning it prints must be shown there (but
// the one of every local install, which the guide Installing the provider
// explains). Then what step 3 says of file() (fileSpacingProse).
func followGettingStarted(t *testing.T, g *guideRun) {
	address := testkit.FreeAddress(t)
	r := g.readerAsUser(t, nil)
	r.Clone = g.root
	r.Replace = strings.NewReplacer("127.0.0.1:8787", address)
	r.Warnings = []string{"Incomplete lock file information for providers"}
	r.Own = func(b testkit.Block) (bool, error) {
		switch {
		case b.Lang == "sh" && strings.Contains(b.Text, "make server"):
			return true, testkit.StartBackground(t, r.Clone, r.Env, r.Replace.Replace(b.Text), address)
		case skillEntry.MatchString(b.Caption):
			return true, replaceFirstSkill(filepath.Join(r.Dir, "agent-card.json"), b.Text)
		}
		return false, nil
	}
	must(t, r.Follow(g.page.Blocks))
	fileSpacingProse(t, r)
}

// fileSpacingProse holds what step 3 says of `agent_card = file(...)`:
// re-indenting the card plans an update, shown as whitespace changes; read
// as jsonencode(jsondecode(file(...))), it plans none.
func fileSpacingProse(t *testing.T, r *testkit.Reader) {
	t.Helper()
	run := func(script string, want int, lines ...string) {
		t.Helper()
		out, code, err := r.Run(script)
		if err != nil || code != want || len(testkit.MissingLines(out, strings.Join(lines, "\n"))) > 0 {
			t.Fatalf("%s: exit code %d (%v), want %d and %q:\n%s", script, code, err, want, lines, out)
		}
	}
	card, main := filepath.Join(r.Dir, "agent-card.json"), filepath.Join(r.Dir, "main.tf")
	run("terraform apply -auto-approve", 0) // the registration put back, as step 6 says
	must(t, reindent(card, "    "))
	run("terraform plan -detailed-exitcode", 2, "# whitespace changes", "Plan: 0 to add, 1 to change, 0 to destroy.")
	raw, err := os.ReadFile(main)
	must(t, err)
	const file = `file("${path.module}/agent-card.json")`
	if !strings.Contains(string(raw), "agent_card   = "+file) {
		t.Fatalf("main.tf no longer reads the card with %s:\n%s", file, raw)
	}
	writeFile(t, main, strings.Replace(string(raw), file, "jsonencode(jsondecode("+file+"))", 1))
	run("terraform apply -auto-approve", 0)
	must(t, reindent(card, "\t"))
	run("terraform plan -detailed-exitcode", 0, "No changes.")
}

// reindent writes the JSON file name again, indented with indent.
func reindent(name, indent string) error {
	raw, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	var compact, out bytes.Buffer
	if err := errors.Join(json.Compact(&compact, raw), json.Indent(&out, compact.Bytes(), "", indent)); err != nil {
		return err
	}
	return os.WriteFile(name, out.Bytes(), 0o600)
}

var skillEntry = regexp.MustCompile("its entry in `skills` reads:$")

// replaceFirstSkill makes the card's first skill what the guide shows.
func replaceFirstSkill(name, entry string) error {
	raw, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	var card map[string]any
	var skill any
	if err := errors.Join(json.Unmarshal(raw, &card), json.Unmarshal([]byte(entry), &skill)); err != nil {
		return errors.New("the guide's card or skill is not JSON: " + err.Error())
	}
	skills, ok := card["skills"].([]any)
	if !ok || len(skills) == 0 {
		return errors.New("the guide's card has no skills to fix")
	}
	skills[0] = skill
	fixed, err := json.MarshalIndent(card, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(name, fixed, 0o600)
}
