package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
)

// resCardSkill is one skill of a test card.
func resCardSkill(id, description string, tags ...string) map[string]any {
	return map[string]any{"id": id, "name": strings.ToUpper(id[:1]) + id[1:], "description": description, "tags": tags}
}

// resCard is an A2A 0.3 card with a number field, so that re-encoded numbers are tested.
func resCard(description string, skills ...map[string]any) map[string]any {
	return map[string]any{
		"protocolVersion":    "0.3.0",
		"name":               "Currency Agent",
		"description":        description,
		"version":            "1.0.0",
		"url":                "https://agents.example.com/currency",
		"capabilities":       map[string]any{"streaming": false},
		"defaultInputModes":  []string{"text/plain"},
		"defaultOutputModes": []string{"text/plain"},
		"x-weight":           10,
		"x-serial":           9007199254740993, // 2^53 + 1: no double holds it
		"skills":             skills,
	}
}

// resJSON is the compact JSON of v (keys sorted), which is also a valid HCL expression.
func resJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return strings.TrimSpace(b.String())
}

// resReformatted writes v as indented JSON with object keys in reverse order:
// the same JSON value as resJSON(v), spelled differently.
func resReformatted(v any) string {
	var decoded any
	dec := json.NewDecoder(strings.NewReader(resJSON(v)))
	dec.UseNumber() // numbers as written: a float64 would round 2^53 + 1
	if err := dec.Decode(&decoded); err != nil {
		panic(err)
	}
	var b strings.Builder
	var write func(v any, indent string)
	write = func(v any, indent string) {
		switch t := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Sort(sort.Reverse(sort.StringSlice(keys)))
			b.WriteString("{\n")
			for i, k := range keys {
				fmt.Fprintf(&b, "%s    %q : ", indent, k)
				write(t[k], indent+"    ")
				if i < len(keys)-1 {
					b.WriteString(",")
				}
				b.WriteString("\n")
			}
			b.WriteString(indent + "}")
		case []any:
			b.WriteString("[ ")
			for i, e := range t {
				if i > 0 {
					b.WriteString(", ")
				}
				write(e, indent)
			}
			b.WriteString(" ]")
		default:
			b.WriteString(resJSON(t))
		}
	}
	write(decoded, "")
	return b.String()
}

func resAgentConfig(r *testRegistry, serviceID, displayName, cardExpr string) string {
	return r.config(fmt.Sprintf(`
resource "agentregistry_agent" "test" {
  service_id   = %q
  display_name = %q
  agent_card   = %s
}
`, serviceID, displayName, cardExpr))
}

// resHeredoc embeds a document as a heredoc.
func resHeredoc(doc string) string { return "<<-EOT\n" + doc + "\nEOT" }

// resStrings checks a list of strings, in order.
func resStrings(ss ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, 0, len(ss))
	for _, s := range ss {
		checks = append(checks, knownvalue.StringExact(s))
	}
	return knownvalue.ListExact(checks)
}

// resSetServiceContent changes a service's document behind Terraform's back,
// through the official client.
func resSetServiceContent(t *testing.T, r *testRegistry, name string, mutate func(*agentregistry.Service) []string) {
	t.Helper()
	ctx := context.Background()
	svc, err := r.client.GetService(ctx, name)
	if err != nil {
		t.Fatalf("get %s: %v", name, err)
	}
	mask := mutate(svc)
	if _, err := r.client.UpdateService(ctx, svc, mask); err != nil {
		t.Fatalf("update %s behind Terraform's back: %v", name, err)
	}
}

func resCheckServicesGone(r *testRegistry, names ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for _, n := range names {
			_, err := r.client.GetService(context.Background(), n)
			if !registryclient.IsNotFound(err) {
				return fmt.Errorf("service %s should be gone after destroy, got err=%v", n, err)
			}
		}
		return nil
	}
}

