package tooltext

import "testing"

func TestCorpus_dev(t *testing.T) {
	p := scoreCorpus(t, "poisoned/dev")
	b := scoreCorpus(t, "benign/dev")
	t.Logf("poisoned/dev: %d of %d lists detected (medium or high); missed %v", p.detected, p.lists, p.missed)
	t.Logf("benign/dev: %d lists, with a high finding: %v; findings by severity %v", b.lists, b.highs, b.bySeverity)
}
