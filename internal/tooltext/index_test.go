package tooltext

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the rules section of the rule index page")

// indexPage is the rule index page's template; its rules section is made
// from Rules, between these markers.
const (
	indexPage  = "../../templates/guides/tool-text-rules.md.tmpl"
	rulesBegin = "<!-- The rules below are made from internal/tooltext/rules.go: go test ./internal/tooltext -run TestRuleIndexPage -update -->\n"
	rulesEnd   = "<!-- End of the rules. -->\n"
)

// familyTitles are the families' headings.
var familyTitles = map[string]string{
	FamilyHidden: "Hidden instructions", FamilyInvisible: "Invisible and deceptive characters",
	FamilySensitive: "Sensitive resources", FamilyExfil: "Exfiltration sinks", FamilyShadowing: "Shadowing",
	FamilyAnnotation: "Annotation contradictions", FamilySchema: "Schema smuggling",
	FamilyPreference: "Preference manipulation", FamilyFlooding: "Flooding", FamilyAnalysis: "What the check could not read",
}

// renderRules is the rules section: every rule under its family, with its
// severity, rationale, source, an example that fires it and one that does
// not (the texts TestRules_examples runs).
func renderRules(t *testing.T) string {
	var b strings.Builder
	b.WriteString(rulesBegin)
	for _, fam := range Families {
		fmt.Fprintf(&b, "\n### %s\n", familyTitles[fam])
		for _, r := range Rules {
			if r.Family != fam {
				continue
			}
			scope := "`tool_findings`, `fleet_tool_findings`, `tool_policy`, `findings`"
			if r.Fleet {
				scope = "`fleet_tool_findings` and the `registry-fleet` module only"
			}
			fmt.Fprintf(&b, "\n#### `%s`\n\n**%s** (severity **%s**; raised by %s)\n\n%s\n\nSource: %s\n\nFires on:\n\n```json\n%s\n```\n\nDoes not fire on:\n\n```json\n%s\n```\n",
				r.ID, r.Title, r.Severity, scope, r.Rationale, r.Source, indentJSON(t, r.Example, r.Fleet), indentJSON(t, r.Clean, r.Fleet))
		}
	}
	b.WriteString(rulesEnd)
	return b.String()
}

// indentJSON shows an example as a reader reads it: the tool spec (or the
// fleet of them) as written in the rule's text, one tool to a line, so that
// an escape stays an escape and a hidden character is seen.
func indentJSON(t *testing.T, example string, fleet bool) string {
	doc := example
	if !fleet {
		doc = `{"tools":[` + example + `]}`
	}
	if !json.Valid([]byte(doc)) {
		t.Fatalf("example %s is not JSON", example)
	}
	if len(doc) > 600 {
		doc = doc[:600] + " ... (cut here: " + fmt.Sprint(len(doc)) + " characters in all)"
	}
	return strings.ReplaceAll(strings.ReplaceAll(doc, `},{"name"`, "},\n  {\"name\""), `{"tools":[{`, "{\"tools\":[\n  {")
}

// The rule index page lists every rule with its examples, as the table says.
func TestRuleIndexPage(t *testing.T) {
	raw, err := os.ReadFile(filepath.FromSlash(indexPage))
	if err != nil {
		t.Fatal(err)
	}
	page := string(raw)
	i, j := strings.Index(page, rulesBegin), strings.Index(page, rulesEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no rules section between its markers", indexPage)
	}
	want := renderRules(t)
	if got := page[i : j+len(rulesEnd)]; got != want {
		if *update {
			if err := os.WriteFile(filepath.FromSlash(indexPage), []byte(page[:i]+want+page[j+len(rulesEnd):]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("the rules section of %s is not the table's: run go test ./internal/tooltext -run TestRuleIndexPage -update", indexPage)
	}
	for _, r := range Rules {
		if !strings.Contains(page, "#### `"+r.ID+"`") {
			t.Errorf("rule %s is not on the page", r.ID)
		}
	}
}
