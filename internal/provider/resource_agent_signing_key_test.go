package provider

// agentregistry_agent signs its card with a write-only key (signing_key_wo):
// the registry's card verifies with the public key in an implementation other
// than ours (lestrrat-go/jwx for the JWS, gowebpki/jcs for the RFC 8785 form),
// the key is in neither the plan nor the state, plans stay empty after apply,
// a new signing_key_wo_version re-signs in place, and a bad key is an error at
// plan that names the attribute.

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"
	"github.com/gowebpki/jcs"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jws"
)

// woKey is a signing key of these tests, with its private JWK.
type woKey struct {
	kid  string
	key  *ecdsa.PrivateKey
	jwk  string // the private JWK
	priv string // its private part ("d"), which must appear nowhere
}

func newWOKey(t *testing.T, kid string) woKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(jose.JSONWebKey{Key: k, KeyID: kid})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return woKey{kid: kid, key: k, jwk: string(raw), priv: as[string](t, m["d"])}
}

// woPublicJWKS is the provider's trusted_keys: the keys' public halves.
func woPublicJWKS(t *testing.T, keys ...woKey) string {
	t.Helper()
	var set jose.JSONWebKeySet
	for _, k := range keys {
		set.Keys = append(set.Keys, jose.JSONWebKey{Key: &k.key.PublicKey, KeyID: k.kid})
	}
	raw, err := json.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

const woCard = `{"protocolVersion": "0.3.0", "name": "Signed Agent", "description": "Signs its card.", "version": "1.0.0",
  "url": "https://agents.example.com/signed", "capabilities": {}, "defaultInputModes": ["text/plain"],
  "defaultOutputModes": ["text/plain"], "skills": [{"id": "sign", "name": "Sign", "description": "Signs.", "tags": ["crypto"]}]}`

// woConfig: the key comes from an ephemeral variable (kept out of plan files
// too), the card is unsigned, and the provider requires a trusted signature.
func woConfig(r *testRegistry, jwks string, version int) string {
	return fmt.Sprintf(`
variable "signing_key" {
  type      = string
  sensitive = true
  ephemeral = true
}
provider "agentregistry" {
  endpoint         = %q
  project          = "test-project"
  trusted_keys     = %q
  signature_policy = "require"
}
resource "agentregistry_agent" "signed" {
  service_id             = "wo-agent"
  agent_card             = jsonencode(jsondecode(%s))
  signing_key_wo         = var.signing_key
  signing_key_wo_version = %d
}
`, r.URL, jwks, hclString(woCard), version)
}

// woCardEncoded is woCard as jsonencode(jsondecode(...)) writes it: keys
// sorted, no spaces (Go's encoding of a map, for this card).
func woCardEncoded(t *testing.T) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(woCard), &m); err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func TestAccAgentResource_signingKeyWriteOnly(t *testing.T) {
	r := startRegistry(t)
	const addr = "agentregistry_agent.signed"
	k1, k2 := newWOKey(t, "signer-1"), newWOKey(t, "signer-2")
	jwks := woPublicJWKS(t, k1, k2)
	with := func(k woKey) config.Variables { return config.Variables{"signing_key": config.StringVariable(k.jwk)} }
	secrets := []string{k1.priv, k2.priv}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		TerraformVersionChecks:   requires(capWriteOnly),
		Steps: []resource.TestStep{
			{ // create: the signer is known at plan, and require is met by the card as signed
				Config: woConfig(r, jwks, 1), ConfigVariables: with(k1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("verified_key_ids"), resStrings("signer-1")),
					noSecretInPlan{secrets},
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("verified_key_ids"), resStrings("signer-1")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("signing_key_wo"), knownvalue.Null()),
					// the card as written (jsonencode's form), without the signature
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("agent_card"), knownvalue.StringExact(woCardEncoded(t))),
					noSecretInState{secrets},
					registryCardSignedBy{r, "wo-agent", []woKey{k1}},
				},
			},
			{ // nothing changes: the registry's signed copy is no drift
				Config: woConfig(r, jwks, 1), ConfigVariables: with(k1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{ // rotation: a new version re-signs with the new key, in place
				PreConfig: r.srv.ResetRequests,
				Config:    woConfig(r, jwks, 2), ConfigVariables: with(k2),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("verified_key_ids"), resStrings("signer-2")),
					noSecretInPlan{secrets},
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					patchMaskCheck{r, []string{"agentSpec.content"}},
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("verified_key_ids"), resStrings("signer-2")),
					noSecretInState{secrets},
					registryCardSignedBy{r, "wo-agent", []woKey{k2}},
				},
			},
		},
	})
}

