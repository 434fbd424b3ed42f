package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/registryservertest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// Errors a user can act on say what to do.

const errSearchConfig = `
data "agentregistry_agents" "all" {
  query = "currency"
}
`

func TestAccErrors_refusedCredentialsNameTheToken(t *testing.T) {
	_, ts := registryservertest.Start(t, registryserver.Options{Token: "the-right-token"})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "agentregistry" {
  endpoint     = "` + ts.URL + `"
  project      = "test-project"
  access_token = "a-wrong-token"
}
` + errSearchConfig,
			ExpectError: relWords("401", "refused the credentials", "access_token", "AGENTREGISTRY_ACCESS_TOKEN"),
		}},
	})
}

func TestAccErrors_unreachableRegistrySaysWhatToStart(t *testing.T) {
	// Port 1 (tcpmux) on loopback: nothing listens there, and unlike a port
	// taken and freed, no other test's server can take it meanwhile.
	const endpoint = "http://127.0.0.1:1"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:      testkit.ProviderConfig(endpoint) + errSearchConfig,
			ExpectError: relWords("connection refused", "Nothing answered", "endpoint", "AGENTREGISTRY_ENDPOINT", "agentregistry-server"),
		}},
	})
}
