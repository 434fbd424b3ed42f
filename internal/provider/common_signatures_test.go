package provider

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/cardsig"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsondoc"
)

const unsignedCard = `{"name":"a","description":"d","version":"1","url":"https://a.example.com","protocolVersion":"0.3.0","skills":[]}`

// The signature gate fails closed: a policy it does not know is an error,
// and never an empty list of verified keys that would let the card through.
func TestVerifyCardSignatures_unknownPolicyFailsClosed(t *testing.T) {
	for _, policy := range []string{"", "requier", "OFF"} {
		var diags diag.Diagnostics
		s := signatureSettings{policy: cardsig.Policy(policy), errsReported: new(atomic.Bool)}
		kids := verifyCardSignatures(s, canonicalize([]byte(unsignedCard)), types.StringNull(), "resource", path.Root("agent_card"), &diags)
		if !diags.HasError() || !kids.IsNull() {
			t.Errorf("policy %q: verified %v with diagnostics %v; want an error and no verified keys", policy, kids, diags)
		}
	}
}

// A setting from the environment that is wrong fails every check that needs
// it, and is reported by the first of them only: one error for a run.
func TestVerifyCardSignatures_settingErrorReportedOnce(t *testing.T) {
	t.Setenv("AGENTREGISTRY_SIGNATURE_POLICY", "requier")
	s := resolveSignatureSettings(providerModel{})
	var first, second diag.Diagnostics
	k1 := verifyCardSignatures(s, canonicalize([]byte(unsignedCard)), types.StringNull(), "resource", path.Root("agent_card"), &first)
	k2 := verifyCardSignatures(s, canonicalize([]byte(unsignedCard)), types.StringNull(), "resource", path.Root("agent_card"), &second)
	if first.ErrorsCount() != 1 || !strings.Contains(first.Errors()[0].Summary(), "Invalid Signature Policy") {
		t.Errorf("first check: %v; want the Invalid Signature Policy error", first)
	}
	if second.HasError() {
		t.Errorf("second check repeats the error: %v", second)
	}
	if !k1.IsNull() || !k2.IsNull() {
		t.Errorf("a check that cannot decide verified %v and %v; want no verified keys", k1, k2)
	}
}

// Without the provider's data (a configuration with errors) the agent's
// check cannot decide: its verified keys stay unknown, never the result of a
// check under zero settings.
func TestVerifyAgentSignatures_withoutProviderData(t *testing.T) {
	m := &agentModel{AgentCard: jsondoc.NewValue(unsignedCard), SignaturePolicy: types.StringNull()}
	var diags diag.Diagnostics
	agentCardPolicy{}.verify(nil, m, outgoing{}, false, &diags)
	if !m.VerifiedKeyIDs.IsUnknown() {
		t.Errorf("verified_key_ids = %v, want unknown", m.VerifiedKeyIDs)
	}
	for _, d := range diags {
		if strings.Contains(d.Detail(), "signature policy") {
			t.Errorf("a check under zero settings was reported: %s: %s", d.Summary(), d.Detail())
		}
	}
}