func TestAccAgentResource_lifecycle(t *testing.T) {
	r := startRegistry(t)
	const addr = "agentregistry_agent.test"
	name := testParent + "/services/currency-agent"
	cardA := resCard("Converts currencies",
		resCardSkill("convert", "Converts an amount between currencies", "currency", "fx"),
		resCardSkill("rates", "Lists exchange rates", "fx"))
	cardB := resCard("Converts currencies and lists rates",
		resCardSkill("convert", "Converts an amount between currencies", "currency", "fx"),
		resCardSkill("rates", "Lists exchange rates", "fx"),
		resCardSkill("history", "Shows historical rates", "fx", "history"))
	cfgA := resAgentConfig(r, "currency-agent", "Currency Agent", "jsonencode("+resJSON(cardA)+")")
	cfgB := resAgentConfig(r, "currency-agent", "Currency Converter", "jsonencode("+resJSON(cardB)+")")
	cfgBReformatted := resAgentConfig(r, "currency-agent", "Currency Converter", resHeredoc(resReformatted(cardB)))

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		CheckDestroy:             resCheckServicesGone(r, name, testParent+"/services/currency-agent-v2"),
		Steps: []resource.TestStep{
			{ // create; computed values known at plan
				Config: cfgA,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("a2a_version"), knownvalue.StringExact("0.3")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("skill_ids"), resStrings("convert", "rates")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("version"), knownvalue.StringExact("1.0.0")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("urls"), resStrings("https://agents.example.com/currency")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("project"), knownvalue.StringExact("test-project")),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("create_time")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("location"), knownvalue.StringExact("global")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("registry_resource"), knownvalue.StringExact(testParent+"/agents/currency-agent")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("agent_id"), knownvalue.StringExact(testURN("agent", "currency-agent"))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("a2a_version"), knownvalue.StringExact("0.3")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("display_name"), knownvalue.StringExact("Currency Agent")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("skill_ids"), resStrings("convert", "rates")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("version"), knownvalue.StringExact("1.0.0")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("urls"), resStrings("https://agents.example.com/currency")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("create_time"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-`))),
				},
			},
			{ // update in place: one PATCH, skills known at plan, update_time unknown
				PreConfig: r.srv.ResetRequests,
				Config:    cfgB,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("skill_ids"), resStrings("convert", "rates", "history")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("create_time"), knownvalue.NotNull()),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("update_time")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					patchMaskCheck{r, []string{"displayName", "agentSpec.content"}},
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("display_name"), knownvalue.StringExact("Currency Converter")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("skill_ids"), resStrings("convert", "rates", "history")),
				},
			},
			{ // only the display name: the mask names it alone, the card's values stay known
				PreConfig: r.srv.ResetRequests,
				Config:    resAgentConfig(r, "currency-agent", "Currency FX", "jsonencode("+resJSON(cardB)+")"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("skill_ids"), resStrings("convert", "rates", "history")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{patchMaskCheck{r, []string{"displayName"}}},
			},
			{ // and back
				PreConfig:         r.srv.ResetRequests,
				Config:            cfgB,
				ConfigStateChecks: []statecheck.StateCheck{patchMaskCheck{r, []string{"displayName"}}},
			},
			{ // import by full name
				ResourceName:      addr,
				ImportState:       true,
				ImportStateId:     name,
				ImportStateVerify: true,
			},
			{ // import by bare service_id (provider project and location)
				ResourceName:      addr,
				ImportState:       true,
				ImportStateId:     "currency-agent",
				ImportStateVerify: true,
			},
			{ // nothing to do
				Config:   cfgB,
				PlanOnly: true,
			},
			{ // the same card reformatted: an update that sends nothing and keeps update_time
				PreConfig: r.srv.ResetRequests,
				Config:    cfgBReformatted,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("update_time"), knownvalue.NotNull()),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("skill_ids"), resStrings("convert", "rates", "history")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					noPatchCheck{r},
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("agent_card"), knownvalue.StringExact(resReformatted(cardB)+"\n")),
				},
			},
			{ // the registry re-encodes numbers and keeps them as doubles: no drift
				PreConfig: func() {
					resSetServiceContent(t, r, name, func(svc *agentregistry.Service) []string {
						c := strings.Replace(string(svc.AgentSpec.Content), `"x-weight":10`, `"x-weight":1.0e1`, 1)
						c = strings.Replace(c, `"x-serial":9007199254740993`, `"x-serial":9007199254740992`, 1)
						if !strings.Contains(c, `"x-weight":1.0e1`) || !strings.Contains(c, `"x-serial":9007199254740992`) {
							t.Fatalf("fixture: no x-weight or x-serial in %s", c)
						}
						svc.AgentSpec.Content = []byte(c)
						return []string{"agentSpec.content"}
					})
				},
				Config:   cfgBReformatted,
				PlanOnly: true,
			},
			{ // drift: a skill changed behind Terraform's back
				PreConfig: func() {
					resSetServiceContent(t, r, name, func(svc *agentregistry.Service) []string {
						svc.AgentSpec.Content = []byte(resJSON(cardA))
						return []string{"agentSpec.content"}
					})
				},
				Config:             cfgBReformatted,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{ // apply puts the configured card back
				Config: cfgBReformatted,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("skill_ids"), resStrings("convert", "rates", "history")),
				},
			},
			{ // removed outside Terraform
				PreConfig: func() {
					if err := r.client.DeleteService(context.Background(), name); err != nil {
						t.Fatalf("delete behind Terraform's back: %v", err)
					}
				},
				Config:             cfgBReformatted,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{ // ... and re-created
				Config: cfgBReformatted,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
				},
			},
			{ // a new service_id replaces the agent
				Config: resAgentConfig(r, "currency-agent-v2", "Currency Converter", resHeredoc(resReformatted(cardB))),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(testParent+"/services/currency-agent-v2")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("registry_resource"), knownvalue.StringExact(testParent+"/agents/currency-agent-v2")),
				},
				Check: resCheckServicesGone(r, name),
			},
		},
	})
}

func TestAccAgentResource_projectOverrideAndDescription(t *testing.T) {
	r := startRegistry(t)
	const addr = "agentregistry_agent.test"
	card := resJSON(resCard("Converts currencies", resCardSkill("convert", "Converts", "fx")))
	name := "projects/other-project/locations/europe-west1/services/fx-agent"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		CheckDestroy:             resCheckServicesGone(r, name),
		Steps: []resource.TestStep{
			{
				Config: r.config(fmt.Sprintf(`
resource "agentregistry_agent" "test" {
  service_id  = "fx-agent"
  project     = "other-project"
  location    = "europe-west1"
  description = "Foreign exchange"
  agent_card  = jsonencode(%s)
  timeouts {
    create = "2m"
  }
}
`, card)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact("Foreign exchange")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("display_name"), knownvalue.Null()),
				},
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			},
		},
	})
}

func TestAccAgentResource_invalidCardRejectedAtPlan(t *testing.T) {
	r := startRegistry(t)
	// 1.0-shaped card with a skill missing its tags and a wrong type, on several lines.
	card := `{
  "name": "Broken Agent",
  "description": "Has problems",
  "version": "1.0.0",
  "supportedInterfaces": [{"url": "https://agents.example.com/broken", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
  "skills": [
    {"id": "a", "name": "A", "description": 42}
  ]
}`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:      resAgentConfig(r, "broken-agent", "Broken", resHeredoc(card)),
			ExpectError: regexp.MustCompile(`(?s)Invalid A2A Agent Card.*line\s+7,\s+column\s+\d+:\s+/skills/0`),
		}},
	})
	r.expectNoWrites(t)
}

// A 1.0 card written with ProtoJSON's proto field names is a 1.0 card: valid at
// plan, version and skills known, registered as is, and no drift afterwards.
func TestAccAgentResource_protoFieldNamesCard(t *testing.T) {
	r := startRegistry(t)
	const addr = "agentregistry_agent.test"
	card := `{
  "name": "Ledger Agent",
  "description": "Keeps the ledger.",
  "version": "1.0.0",
  "supported_interfaces": [{"url": "https://agents.example.com/ledger", "protocol_binding": "JSONRPC", "protocol_version": "1.0"}],
  "default_input_modes": ["text/plain"],
  "skills": [{"id": "post", "name": "Post", "description": "Posts an entry.", "tags": ["ledger"], "input_modes": ["text/plain"]}]
}`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: resAgentConfig(r, "ledger-agent", "Ledger", resHeredoc(card)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(addr, tfjsonpath.New("a2a_version"), knownvalue.StringExact("1.0")),
				plancheck.ExpectKnownValue(addr, tfjsonpath.New("skill_ids"), resStrings("post")),
				plancheck.ExpectKnownValue(addr, tfjsonpath.New("urls"), resStrings("https://agents.example.com/ledger")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("a2a_version"), knownvalue.StringExact("1.0")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("registry_resource"), knownvalue.StringExact(testParent+"/agents/ledger-agent")),
			},
		}},
	})
}

func TestAccAgentResource_existingServiceIsAConflict(t *testing.T) {
	r := startRegistry(t)
	other := resJSON(resCard("Someone else's agent", resCardSkill("other", "Does other things", "misc")))
	if _, err := r.client.CreateService(context.Background(), testParent, "taken-agent", &agentregistry.Service{
		AgentSpec: &agentregistry.AgentSpec{Type: agentSpecTypeCard, Content: []byte(other)},
	}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	card := resJSON(resCard("Converts currencies", resCardSkill("convert", "Converts", "fx")))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:      resAgentConfig(r, "taken-agent", "Mine", "jsonencode("+card+")"),
			ExpectError: regexp.MustCompile(`(?s)Cannot Create Agent.*already\s+exists.*import\s+it`),
		}},
	})
}

// Importing a service of another kind fails at import, naming the resource
// type to use, rather than planning an update that apply would refuse.
func TestAccServiceResource_importOfAnotherKindIsRefused(t *testing.T) {
	r := startRegistry(t)
	ctx := context.Background()
	if _, err := r.client.CreateService(ctx, testParent, "weather-mcp", &agentregistry.Service{
		McpServerSpec: &agentregistry.McpServerSpec{Type: mcpSpecTypeNoSpec},
		Interfaces:    []*agentregistry.Interface{{Url: "https://mcp.example.com/weather", ProtocolBinding: "JSONRPC"}},
	}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	card := resJSON(resCard("Converts currencies", resCardSkill("convert", "Converts", "fx")))
	if _, err := r.client.CreateService(ctx, testParent, "currency-agent", &agentregistry.Service{
		AgentSpec: &agentregistry.AgentSpec{Type: agentSpecTypeCard, Content: []byte(card)},
	}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:        exampleProviders + resAgentConfig(r, "weather-mcp", "Weather", "jsonencode("+card+")"),
				ResourceName:  "agentregistry_agent.test",
				ImportState:   true,
				ImportStateId: "weather-mcp",
				ExpectError:   regexp.MustCompile(`(?s)registered as an MCP server.*agentregistry_mcp_server`),
			},
			{
				Config:        exampleProviders + resMcpConfig(r, "currency-agent", "Currency", resJSONRPCInterface, ""),
				ResourceName:  "agentregistry_mcp_server.test",
				ImportState:   true,
				ImportStateId: "currency-agent",
				ExpectError:   regexp.MustCompile(`(?s)registered as an agent.*agentregistry_agent`),
			},
		},
	})
}

// A card's warnings come once per plan, titled as warnings: Terraform
// validates the configuration twice in a plan, so a validator's warning
// showed twice.
func TestAccAgentResource_warningsOncePerPlan(t *testing.T) {
	r := startRegistry(t)
	h := newCLIHarness(t)
	card := resCard("Converts currencies", resCardSkill("convert", "Converts", "fx"))
	card["protocolVersion"] = "0.2.9"
	h.write(t, "main.tf", exampleProviders+resAgentConfig(r, "currency-agent", "Currency", "jsonencode("+resJSON(card)+")"))
	h.mustRun(t, "init", "-input=false")
	warnings := diagnostics(h.mustRun(t, "plan", "-json", "-input=false"), "Agent Card")
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "warning: A2A Agent Card Has Warnings: The A2A Agent Card has 1 warning:") ||
		!strings.Contains(warnings[0], "/protocolVersion") {
		t.Errorf("want one warning diagnostic about /protocolVersion, titled as a warning; got %d:\n%s", len(warnings), strings.Join(warnings, "\n"))
	}
	r.expectNoWrites(t)
}

// Import by bare service_id resolves it in the provider's location, not in the
// built-in default ("global"): with the provider in europe-west1, the service
// is found there.
func TestAccAgentResource_importByServiceIDUsesTheProviderLocation(t *testing.T) {
	r := startRegistry(t)
	const addr = "agentregistry_agent.test"
	card := resJSON(resCard("Converts currencies", resCardSkill("convert", "Converts", "fx")))
	config := exampleProviders + fmt.Sprintf(`
provider "agentregistry" {
  endpoint = %q
  project  = "test-project"
  location = "europe-west1"
}

resource "agentregistry_agent" "test" {
  service_id = "currency-agent"
  agent_card = jsonencode(%s)
}
`, r.URL, card)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"),
						knownvalue.StringExact("projects/test-project/locations/europe-west1/services/currency-agent")),
				},
			},
			{
				Config:            config,
				ResourceName:      addr,
				ImportState:       true,
				ImportStateId:     "currency-agent",
				ImportStateVerify: true,
			},
		},
	})
}
