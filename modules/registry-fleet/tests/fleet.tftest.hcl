# Registers a fleet against the bundled registry server and checks what
# adding or removing a file plans. TestAccModules_nativeTests (internal/e2e) starts the server
# on loopback, runs `tofu get` and `tofu test -var endpoint=http://127.0.0.1:PORT`.

variables {
  project        = "fleet-test"
  cards_dir      = "tests/fixtures/fleet/cards"
  tool_specs_dir = "tests/fixtures/fleet/tools"

  # weather-tools takes its interfaces from weather-tools.interfaces.json;
  # invoice-tools has no sidecar and takes them from here.
  mcp_interfaces = {
    invoice-tools = [{ url = "https://mcp.example.test/invoices", protocol_binding = "HTTP_JSON" }]
  }
  display_names = {
    travel-planner = "Trips"
    weather-tools  = "Weather tools"
  }
  descriptions = {
    weather-tools = "Forecasts and alerts."
  }
  agent_properties = {
    "projects/fleet-test/locations/global/applications/billing/workloads/invoice-helper" = {
      card      = "invoice-helper.json"
      framework = "google-adk"
    }
  }
}

run "setup" {
  module {
    source = "./tests/setup"
  }
}

provider "agentregistry" {
  endpoint = run.setup.endpoint
  project  = "provider-default-project" # the module's project input must win
}

# App Hub derives AgentProperties from the deployed agent: this run seeds the
# bundled server (started with -apphub-writable) with what App Hub would hold,
# and the module verifies it (agent_properties_mode defaults to "verify").
run "seed_app_hub" {
  module {
    source = "./tests/seed"
  }

  variables {
    workload  = "projects/fleet-test/locations/global/applications/billing/workloads/invoice-helper"
    card_file = "tests/fixtures/fleet/cards/invoice-helper.json"
    framework = "google-adk"
  }
}

run "registers_the_fleet" {
  command = apply

  assert {
    condition     = toset(keys(output.agents)) == toset(["currency-agent", "invoice-helper", "travel-planner"])
    error_message = "expected one agent per card file, keyed by file name: ${jsonencode(keys(output.agents))}"
  }
  assert {
    condition     = toset(keys(output.mcp_servers)) == toset(["invoice-tools", "weather-tools"])
    error_message = "expected one MCP server per tool spec, sidecar excluded: ${jsonencode(keys(output.mcp_servers))}"
  }
  assert {
    condition = alltrue([for id, a in output.agents :
      a.name == "projects/fleet-test/locations/global/services/${id}" &&
      a.registry_resource == "projects/fleet-test/locations/global/agents/${id}" &&
      # the bundled server derives agents/{service id}, whose agentId is a URN
      # with the project id standing in for Google's project number
      a.agent_id == "urn:agent:projects-fleet-test:projects:fleet-test:locations:global:agentregistry:services:${id}"
    ])
    error_message = "agent names, registry resources or agent ids are wrong: ${jsonencode(output.agents)}"
  }
  assert {
    condition = alltrue([for id, s in output.mcp_servers :
      s.name == "projects/fleet-test/locations/global/services/${id}" &&
      s.registry_resource == "projects/fleet-test/locations/global/mcpServers/${id}" &&
      s.mcp_server_id == "urn:mcp:projects-fleet-test:projects:fleet-test:locations:global:agentregistry:services:${id}"
    ])
    error_message = "MCP server names, registry resources or ids are wrong: ${jsonencode(output.mcp_servers)}"
  }
  assert {
    condition = (
      output.agents["currency-agent"].a2a_version == "0.3" &&
      output.agents["travel-planner"].a2a_version == "1.0" &&
      output.agents["invoice-helper"].a2a_version == "1.0"
    )
    error_message = "A2A versions: ${jsonencode({ for id, a in output.agents : id => a.a2a_version })}"
  }
  assert {
    condition = (
      output.agents["currency-agent"].skill_ids == tolist(["convert_currency", "historical_rates"]) &&
      output.agents["travel-planner"].skill_ids == tolist(["plan_itinerary"]) &&
      output.agents["invoice-helper"].skill_ids == tolist(["lookup-invoice"]) &&
      output.agents["invoice-helper"].urls == tolist(["https://agents.example.test/invoices/a2a"]) &&
      output.agents["invoice-helper"].version == "2.1.0"
    )
    error_message = "skill ids, urls or versions (the ProtoJSON card included): ${jsonencode(output.agents)}"
  }
  assert {
    condition = (
      output.mcp_servers["weather-tools"].tool_names == tolist(["get_forecast", "get_alerts"]) &&
      output.mcp_servers["invoice-tools"].tool_names == tolist(["get_invoice"])
    )
    error_message = "tool names: ${jsonencode(output.mcp_servers)}"
  }
  assert {
    condition = jsonencode([for s in output.skills : "${s.service_id}/${s.id}"]) == jsonencode([
      "currency-agent/convert_currency", "currency-agent/historical_rates",
      "invoice-helper/lookup-invoice", "travel-planner/plan_itinerary",
    ]) && alltrue([for s in output.skills : s.agent_name == output.agents[s.service_id].registry_resource && s.agent_id == output.agents[s.service_id].agent_id])
    error_message = "the flat skill list: ${jsonencode(output.skills)}"
  }
  assert {
    condition = (
      agentregistry_mcp_server.this["weather-tools"].interfaces[0].url == "https://mcp.example.test/weather" &&
      agentregistry_mcp_server.this["weather-tools"].interfaces[0].protocol_binding == "JSONRPC" &&
      agentregistry_mcp_server.this["invoice-tools"].interfaces[0].protocol_binding == "HTTP_JSON"
    )
    error_message = "interfaces come from the sidecar file, or from mcp_interfaces"
  }
  assert {
    condition = (
      agentregistry_agent.this["currency-agent"].display_name == "Currency Agent" &&
      agentregistry_agent.this["travel-planner"].display_name == "Trips" &&
      agentregistry_mcp_server.this["weather-tools"].display_name == "Weather tools" &&
      agentregistry_mcp_server.this["weather-tools"].description == "Forecasts and alerts." &&
      agentregistry_mcp_server.this["invoice-tools"].display_name == null
    )
    error_message = "display names default to the card's name; the maps win"
  }
  assert {
    condition     = agentregistry_agent.this["invoice-helper"].agent_card == jsonencode(jsondecode(file("tests/fixtures/fleet/cards/invoice-helper.json")))
    error_message = "the card is sent in canonical form"
  }
  assert {
    condition     = jsondecode(agentregistry_agent_properties.this["projects/fleet-test/locations/global/applications/billing/workloads/invoice-helper"].properties).framework == "google-adk"
    error_message = "AgentProperties are derived from the card with the given framework"
  }
  assert {
    condition     = agentregistry_agent_properties.this["projects/fleet-test/locations/global/applications/billing/workloads/invoice-helper"].mode == "verify"
    error_message = "AgentProperties are verified by default: App Hub derives them"
  }
}