// A key that cannot sign is an error at plan on signing_key_wo, and nothing
// is sent.
func TestAccAgentResource_signingKeyWriteOnlyRefusesBadKeys(t *testing.T) {
	r := startRegistry(t)
	k := newWOKey(t, "signer-1")
	jwks := woPublicJWKS(t, k)
	var public map[string]any
	_ = json.Unmarshal([]byte(k.jwk), &public)
	delete(public, "d")
	publicJWK, _ := json.Marshal(public)
	withAlg := func(alg string) string {
		var m map[string]any
		_ = json.Unmarshal([]byte(k.jwk), &m)
		m["alg"] = alg
		raw, _ := json.Marshal(m)
		return string(raw)
	}
	var steps []resource.TestStep
	for _, c := range []struct{ key, want string }{
		{string(publicJWK), "is a public key"},
		{withAlg("none"), `says "alg": "none"`},
		{`{"kty":"oct","k":"c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0","kid":"h"}`, `symmetric \("oct"\) key`},
		{"-----BEGIN PRIVATE KEY-----\nnot a JWK\n-----END PRIVATE KEY-----", "the key is neither PEM"},
	} {
		steps = append(steps, resource.TestStep{
			Config: woConfig(r, jwks, 1), ConfigVariables: config.Variables{"signing_key": config.StringVariable(c.key)},
			ExpectError: regexp.MustCompile(`(?s)Invalid Signing Key.*signing_key_wo cannot sign agent cards: .*` + c.want),
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		TerraformVersionChecks:   requires(capWriteOnly),
		CheckDestroy:             func(*terraform.State) error { return nil },
		Steps:                    steps,
	})
	r.expectNoWrites(t)
}

// On a CLI without write-only attributes, the key is refused with the
// versions that have them and the way out.
func TestAccAgentResource_signingKeyWriteOnlyNeedsANewerCLI(t *testing.T) {
	r := startRegistry(t)
	k := newWOKey(t, "signer-1")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		TerraformVersionChecks:   lacks(capWriteOnly),
		Steps: []resource.TestStep{{
			Config: r.config(sigAgent("signed", "wo-agent", "jsonencode(jsondecode("+hclString(woCard)+"))",
				"signing_key_wo = "+hclString(k.jwk)+"\n  signing_key_wo_version = 1")),
			ExpectError: regexp.MustCompile(`(?s)Write-Only Attribute Needs a Newer CLI.*Terraform 1.11 or later, or OpenTofu.*1.11.*sign_agent_card`),
		}},
	})
	r.expectNoWrites(t)
}

// noSecretInPlan fails when a secret appears anywhere in the plan
// (`show -json` of the saved plan).
type noSecretInPlan struct{ secrets []string }

func (c noSecretInPlan) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	raw, err := json.Marshal(req.Plan)
	if err != nil {
		resp.Error = err
		return
	}
	for _, s := range c.secrets {
		if strings.Contains(string(raw), s) {
			resp.Error = fmt.Errorf("the plan holds the private key")
		}
	}
}

// noSecretInState fails when a secret appears anywhere in the state.
type noSecretInState struct{ secrets []string }

func (c noSecretInState) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	raw, err := json.Marshal(req.State)
	if err != nil {
		resp.Error = err
		return
	}
	for _, s := range c.secrets {
		if strings.Contains(string(raw), s) {
			resp.Error = fmt.Errorf("the state holds the private key")
		}
	}
}

// registryCardSignedBy checks the card the registry holds: its signatures
// are exactly by these keys, and each verifies with the key's public half in
// an implementation other than ours, over the card's RFC 8785 form without
// its signatures.
type registryCardSignedBy struct {
	r         *testRegistry
	serviceID string
	keys      []woKey
}

func (c registryCardSignedBy) CheckState(ctx context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	svc, err := c.r.client.GetService(ctx, testParent+"/services/"+c.serviceID)
	if err != nil {
		resp.Error = err
		return
	}
	var card map[string]json.RawMessage
	if err := json.Unmarshal(svc.AgentSpec.Content, &card); err != nil {
		resp.Error = err
		return
	}
	var sigs []struct{ Protected, Signature string }
	if err := json.Unmarshal(card["signatures"], &sigs); err != nil || len(sigs) != len(c.keys) {
		resp.Error = fmt.Errorf("the registry's card has signatures %s, want %d", card["signatures"], len(c.keys))
		return
	}
	delete(card, "signatures")
	unsigned, _ := json.Marshal(card)
	payload, err := jcs.Transform(unsigned)
	if err != nil {
		resp.Error = err
		return
	}
	for i, k := range c.keys {
		compact := sigs[i].Protected + ".." + sigs[i].Signature
		if _, err := jws.Verify([]byte(compact), jws.WithKey(jwa.ES256(), crypto.PublicKey(&k.key.PublicKey)),
			jws.WithDetachedPayload(payload)); err != nil {
			resp.Error = fmt.Errorf("signature %d does not verify with %s's public key (jwx): %v", i, k.kid, err)
		}
	}
}
