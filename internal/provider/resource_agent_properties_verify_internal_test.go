package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsondoc"
)

// The verify error stays bounded whatever App Hub holds: at most
// maxListedChanges fields, each value cut to maxShownValue bytes.
func TestCheckHeldIsBounded(t *testing.T) {
	var declared, held strings.Builder
	declared.WriteString(`{"skills":[`)
	held.WriteString(`{"skills":[`)
	for i := range 50 {
		if i > 0 {
			declared.WriteString(",")
			held.WriteString(",")
		}
		declared.WriteString(`{"id":"a"}`)
		held.WriteString(`{"id":"` + strings.Repeat("é", 200) + `"}`)
	}
	declared.WriteString("]}")
	held.WriteString("]}")
	plan := &agentPropertiesModel{Properties: jsondoc.NewValue(declared.String())}
	var diags diag.Diagnostics
	if checkHeld(plan, []byte(held.String()), heldCheck{differs: "differs", missing: "missing", advice: "advice"}, &diags) {
		t.Fatal("different documents passed")
	}
	detail := diags.Errors()[0].Detail()
	if n := strings.Count(detail, "declared "); n != maxListedChanges {
		t.Errorf("%d fields listed, want %d", n, maxListedChanges)
	}
	if !strings.Contains(detail, "(the first 20 differences; there are more)") || !strings.Contains(detail, "... (402 bytes)") {
		t.Errorf("detail does not say it was cut:\n%s", detail)
	}
	if len(detail) > 6000 {
		t.Errorf("detail is %d bytes", len(detail))
	}
}
