package tooltext

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// corpusFiles lists the tool lists of one part of testdata/corpus
// ("poisoned/dev", "benign/heldout"...), by file name.
func corpusFiles(t *testing.T, part string) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "corpus", part, "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus at %s: %v", part, err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	return out
}

// worst is the highest severity among findings, 0 for none.
func worst(fs []Finding) Severity {
	var w Severity
	for _, f := range fs {
		w = max(w, f.Severity)
	}
	return w
}

// corpusScore runs every rule over one part of the corpus: for poisoned
// lists, how many have a medium or high finding; for benign ones, which have
// a high finding, and how many findings of each severity there are.
type corpusScore struct {
	lists, detected int
	missed, highs   []string
	bySeverity      map[Severity]int
}

func scoreCorpus(t *testing.T, part string) corpusScore {
	t.Helper()
	s := corpusScore{bySeverity: map[Severity]int{}}
	files := corpusFiles(t, part)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fs, err := Analyze(files[n])
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		checkPointers(t, n, files[n], fs)
		s.lists++
		for _, f := range fs {
			s.bySeverity[f.Severity]++
			if testing.Verbose() && (strings.HasPrefix(part, "benign") && f.Severity >= Medium) {
				t.Logf("%s: %s %s %s %s: %s", n, f.Severity, f.Rule, f.Tool, f.Pointer, f.Message)
			}
		}
		switch w := worst(fs); {
		case w >= Medium:
			s.detected++
		default:
			s.missed = append(s.missed, n)
		}
		if worst(fs) == High {
			s.highs = append(s.highs, n)
		}
	}
	return s
}

// checkPointers resolves every finding's pointer in the document.
func checkPointers(t *testing.T, name string, doc []byte, fs []Finding) {
	t.Helper()
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if _, ok := resolvePointer(v, f.Pointer); !ok {
			t.Errorf("%s: finding %s at %q: the pointer does not resolve", name, f.Rule, f.Pointer)
		}
	}
}

// minRecall is the share of poisoned lists that must have a medium or high
// finding.
const minRecall = 0.9

func checkScores(t *testing.T, set string) {
	p := scoreCorpus(t, "poisoned/"+set)
	b := scoreCorpus(t, "benign/"+set)
	recall := float64(p.detected) / float64(p.lists)
	t.Logf("%s: poisoned lists found (medium or high): %d of %d (recall %.2f), missed %v", set, p.detected, p.lists, recall, p.missed)
	t.Logf("%s: benign lists with a high finding: %d of %d %v; their findings by severity: high %d, medium %d, low %d",
		set, len(b.highs), b.lists, b.highs, b.bySeverity[High], b.bySeverity[Medium], b.bySeverity[Low])
	if recall < minRecall {
		t.Errorf("%s: recall %.2f, below %.2f", set, recall, minRecall)
	}
	if len(b.highs) > 0 {
		t.Errorf("%s: high findings on benign lists %v", set, b.highs)
	}
}

// The development corpus: what the rules were written against.
func TestCorpus_dev(t *testing.T) { checkScores(t, "dev") }

// The held-out corpus (other sources, set aside before any rule was
// written and never tuned on): the figures that say how the rules do on
// material they were not written for.
func TestCorpus_heldOut(t *testing.T) { checkScores(t, "heldout") }
