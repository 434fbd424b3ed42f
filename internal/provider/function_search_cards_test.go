package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// copyExample copies an example folder (its .tf files and subfolders) into
// the harness's working folder.
func (h *cliHarness) copyExample(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(h.dir, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(h.dir, rel), b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The search_cards example applied as it is: the function's result drives
// for_each at the first plan (a data source in the same configuration
// cannot), the apply creates one binding per match, and the plan after it
// is empty.
func TestAccFunction_searchCardsExample(t *testing.T) {
	skipUnlessFunctions(t)
	r := startRegistry(t)
	h := newCLIHarness(t)
	h.copyExample(t, "../../examples/functions/search_cards")
	h.write(t, "test.tf", testkit.ProviderConfig(r.URL))
	h.mustRun(t, "init", "-input=false")
	plan := h.mustExit(t, 2, "plan", "-detailed-exitcode", "-input=false")
	if !containsAll(plan, `agentregistry_binding.support_desk_to["order-tracker"] will be created`, "Plan: 4 to add") {
		t.Fatalf("the first plan does not plan the binding by for_each over search_cards:\n%s", plan)
	}
	h.mustRun(t, "apply", "-auto-approve", "-input=false")
	var outputs map[string]struct{ Value any }
	if err := json.Unmarshal([]byte(h.mustRun(t, "output", "-json")), &outputs); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"order-tracker": []any{"track-order"}}
	if got := outputs["support_skills"].Value; !reflect.DeepEqual(got, want) {
		t.Errorf("support_skills = %v, want %v", got, want)
	}
	h.mustExit(t, 0, "plan", "-detailed-exitcode", "-input=false")
}

func skipUnlessFunctions(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does)")
	}
	skipUnless(t, capFunctions)
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

func searchCardsCall(query string) string {
	return fmt.Sprintf(`
locals {
  cards = {
    for f in fileset(%[1]q, "*.json") : trimsuffix(f, ".json") => file("%[1]s/${f}")
  }
}
output "found" {
  value = { for k, v in provider::agentregistry::search_cards(local.cards, %[2]q) : k => v.skill_ids }
}
`, mustAbs("../../examples/functions/search_cards/cards"), query)
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		panic(err)
	}
	return a
}

func TestAccFunction_searchCards(t *testing.T) {
	found := func(want map[string][]string) []statecheck.StateCheck {
		m := map[string]knownvalue.Check{}
		for k, ids := range want {
			m[k] = resStrings(ids...)
		}
		return []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("found", knownvalue.ObjectExact(m))}
	}
	step := func(query string, want map[string][]string) resource.TestStep {
		return resource.TestStep{Config: searchCardsCall(query), ConfigStateChecks: found(want)}
	}
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capFunctions),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			// Everything, each card with all its skills.
			step("", map[string][]string{"fx-agent": {"convert", "rates"}, "order-tracker": {"track-order"}, "support-desk": {"answer"}}),
			// A skill field selects skills, not whole cards.
			step("skills.tags=rates", map[string][]string{"fx-agent": {"rates"}}),
			step("skills.tags=support", map[string][]string{"order-tracker": {"track-order"}, "support-desk": {"answer"}}),
			// Bare words search every keyword field; a prefix; the card's name is displayName.
			step("exchange", map[string][]string{"fx-agent": {"rates"}}),
			step("displayName:order* OR description:currencies", map[string][]string{"fx-agent": {"convert", "rates"}, "order-tracker": {"track-order"}}),
			// A card matches as agents:search matches it, even when no single
			// skill carries both terms.
			step("skills.id=convert AND skills.tags=rates", map[string][]string{"fx-agent": {}}),
			step("NOT skills.tags=fx", map[string][]string{"order-tracker": {"track-order"}, "support-desk": {"answer"}}),
			{
				Config:      searchCardsCall("agentId:fx"),
				ExpectError: relWords("the field agentId is the registry's and a card has none before it is registered"),
			},
			{
				Config:      searchCardsCall("skills.tags=(fx"),
				ExpectError: relWords("Invalid search query"),
			},
			{
				Config: `
output "found" {
  value = provider::agentregistry::search_cards({ broken = jsonencode({ name = "x" }) }, "")
}
`,
				ExpectError: relWords(`Invalid agent card "broken"`),
			},
		},
	})
}

// search_cards answers as the registry's agents:search does, on the same
// cards: the same keys for every query.
func TestSearchCardsAgreesWithTheRegistry(t *testing.T) {
	r := startRegistry(t)
	dir := "../../examples/functions/search_cards/cards"
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	cards := map[string]string{}
	for _, e := range entries {
		raw, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var card map[string]any
		if err := json.Unmarshal(raw, &card); err != nil {
			t.Fatal(err)
		}
		id := strings.TrimSuffix(e.Name(), ".json")
		cards[id] = string(raw)
		r.agent(id, card)
	}
	for _, query := range []string{"", "fx", "skills.tags=support", "displayName:order*", "NOT skills.tags=fx",
		"(skills.name:rates OR description:customers) AND NOT displayName=\"FX agent\"", "skills:track*", "exchange rates",
		"skills.id=convert AND skills.tags=rates", "description=\"tracks customer orders.\""} {
		matches, ferr := searchCards(cards, query)
		if ferr != nil {
			t.Fatalf("%q: %v", query, ferr)
		}
		agents, err := r.client.SearchAgents(context.Background(), testParent, query, 0)
		if err != nil {
			t.Fatalf("%q: agents:search: %v", query, err)
		}
		var fromRegistry, fromCards []string
		for _, a := range agents {
			fromRegistry = append(fromRegistry, a.Name[strings.LastIndex(a.Name, "/")+1:])
		}
		for k := range matches {
			fromCards = append(fromCards, k)
		}
		sort.Strings(fromRegistry)
		sort.Strings(fromCards)
		if strings.Join(fromRegistry, ",") != strings.Join(fromCards, ",") {
			t.Errorf("%q: search_cards found %v, the registry %v", query, fromCards, fromRegistry)
		}
	}
}