# The next two runs plan against the state that registers_the_fleet applied.
# The provider plans update_time (and, for a replacement, agent_id) as unknown
# when it would change a service, and both CLIs fail a run whose condition is
# unknown at plan. So a known update_time and agent_id on every other service
# means that the only change is the one asserted. (OpenTofu 1.10 cannot read
# run.<name> outputs in an assert, hence the literal ids.)

run "a_lock_pins_the_approved_tools" {
  command = plan

  variables {
    # The lock provider::agentregistry::tool_lock made of weather-tools.json
    # (tests/fixtures/fleet/locks/weather-tools.lock.json), written out: OpenTofu
    # 1.10 calls no function in a run's variables.
    tool_locks = {
      weather-tools = <<-EOT
        {
          "tools": {
            "get_alerts": {
              "definition": {
                "description": "Lists active weather alerts for a region.",
                "inputSchema": {
                  "properties": {
                    "region": {
                      "type": "string"
                    }
                  },
                  "type": "object"
                },
                "name": "get_alerts"
              },
              "sha256": "e6d625c090363ac94b2cebd9ca5afae2c16a010313f8f7c3fc2afe8b6039a42a"
            },
            "get_forecast": {
              "definition": {
                "annotations": {
                  "readOnlyHint": true
                },
                "description": "Returns the forecast for a city.",
                "inputSchema": {
                  "properties": {
                    "city": {
                      "type": "string"
                    }
                  },
                  "required": [
                    "city"
                  ],
                  "type": "object"
                },
                "name": "get_forecast"
              },
              "sha256": "b6caf15e2fe6724bd85d7ba157fff284a2d83039f4ef9325c2afb8282c241b32"
            }
          },
          "version": 1
        }
      EOT
    }
    tool_approval_policy = "warn"
  }

  assert {
    condition = output.mcp_servers["weather-tools"].tool_digests == tomap({
      for name, t in jsondecode(file("tests/fixtures/fleet/locks/weather-tools.lock.json")).tools : name => t.sha256
    })
    error_message = "weather-tools' tool_digests are not its lock's: ${jsonencode(output.mcp_servers["weather-tools"].tool_digests)}"
  }
  assert {
    condition     = agentregistry_mcp_server.this["weather-tools"].approval_policy == "warn" && agentregistry_mcp_server.this["invoice-tools"].approved_tools == null && agentregistry_mcp_server.this["invoice-tools"].approval_policy == null
    error_message = "the lock and the policy apply to weather-tools only"
  }
}

