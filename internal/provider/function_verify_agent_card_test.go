package provider

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

func verifyCall(cardExpr, jwksExpr string) string {
	return fmt.Sprintf("provider::agentregistry::verify_agent_card(%s, %s)", cardExpr, jwksExpr)
}

func TestAccFunction_verifyAgentCard(t *testing.T) {
	jwks := fmt.Sprintf("%q", sigJWKS(t, false))
	fixtureJWKS := fmt.Sprintf("file(%q)", sigFixturePath(t, "independent-jwks.json"))
	// The fixture in ASCII (\u escapes), so that Terraform's NFC
	// normalisation of strings leaves its U+FB33 alone.
	fixture := fmt.Sprintf("%q", terraformSafe(readSigFixture(t, "independent-signed-card.json")))
	signed := signWith(t, liveCardCanonical, "ec-1", "rsa-1")
	step := func(cardExpr, jwksExpr string, want ...string) resource.TestStep {
		return resource.TestStep{
			Config:      fmt.Sprintf("output \"kids\" {\n  value = %s\n}\n", verifyCall(cardExpr, jwksExpr)),
			ExpectError: relWords(want...),
		}
	}
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capFunctions),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: fmt.Sprintf(`
output "independent" {
  value = %s
}
output "ours" {
  value = %s
}
output "unsigned" {
  value = %s
}
`, verifyCall(fixture, fixtureJWKS), verifyCall(fmt.Sprintf("%q", signed), jwks), verifyCall(fmt.Sprintf("%q", liveCardCanonical), jwks)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("independent",
						resStrings("independent-es256", "independent-es384", "independent-ed25519", "independent-ps256")),
					statecheck.ExpectKnownOutputValue("ours", resStrings("ec-1", "rsa-1")),
					statecheck.ExpectKnownOutputValue("unsigned", knownvalue.ListSizeExact(0)),
				},
			},
			step(fmt.Sprintf("%q", flipSignatureByte(t, signed, 0)), jwks,
				"Agent card signature not verified", `signature 1 (kid "ec-1", alg ES256): bad signature`),
			step(fmt.Sprintf("%q", signWith(t, liveCardCanonical, "ed-1=ec-1")), jwks,
				`signature 1 (kid "ec-1", alg EdDSA): wrong key type: EdDSA needs an Ed25519 key, the trusted key is an EC P-256 key`),
			step(fmt.Sprintf("%q", withHandMadeSignature(t, map[string]any{"alg": "none", "kid": "ec-1"}, "")), jwks,
				`(kid "ec-1", alg none): alg not allowed`),
			step(fmt.Sprintf("%q", signed), `"{\"keys\":[{\"kty\":\"oct\",\"k\":\"c2VjcmV0\",\"kid\":\"shared\"}]}"`,
				"Invalid JWKS", `key 1 (kid "shared") is not a public key`),
			// file() hands the function Terraform's NFC form of the fixture:
			// U+FB33 becomes U+05D3 U+05BC and no signature matches any more.
			// This is why the live data sources and sign_agent_card escape
			// text that is not NFC.
			step(fmt.Sprintf("file(%q)", sigFixturePath(t, "independent-signed-card.json")), fixtureJWKS,
				`signature 1 (kid "independent-es256", alg ES256): bad signature`),
			// Bounded before anything is parsed: a 1 MB card with 3,500 bogus
			// signatures cost 86 s of CPU when it was parsed first.
			step(`join("", [for i in range(525) : "${replace(format("%2000s", ""), " ", "x")}"])`, jwks,
				"Agent card too large: the card is 1050000 bytes; the limit is 1048576 (1 MiB)."),
			step(fmt.Sprintf("%q", signed), `join("", [for i in range(525) : "${replace(format("%2000s", ""), " ", "x")}"])`,
				"JWKS too large: the JWKS is 1050000 bytes; the limit is 1048576 (1 MiB)."),
			step(fmt.Sprintf("%q", withSignatureCopies(t, signed, 17)), jwks, "the agent card has 17 signatures; the limit is 16"),
		},
	})
}

// withSignatureCopies is the signed card with its first signature repeated n times.
func withSignatureCopies(t *testing.T, signed string, n int) string {
	t.Helper()
	var c map[string]any
	if err := json.Unmarshal([]byte(signed), &c); err != nil {
		t.Fatal(err)
	}
	sigs := as[[]any](t, c["signatures"])
	copies := make([]any, n)
	for i := range copies {
		copies[i] = sigs[0]
	}
	c["signatures"] = copies
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
