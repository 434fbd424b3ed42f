package tooltext

import (
	"encoding/json"
	"strings"
	"testing"
)

// fired runs a rule's example or clean text (a tool, or a fleet) and
// reports whether the rule fired, with the findings for the failure message.
func fired(t *testing.T, r Rule, doc string) (bool, string) {
	t.Helper()
	var all []Finding
	if r.Fleet {
		var specs map[string]json.RawMessage
		if err := json.Unmarshal([]byte(doc), &specs); err != nil {
			t.Fatalf("%s: the fleet example is not JSON: %v", r.ID, err)
		}
		raw := map[string][]byte{}
		for id, s := range specs {
			raw[id] = s
		}
		fs, err := AnalyzeFleet(raw)
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		for _, f := range fs {
			all = append(all, f.Finding)
		}
	} else {
		spec := []byte(`{"tools":[` + doc + `]}`)
		fs, err := Analyze(spec)
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		checkPointers(t, r.ID, spec, fs)
		all = fs
	}
	var b strings.Builder
	hit := false
	for _, f := range all {
		b.WriteString("\n  " + f.Rule + " " + f.Pointer + ": " + f.Message)
		hit = hit || f.Rule == r.ID
	}
	return hit, b.String()
}

// Each rule fires on its example and not on its clean text: the examples the
// rule index page shows are tested here.
func TestRules_examples(t *testing.T) {
	for _, r := range Rules {
		t.Run(r.ID, func(t *testing.T) {
			if hit, got := fired(t, r, r.Example); !hit {
				t.Errorf("the example does not fire %s; findings:%s", r.ID, got)
			}
			if hit, got := fired(t, r, r.Clean); hit {
				t.Errorf("the clean text fires %s; findings:%s", r.ID, got)
			}
		})
	}
}

// Every rule is complete: an id, a known family, a severity, a title, a
// rationale, a source; ids are unique; every phrase rule is a rule.
func TestRules_table(t *testing.T) {
	families := map[string]bool{}
	for _, f := range Families {
		families[f] = true
	}
	seen := map[string]bool{}
	for _, r := range Rules {
		if r.ID == "" || !families[r.Family] || r.Severity < Low || r.Severity > High || r.Title == "" ||
			r.Rationale == "" || r.Source == "" || r.Example == "" || r.Clean == "" {
			t.Errorf("rule %q is incomplete: %+v", r.ID, r)
		}
		if seen[r.ID] {
			t.Errorf("rule %q is listed twice", r.ID)
		}
		seen[r.ID] = true
	}
	for id := range phraseTable {
		if !seen[id] {
			t.Errorf("the phrase table names %q, which is no rule", id)
		}
	}
	for _, f := range Families {
		n := 0
		for _, r := range Rules {
			if r.Family == f {
				n++
			}
		}
		if n == 0 {
			t.Errorf("family %s has no rule", f)
		}
	}
}

func TestPhrasePatternsParse(t *testing.T) {
	for rule, texts := range phraseTable {
		for _, text := range texts {
			if _, err := parsePattern(rule, text); err != nil {
				t.Error(err)
			}
		}
	}
	for _, bad := range []string{"", "x? y", "*2 y", "pre~ y", "a *9 b", "a *x b"} {
		if _, err := parsePattern("r", bad); err == nil {
			t.Errorf("parsePattern(%q) accepted a bad pattern", bad)
		}
	}
}
