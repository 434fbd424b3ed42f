package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/cardsig"
)

// signConfig signs the card with two sensitive keys, as a module would.
const signConfig = `
variable "card" {
  type = string
}
variable "ec_key" {
  type      = string
  sensitive = true
}
variable "ed_key" {
  type      = string
  sensitive = true
}
variable "jwks" {
  type = string
}
locals {
  signed = provider::agentregistry::sign_agent_card(var.card, var.ec_key, "ec-1")
  both   = provider::agentregistry::sign_agent_card(local.signed, var.ed_key, "ed-1")
}
# The result carries the key's sensitive mark; the signed card holds no secret.
output "signed" {
  value = nonsensitive(local.signed)
}
output "kids" {
  value = provider::agentregistry::verify_agent_card(nonsensitive(local.both), var.jwks)
}
resource "terraform_data" "marked" {
  input = local.signed
}
`

func TestAccFunction_signAgentCard(t *testing.T) {
	vars := func(ecKey string) config.Variables {
		return config.Variables{
			"card":   config.StringVariable(liveCardBody),
			"ec_key": config.StringVariable(ecKey),
			"ed_key": config.StringVariable(sigKeys()["ed-1"].pem),
			"jwks":   config.StringVariable(sigJWKS(t, false)),
		}
	}
	// ES256 signing is deterministic (RFC 6979), so Go's result is the function's.
	want, err := cardsig.Sign([]byte(liveCardBody), []byte(sigKeys()["ec-1"].pem), "ec-1")
	if err != nil {
		t.Fatal(err)
	}
	badKey := "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49\n-----END PRIVATE KEY-----\n"
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capFunctions),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:          signConfig,
				ConfigVariables: vars(sigKeys()["ec-1"].pem),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectSensitiveValue("terraform_data.marked", tfjsonpath.New("input")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("signed", knownvalue.StringExact(string(want))),
					statecheck.ExpectKnownOutputValue("kids", resStrings("ec-1", "ed-1")),
				},
			},
			{
				Config:          signConfig,
				ConfigVariables: vars(badKey),
				ExpectError:     relWords("Cannot sign the agent card", "the PRIVATE KEY PEM block cannot be read"),
			},
			{
				Config:          signConfig,
				ConfigVariables: vars("not a key"),
				ExpectError:     relWords("Cannot sign the agent card", "the key is neither PEM"),
			},
		},
	})
}

// runSign calls the function as the framework would, without a CLI, to read
// its error in full.
func runSign(t *testing.T, card, keyPEM, kid string) (string, *function.FuncError) {
	t.Helper()
	resp := &function.RunResponse{Result: function.NewResultData(types.StringUnknown())}
	NewSignAgentCardFunction().Run(context.Background(), function.RunRequest{
		Arguments: function.NewArgumentsData([]attr.Value{types.StringValue(card), types.StringValue(keyPEM), types.StringValue(kid)}),
	}, resp)
	out, _ := resp.Result.Value().(types.String)
	return out.ValueString(), resp.Error
}

func TestSignAgentCardFunction_errorsNeverShowTheKey(t *testing.T) {
	const keyBytes = "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49"
	for _, key := range []string{
		keyBytes,
		"-----BEGIN PRIVATE KEY-----\n" + keyBytes + "\n-----END PRIVATE KEY-----\n",
		"-----BEGIN EC PRIVATE KEY-----\n" + keyBytes + "\n-----END EC PRIVATE KEY-----\n",
	} {
		_, ferr := runSign(t, liveCardBody, key, "k")
		if ferr == nil {
			t.Fatalf("a broken key signed")
		}
		if strings.Contains(ferr.Error(), "MIGH") {
			t.Errorf("the error shows key material: %s", ferr)
		}
	}
	// An empty kid is the key's RFC 7638 thumbprint, the kid public_jwks gives it.
	out, ferr := runSign(t, liveCardBody, sigKeys()["ec-1"].pem, "")
	if ferr != nil {
		t.Fatalf("empty kid: %v", ferr)
	}
	jwks, err := cardsig.PublicJWKS([]byte(sigKeys()["ec-1"].pem))
	if err != nil {
		t.Fatal(err)
	}
	if kids, err := cardsig.Verify([]byte(out), jwks, cardsig.PolicyRequire); err != nil || len(kids) != 1 || len(kids[0]) != 43 {
		t.Errorf("empty kid: Verify = %v, %v; want the 43-character thumbprint", kids, err)
	}
}

func TestSignAgentCardFunction_keepsNonNFCTextAsEscapes(t *testing.T) {
	// "e" + U+0301 is the decomposed é: Terraform would store it as U+00E9.
	card := strings.Replace(liveCardBody, `"Weather Agent"`, "\"Me\u0301te\u0301o \U0001F600\"", 1)
	out, ferr := runSign(t, card, sigKeys()["ed-1"].pem, "ed-1")
	if ferr != nil {
		t.Fatal(ferr)
	}
	if !strings.Contains(out, `"name":"Me\u0301te\u0301o \ud83d\ude00"`) {
		t.Errorf("the name is not escaped: %s", out)
	}
	kids, err := cardsig.Verify([]byte(out), []byte(sigJWKS(t, false)), cardsig.PolicyRequire)
	if err != nil || fmt.Sprint(kids) != "[ed-1]" {
		t.Errorf("Verify = %v, %v", kids, err)
	}
	nfc, ferr := runSign(t, liveCardBody, sigKeys()["ed-1"].pem, "ed-1")
	if ferr != nil || strings.Contains(nfc, `\u`) {
		t.Errorf("an NFC card must stay in plain RFC 8785 form: %s, %v", nfc, ferr)
	}
}
