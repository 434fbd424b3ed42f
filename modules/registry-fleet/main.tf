locals {
  card_files = var.cards_dir == null ? toset([]) : fileset(var.cards_dir, "*.json")
  spec_files = var.tool_specs_dir == null ? toset([]) : toset([
    for f in fileset(var.tool_specs_dir, "*.json") : f if !endswith(f, ".interfaces.json")
  ])

  # Service id => the file's text as written (for error positions) and its
  # canonical form (jsonencode(jsondecode(...))), so that reformatting a file
  # never plans an update. try() keeps an unreadable file from failing here:
  # the validation of cards_dir / tool_specs_dir names it instead.
  cards = {
    for f in local.card_files : trimsuffix(f, ".json") => {
      file      = f
      canonical = try(jsonencode(jsondecode(file("${var.cards_dir}/${f}"))), "{}")
    }
  }
  # The folder's tool specs, those of the tool_specs map and those read live
  # (live.tf); a service id in two of them is an error: see the preconditions.
  # source names where each came from.
  tool_specs = merge({
    for f in local.spec_files : trimsuffix(f, ".json") => {
      source    = "${f} in tool_specs_dir"
      canonical = try(jsonencode(jsondecode(file("${var.tool_specs_dir}/${f}"))), "{}")
      # The map variable wins over the NAME.interfaces.json sidecar.
      interfaces = lookup(var.mcp_interfaces, trimsuffix(f, ".json"), [
        for i in try(jsondecode(file("${var.tool_specs_dir}/${trimsuffix(f, ".json")}.interfaces.json")), []) : {
          url              = i.url
          protocol_binding = try(i.protocol_binding, i.protocolBinding)
        }
      ])
    }
    }, {
    for id, spec in var.tool_specs : id => {
      source     = "tool_specs[\"${id}\"]"
      canonical  = try(jsonencode(jsondecode(spec)), "{}")
      interfaces = lookup(var.mcp_interfaces, id, [])
    }
  }, local.live_tool_specs)
  folder_tool_spec_ids = [for f in local.spec_files : trimsuffix(f, ".json")]

  # What every MCP server's tools ask of the model, judged together
  # (provider::agentregistry::fleet_tool_findings): each spec's own findings,
  # which each server's tool_policy acts on, and the cross-server ones (a tool
  # name equal or confusable with another server's, text naming another
  # server's tool), which only the fleet can see and the preconditions and the
  # check below act on. A spec that does not parse is left to the validation
  # of its variable, which names it.
  tool_findings = provider::agentregistry::fleet_tool_findings({
    for id, s in local.tool_specs : id => s.canonical if can(jsondecode(s.canonical).tools)
  })
  cross_server_findings = [for f in local.tool_findings : f if startswith(f.rule, "fleet-") && f.severity != "low"]
}

resource "agentregistry_agent" "this" {
  for_each = local.cards

  service_id   = each.key
  agent_card   = each.value.canonical
  display_name = lookup(var.display_names, each.key, substr(try(jsondecode(each.value.canonical).name, each.key), 0, 63))
  description  = lookup(var.descriptions, each.key, null)
  project      = var.project
  location     = var.location
}

resource "agentregistry_mcp_server" "this" {
  for_each = local.tool_specs

  service_id   = each.key
  tool_spec    = each.value.canonical
  interfaces   = length(each.value.interfaces) > 0 ? each.value.interfaces : null
  display_name = lookup(var.display_names, each.key, null)
  description  = lookup(var.descriptions, each.key, null)
  project      = var.project
  location     = var.location

  # A lock pins the server's approved tools; without one nothing is compared.
  approved_tools  = lookup(var.tool_locks, each.key, null)
  approval_policy = contains(keys(var.tool_locks), each.key) ? var.tool_approval_policy : null
  tool_policy     = var.tool_text_policy

  lifecycle {
    # Under enforce, a high cross-server finding (a tool name confusable with
    # another server's) fails the plan before anything is registered.
    precondition {
      condition     = var.tool_text_policy != "enforce" || length([for f in local.cross_server_findings : f if f.service_id == each.key && f.severity == "high"]) == 0
      error_message = join("\n", concat(["MCP server \"${each.key}\": its tools' names or text collide with another server's (tool_text_policy = \"enforce\"; nothing was registered):"], [for f in local.cross_server_findings : "  - tool \"${f.tool}\" (${f.pointer}), rule ${f.rule} (${f.severity}): ${f.message}" if f.service_id == each.key && f.severity == "high"]))
    }
    precondition {
      condition     = length(setsubtract(keys(var.tool_locks), keys(local.tool_specs))) == 0
      error_message = "tool_locks has locks for MCP servers that none of tool_specs_dir, tool_specs and live_tool_specs has: ${join(", ", sort(setsubtract(keys(var.tool_locks), keys(local.tool_specs))))}. Expected service ids among: ${join(", ", sort(keys(local.tool_specs)))}."
    }
    precondition {
      condition     = !contains(keys(local.cards), each.key)
      error_message = "Service id \"${each.key}\" is used twice: by ${each.value.source} and by ${try(local.cards[each.key].file, "")} in cards_dir. Rename one of them."
    }
    precondition {
      condition     = !(contains(keys(var.tool_specs), each.key) && contains(local.folder_tool_spec_ids, each.key))
      error_message = "Service id \"${each.key}\" is used twice: by tool_specs[\"${each.key}\"] and by ${each.key}.json in tool_specs_dir. Remove one of them."
    }
    precondition {
      condition     = !(contains(keys(var.live_tool_specs), each.key) && (contains(keys(var.tool_specs), each.key) || contains(local.folder_tool_spec_ids, each.key)))
      error_message = "Service id \"${each.key}\" is used twice: by live_tool_specs[\"${each.key}\"] and by ${contains(keys(var.tool_specs), each.key) ? "tool_specs[\"${each.key}\"]" : "${each.key}.json in tool_specs_dir"}. Remove one of them."
    }
  }
}

# Under warn, the cross-server findings of medium or high severity are a
# warning (each server's own findings are its tool_policy's).
check "fleet_tool_text" {
  assert {
    condition     = var.tool_text_policy != "warn" || length(local.cross_server_findings) == 0
    error_message = join("\n", concat(["MCP servers whose tools collide with another server's (provider::agentregistry::fleet_tool_findings):"], [for f in local.cross_server_findings : "  - ${f.service_id}: tool \"${f.tool}\" (${f.pointer}), rule ${f.rule} (${f.severity}): ${f.message}"]))
  }
}

# App Hub derives each workload's AgentProperties from the deployed agent, so
# by default (agent_properties_mode = "verify") this checks that App Hub holds
# what the card gives and writes nothing.
resource "agentregistry_agent_properties" "this" {
  for_each = var.agent_properties

  workload = each.key
  mode     = var.agent_properties_mode
  properties = provider::agentregistry::agent_properties_from_card(
    lookup(local.cards, trimsuffix(each.value.card, ".json"), { canonical = "{}" }).canonical,
    each.value.framework,
    each.value.agent_card_uri == null ? [] : [each.value.agent_card_uri]...
  )

  lifecycle {
    precondition {
      condition     = contains(keys(local.cards), trimsuffix(each.value.card, ".json"))
      error_message = "agent_properties[\"${each.key}\"]: card \"${each.value.card}\" is not a file in cards_dir (${coalesce(var.cards_dir, "null")}). Expected one of: ${join(", ", sort(local.card_files))}."
    }
  }

  depends_on = [agentregistry_agent.this]
}
