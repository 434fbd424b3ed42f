package provider

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

// card101 is an A2A 1.0 card with every member A2A 1.0.1 requires.
const card101 = `{"name":"Invoice Helper","description":"Answers questions about invoices.","version":"2.1.0",` +
	`"supportedInterfaces":[{"url":"https://agents.example.com/invoices/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],` +
	`"capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],` +
	`"skills":[{"id":"lookup-invoice","name":"Look up an invoice","description":"Finds an invoice.","tags":["billing"]}]}`

// An A2A 1.0.1 agent that serves its card only as application/a2a+json, the
// media type its HTTP binding prefers (406 to a request that does not accept
// it), is read through the CLI, and its card judged as A2A 1.0.
func TestAccAgentCardDataSource_a2aJSON(t *testing.T) {
	agent := livedoctest.Serve(t, map[string]http.HandlerFunc{"/.well-known/agent-card.json": func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept"), "application/a2a+json") {
			http.Error(w, "application/a2a+json only", http.StatusNotAcceptable)
			return
		}
		w.Header().Set("Content-Type", "application/a2a+json")
		_, _ = fmt.Fprint(w, card101)
	}})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: cardDS("a2a", fmt.Sprintf("url = %q", agent.URL)),
			ConfigStateChecks: []statecheck.StateCheck{
				dsValue("a2a", "a2a_version", knownvalue.StringExact("1.0")),
				dsValue("a2a", "skill_ids", resStrings("lookup-invoice")),
				dsValue("a2a", "url_fetched", knownvalue.StringExact(agent.URL+"/.well-known/agent-card.json")),
			},
		}},
	})
}