# The tool_specs map: a document read from a running server (what an
# agentregistry_mcp_tool_spec data source's json holds, written out: OpenTofu
# 1.10 calls no function in a run's variables) is one more MCP server, with
# interfaces from mcp_interfaces, and nothing else moves.
run "a_live_tool_spec_plans_one_create" {
  command = plan

  variables {
    tool_specs = {
      ticket-tools = <<-EOT
        {"tools": [{"name": "open_ticket", "description": "Opens a ticket.", "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}}}]}
      EOT
    }
    mcp_interfaces = {
      invoice-tools = [{ url = "https://mcp.example.test/invoices", protocol_binding = "HTTP_JSON" }]
      ticket-tools  = [{ url = "https://mcp.example.test/tickets", protocol_binding = "JSONRPC" }]
    }
  }

  assert {
    condition     = toset(keys(agentregistry_mcp_server.this)) == toset(["invoice-tools", "ticket-tools", "weather-tools"])
    error_message = "the map's tool spec should add ticket-tools beside the folder's: ${jsonencode(keys(agentregistry_mcp_server.this))}"
  }
  assert {
    condition = (
      agentregistry_mcp_server.this["ticket-tools"].tool_names == tolist(["open_ticket"]) &&
      agentregistry_mcp_server.this["ticket-tools"].interfaces[0].url == "https://mcp.example.test/tickets" &&
      agentregistry_mcp_server.this["ticket-tools"].tool_spec == "{\"tools\":[{\"description\":\"Opens a ticket.\",\"inputSchema\":{\"properties\":{\"title\":{\"type\":\"string\"}},\"type\":\"object\"},\"name\":\"open_ticket\"}]}"
    )
    error_message = "ticket-tools: its tool names, interfaces, or canonical tool spec"
  }
  assert {
    condition = alltrue([for id in ["invoice-tools", "weather-tools"] :
      agentregistry_mcp_server.this[id].mcp_server_id == "urn:mcp:projects-fleet-test:projects:fleet-test:locations:global:agentregistry:services:${id}" && agentregistry_mcp_server.this[id].update_time != ""
    ]) && length(agentregistry_agent.this) == 3
    error_message = "the folder's MCP servers and the agents should be left alone"
  }
}

run "adding_a_card_plans_one_create" {
  command = plan

  variables {
    # The three cards plus code-reviewer.json.
    cards_dir = "tests/fixtures/fleet-plus-one/cards"
  }

  assert {
    condition     = toset(keys(agentregistry_agent.this)) == toset(["code-reviewer", "currency-agent", "invoice-helper", "travel-planner"])
    error_message = "adding code-reviewer.json should add the code-reviewer agent: ${jsonencode(keys(agentregistry_agent.this))}"
  }
  assert {
    # Known at plan: the new card is validated and read before anything is sent.
    condition     = agentregistry_agent.this["code-reviewer"].skill_ids == tolist(["review_pull_request"])
    error_message = "the new agent's skill ids should be known at plan"
  }
  assert {
    condition = alltrue([for id in ["currency-agent", "invoice-helper", "travel-planner"] :
      agentregistry_agent.this[id].agent_id == "urn:agent:projects-fleet-test:projects:fleet-test:locations:global:agentregistry:services:${id}" && agentregistry_agent.this[id].update_time != ""
    ])
    error_message = "the existing agents should be left alone"
  }
  assert {
    condition = toset(keys(agentregistry_mcp_server.this)) == toset(["invoice-tools", "weather-tools"]) && alltrue([
      for id, s in agentregistry_mcp_server.this : s.mcp_server_id == "urn:mcp:projects-fleet-test:projects:fleet-test:locations:global:agentregistry:services:${id}" && s.update_time != ""
    ]) && length(agentregistry_agent_properties.this) == 1
    error_message = "the MCP servers and the AgentProperties entry should be left alone"
  }
}

run "removing_a_card_plans_one_destroy" {
  command = plan

  variables {
    # currency-agent.json and invoice-helper.json: travel-planner.json is gone.
    cards_dir = "tests/fixtures/fleet-minus-one/cards"
  }

  assert {
    condition     = toset(keys(agentregistry_agent.this)) == toset(["currency-agent", "invoice-helper"])
    error_message = "removing travel-planner.json should remove exactly the travel-planner agent: ${jsonencode(keys(agentregistry_agent.this))}"
  }
  assert {
    condition = alltrue([for id in ["currency-agent", "invoice-helper"] :
      agentregistry_agent.this[id].agent_id == "urn:agent:projects-fleet-test:projects:fleet-test:locations:global:agentregistry:services:${id}" && agentregistry_agent.this[id].update_time != ""
    ])
    error_message = "the other agents should be left alone"
  }
  assert {
    condition = toset(keys(agentregistry_mcp_server.this)) == toset(["invoice-tools", "weather-tools"]) && alltrue([
      for id, s in agentregistry_mcp_server.this : s.mcp_server_id == "urn:mcp:projects-fleet-test:projects:fleet-test:locations:global:agentregistry:services:${id}" && s.update_time != ""
    ]) && length(agentregistry_agent_properties.this) == 1
    error_message = "the MCP servers and the AgentProperties entry should be left alone"
  }
}
