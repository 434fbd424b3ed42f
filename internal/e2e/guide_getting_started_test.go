package e2e

import (
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
// the one of every local install, which the guide Installing the provider explains).
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
