//go:build unix

package provider

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/go-jose/go-jose/v4"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

const (
	cardReaderID     = "registry-reader"
	cardReaderSecret = "registry-reader-secret-0123"
)

// ec1JWK is the test key ec-1 as the private JWK the A2A SDK signs with.
func ec1JWK(t *testing.T) string {
	t.Helper()
	b, err := json.Marshal(jose.JSONWebKey{Key: sigKeys()["ec-1"].signer, KeyID: "ec-1", Algorithm: "ES256"})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// cardAgent is an agent of the A2A JS SDK whose card names an authorization
// server that issues the reader a token the agent takes; its cards are
// signed with ec-1 (and changed after, with tamper).
func cardAgent(t *testing.T, mode livedoctest.A2AMode, tamper bool) *livedoctest.A2AAgent {
	t.Helper()
	as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: cardReaderID, Secret: cardReaderSecret,
		Methods: []string{livedoctest.SecretBasic}, Token: "at-card-reader-token-0123"})
	return livedoctest.ServeA2AAgentWith(t, livedoctest.A2AOptions{Mode: mode, AuthServer: as, SigningKey: ec1JWK(t), Tamper: tamper})
}

// cardReaderProvider is a provider block for the registry at endpoint that
// trusts ec-1 and requires signatures, with the reader as an OAuth client
// whose secret comes from a sensitive variable.
func cardReaderProvider(t *testing.T, endpoint string) string {
	t.Helper()
	t.Setenv("TF_VAR_reader_secret", cardReaderSecret)
	return fmt.Sprintf(`
variable "reader_secret" {
  type      = string
  sensitive = true
}

provider "agentregistry" {
  endpoint         = %q
  project          = "test-project"
  trusted_keys     = %q
  signature_policy = "require"
  mcp_oauth_clients = {
    reader = { client_id = %q, client_secret = var.reader_secret }
  }
}
`, endpoint, sigJWKS(t, false), cardReaderID)
}

// An agent's extended card, behind the token of the authorization server
// its card names and signed by the A2A SDK, is read with the provider's
// client, verified, and registered: the agent has the skill the public card
// does not show.
func TestAccAgentCardDataSource_extendedCardRegistered(t *testing.T) {
	r := startRegistry(t)
	agent := cardAgent(t, livedoctest.A2AExtendedCard, false)
	config := cardReaderProvider(t, r.URL) + fmt.Sprintf(`
data "agentregistry_agent_card" "ledger" {
  url          = %q
  extended     = true
  oauth_client = "reader"
}

resource "agentregistry_agent" "ledger" {
  service_id = "ledger-agent"
  agent_card = data.agentregistry_agent_card.ledger.json
}
`, agent.URL)
	resource.Test(t, resource.TestCase{ // not parallel: it sets the environment
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue("agentregistry_agent.ledger", tfjsonpath.New("skill_ids"), resStrings("balance", "reconcile")),
				plancheck.ExpectKnownValue("agentregistry_agent.ledger", tfjsonpath.New("verified_key_ids"), resStrings("ec-1")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				dsValue("ledger", "url_fetched", knownvalue.StringExact(agent.RESTURL+"/extendedAgentCard")),
				dsValue("ledger", "verified_key_ids", resStrings("ec-1")),
				dsValue("ledger", "oauth_client", knownvalue.StringExact("reader")),
				statecheck.ExpectKnownValue("agentregistry_agent.ledger", tfjsonpath.New("skill_ids"), resStrings("balance", "reconcile")),
			},
		}},
	})
}

// Each reason an extended card is not registered fails the plan by name: a
// signature that does not verify, no extended card declared, none
// configured, an OAuth client without extended.
func TestAccAgentCardDataSource_extendedCardRefusals(t *testing.T) {
	r := startRegistry(t)
	tampered := cardAgent(t, livedoctest.A2AExtendedCard, true)
	undeclared := cardAgent(t, livedoctest.A2AUndeclared, false)
	unconfigured := cardAgent(t, livedoctest.A2AUnconfigured, false)
	provider := cardReaderProvider(t, r.URL)
	step := func(body string, want ...string) resource.TestStep {
		return resource.TestStep{Config: provider + cardDS("x", body), ExpectError: relWords(want...)}
	}
	extended := func(url string) string {
		return fmt.Sprintf("url = %q\nextended = true\noauth_client = \"reader\"", url)
	}
	resource.Test(t, resource.TestCase{ // not parallel: it sets the environment
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			step(extended(tampered.URL), "Agent Card Signature Not Verified", `signature 1 (kid "ec-1", alg ES256): bad signature`),
			step(extended(undeclared.URL), "Cannot Read Agent Card", "declares no extended card (capabilities.extendedAgentCard is false or absent"),
			step(extended(unconfigured.URL), "Cannot Read Agent Card", "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
				"the agent declares an extended card but has none configured"),
			step(fmt.Sprintf("url = %q\noauth_client = \"reader\"", tampered.URL), "OAuth Needs the Extended Card",
				"oauth_client is set but extended is not true"),
			step(fmt.Sprintf("url = %q\nextended = true\noauth_client = \"reader\"\nheaders = { Authorization = \"Bearer x\" }", tampered.URL),
				"Conflicting Authorization"),
		},
	})
}
