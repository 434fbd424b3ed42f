variable "cards_dir" {
  description = <<-EOT
    Folder of A2A Agent Cards (0.3 or 1.0). Every `*.json` file directly in it is one agent, and the file name
    without `.json` is its `service_id`. Relative paths are resolved from the working directory, so pass
    `"$${path.module}/cards"`. `null` registers no agents.
  EOT
  type        = string
  default     = null

  # Every card is checked with the provider's own validator, and every file name
  # against the registry's service id rule, before anything is planned. One
  # error lists every problem of every file, each line starting with the file
  # name. (The condition and the message build the same list: a validation
  # rule cannot use locals on Terraform 1.8.)
  validation {
    condition = length(var.cards_dir == null ? [] : concat(
      length(fileset(var.cards_dir, "*.json")) > 0 ? [] : ["no *.json file here: check the path, or set cards_dir = null to register no agents"],
      flatten([for f in sort(fileset(var.cards_dir, "*.json")) : concat(
        can(regex("^[a-z][a-z0-9-]{3,62}$", trimsuffix(f, ".json"))) ? [] : ["${f}: \"${trimsuffix(f, ".json")}\" is not a valid service id: 4 to 63 characters of lowercase letters, digits and hyphens, starting with a letter (rename the file, such as currency-agent.json)"],
        [for e in provider::agentregistry::validate_agent_card(file("${var.cards_dir}/${f}")) : "${f}: ${e}"],
      )]),
    )) == 0
    error_message = join("\n", concat(["cards_dir \"${coalesce(var.cards_dir, "null")}\":"], var.cards_dir == null ? [] : concat(
      length(fileset(var.cards_dir, "*.json")) > 0 ? [] : ["no *.json file here: check the path, or set cards_dir = null to register no agents"],
      flatten([for f in sort(fileset(var.cards_dir, "*.json")) : concat(
        can(regex("^[a-z][a-z0-9-]{3,62}$", trimsuffix(f, ".json"))) ? [] : ["${f}: \"${trimsuffix(f, ".json")}\" is not a valid service id: 4 to 63 characters of lowercase letters, digits and hyphens, starting with a letter (rename the file, such as currency-agent.json)"],
        [for e in provider::agentregistry::validate_agent_card(file("${var.cards_dir}/${f}")) : "${f}: ${e}"],
      )]),
    )))
  }
}

variable "tool_specs_dir" {
  description = <<-EOT
    Folder of MCP tool specs (a `tools/list` result, `{"tools": [...]}`). Every `*.json` file directly in it is one
    MCP server, and the file name without `.json` is its `service_id`, except `NAME.interfaces.json`: the sidecar
    that lists how to reach server `NAME`, as `[{"url": "...", "protocol_binding": "JSONRPC"}]`. `null` registers
    no MCP servers.
  EOT
  type        = string
  default     = null

  # The same checks as cards_dir, with validate_tool_spec, plus the shape of
  # each NAME.interfaces.json sidecar.
  validation {
    condition = length(var.tool_specs_dir == null ? [] : concat(
      length([for f in fileset(var.tool_specs_dir, "*.json") : f if !endswith(f, ".interfaces.json")]) > 0 ? [] : ["no *.json tool spec here: check the path, or set tool_specs_dir = null to register no MCP servers"],
      flatten([for f in sort(fileset(var.tool_specs_dir, "*.json")) : endswith(f, ".interfaces.json") ? concat(
        fileexists("${var.tool_specs_dir}/${trimsuffix(f, ".interfaces.json")}.json") ? [] : ["${f}: there is no ${trimsuffix(f, ".interfaces.json")}.json tool spec for these interfaces"],
        can(concat(jsondecode(file("${var.tool_specs_dir}/${f}")), [])) && can([for i in jsondecode(file("${var.tool_specs_dir}/${f}")) : tostring(i.url) == tostring(try(i.protocol_binding, i.protocolBinding))]) ? [] : ["${f}: expected a JSON array of interfaces, such as [{\"url\": \"https://mcp.example.com/mcp\", \"protocol_binding\": \"JSONRPC\"}]"],
        ) : concat(
        can(regex("^[a-z][a-z0-9-]{3,62}$", trimsuffix(f, ".json"))) ? [] : ["${f}: \"${trimsuffix(f, ".json")}\" is not a valid service id: 4 to 63 characters of lowercase letters, digits and hyphens, starting with a letter (rename the file, such as weather-tools.json)"],
        [for e in provider::agentregistry::validate_tool_spec(file("${var.tool_specs_dir}/${f}")) : "${f}: ${e}"],
      )]),
    )) == 0
    error_message = join("\n", concat(["tool_specs_dir \"${coalesce(var.tool_specs_dir, "null")}\":"], var.tool_specs_dir == null ? [] : concat(
      length([for f in fileset(var.tool_specs_dir, "*.json") : f if !endswith(f, ".interfaces.json")]) > 0 ? [] : ["no *.json tool spec here: check the path, or set tool_specs_dir = null to register no MCP servers"],
      flatten([for f in sort(fileset(var.tool_specs_dir, "*.json")) : endswith(f, ".interfaces.json") ? concat(
        fileexists("${var.tool_specs_dir}/${trimsuffix(f, ".interfaces.json")}.json") ? [] : ["${f}: there is no ${trimsuffix(f, ".interfaces.json")}.json tool spec for these interfaces"],
        can(concat(jsondecode(file("${var.tool_specs_dir}/${f}")), [])) && can([for i in jsondecode(file("${var.tool_specs_dir}/${f}")) : tostring(i.url) == tostring(try(i.protocol_binding, i.protocolBinding))]) ? [] : ["${f}: expected a JSON array of interfaces, such as [{\"url\": \"https://mcp.example.com/mcp\", \"protocol_binding\": \"JSONRPC\"}]"],
        ) : concat(
        can(regex("^[a-z][a-z0-9-]{3,62}$", trimsuffix(f, ".json"))) ? [] : ["${f}: \"${trimsuffix(f, ".json")}\" is not a valid service id: 4 to 63 characters of lowercase letters, digits and hyphens, starting with a letter (rename the file, such as weather-tools.json)"],
        [for e in provider::agentregistry::validate_tool_spec(file("${var.tool_specs_dir}/${f}")) : "${f}: ${e}"],
      )]),
    )))
  }
}

variable "tool_specs" {
  description = <<-EOT
    MCP tool specs by service id, as JSON strings (a `tools/list` result), beside `tool_specs_dir`: such as the
    `json` of an `agentregistry_mcp_tool_spec` data source that reads a running server at plan,
    `{ weather-tools = data.agentregistry_mcp_tool_spec.weather.json }`. Each is one MCP server, checked with
    `validate_tool_spec` like a file; its interfaces come from `mcp_interfaces`. A service id may not be both here
    and a file of `tool_specs_dir`.
  EOT
  type        = map(string)
  default     = {}
  nullable    = false

  # The same checks as the files of tool_specs_dir, each line naming the entry.
  # A document known only at apply (unknown here) is checked by the resource
  # when it is known.
  validation {
    condition = length(flatten([for id in sort(keys(var.tool_specs)) : concat(
      can(regex("^[a-z][a-z0-9-]{3,62}$", id)) ? [] : ["tool_specs[\"${id}\"]: \"${id}\" is not a valid service id: 4 to 63 characters of lowercase letters, digits and hyphens, starting with a letter"],
      [for e in provider::agentregistry::validate_tool_spec(var.tool_specs[id]) : "tool_specs[\"${id}\"]: ${e}"],
    )])) == 0
    error_message = join("\n", concat(["tool_specs:"], flatten([for id in sort(keys(var.tool_specs)) : concat(
      can(regex("^[a-z][a-z0-9-]{3,62}$", id)) ? [] : ["tool_specs[\"${id}\"]: \"${id}\" is not a valid service id: 4 to 63 characters of lowercase letters, digits and hyphens, starting with a letter"],
      [for e in provider::agentregistry::validate_tool_spec(var.tool_specs[id]) : "tool_specs[\"${id}\"]: ${e}"],
    )])))
  }
}

variable "mcp_interfaces" {
  description = "How to reach each MCP server, by service id. Takes precedence over the server's `NAME.interfaces.json` sidecar in `tool_specs_dir`; the only source of interfaces for the servers of `tool_specs`."
  type = map(list(object({
    url              = string
    protocol_binding = string
  })))
  default  = {}
  nullable = false
}

variable "agent_properties" {
  description = <<-EOT
    App Hub `AgentProperties` to declare, by full workload name
    (`projects/{p}/locations/{l}/applications/{a}/workloads/{w}`): `card` is a file name in `cards_dir`
    (such as `currency-agent.json`), from which the document is derived with `agent_properties_from_card`.
    App Hub derives this entry itself from the deployed agent: with `agent_properties_mode = "verify"` (the
    default) the module checks that App Hub holds it and writes nothing.
  EOT
  type = map(object({
    card           = string
    framework      = optional(string, "custom")
    agent_card_uri = optional(string)
  }))
  default  = {}
  nullable = false

  validation {
    condition = alltrue([
      for w in keys(var.agent_properties) : can(regex("^projects/[^/]+/locations/[^/]+/applications/[^/]+/workloads/[^/]+$", w))
    ])
    error_message = "agent_properties keys must be full workload names, projects/{project}/locations/{location}/applications/{application}/workloads/{workload}; got: ${join(", ", [for w in keys(var.agent_properties) : w if !can(regex("^projects/[^/]+/locations/[^/]+/applications/[^/]+/workloads/[^/]+$", w))])}"
  }
}

variable "agent_properties_mode" {
  description = <<-EOT
    How `agent_properties` meets App Hub: `verify` (the default) writes nothing, fails when App Hub's entry differs
    from the one derived from the card (naming each field) and shows App Hub's later changes as drift, as Google's
    App Hub requires (it derives the entry from the deployed agent); `write` writes the entry, for a registry that
    accepts the write, such as the bundled server started with `-apphub-writable`.
  EOT
  type        = string
  default     = "verify"
  nullable    = false

  validation {
    condition     = contains(["verify", "write"], var.agent_properties_mode)
    error_message = "agent_properties_mode must be \"verify\" or \"write\", got \"${var.agent_properties_mode}\"."
  }
}

variable "display_names" {
  description = "Display names by service id (at most 63 characters). An agent without one gets its card's `name`, cut to 63 characters; an MCP server without one gets none."
  type        = map(string)
  default     = {}
  nullable    = false

  validation {
    condition     = alltrue([for k, v in var.display_names : length(v) <= 63])
    error_message = "display_names longer than 63 characters: ${join(", ", [for k, v in var.display_names : k if length(v) > 63])}"
  }
}

variable "descriptions" {
  description = "Service descriptions by service id (at most 2048 characters). Services without one get none."
  type        = map(string)
  default     = {}
  nullable    = false

  validation {
    condition     = alltrue([for k, v in var.descriptions : length(v) <= 2048])
    error_message = "descriptions longer than 2048 characters: ${join(", ", [for k, v in var.descriptions : k if length(v) > 2048])}"
  }
}

variable "project" {
  description = "The project that owns the services. Defaults to the provider's `project`."
  type        = string
  default     = null
}

variable "location" {
  description = "The registry location of the services. Defaults to the provider's `location`."
  type        = string
  default     = null
}

variable "tool_locks" {
  description = <<-EOT
    Locks of approved tools, by MCP server service id: the content of the lock that
    `provider::agentregistry::tool_lock` made of the server's tools, such as
    `{ weather-tools = file("$${path.module}/locks/weather-tools.lock.json") }`. A server with a lock is
    registered only while every tool of its spec equals its approved definition (see `approved_tools` of
    `agentregistry_mcp_server`); a server without one is not compared.
  EOT
  type        = map(string)
  default     = {}
  nullable    = false
}

variable "tool_approval_policy" {
  description = "For the servers with a lock: `enforce` (the default) fails the plan when a server's tools differ from its lock, with nothing sent; `warn` reports the same differences as a warning and goes on."
  type        = string
  default     = "enforce"
  nullable    = false

  validation {
    condition     = contains(["enforce", "warn"], var.tool_approval_policy)
    error_message = "tool_approval_policy must be \"enforce\" or \"warn\", not \"${var.tool_approval_policy}\"."
  }
}

variable "live_tool_specs" {
  description = <<-EOT
    MCP servers whose tools the module reads at plan with `agentregistry_mcp_tool_spec` and registers, by service id:
    the server's `url`, and optionally, for a server behind OAuth, `oauth_client` (the name of a client of the
    provider's `mcp_oauth_clients`, whose credentials, given by an ephemeral variable or as a workload's token file,
    are kept nowhere) or `oauth` (the client inline, with the data source's attributes: `client_id`,
    `client_secret`, `private_key`, `assertion`, `assertion_file`, `identity_provider`, `scopes`, `audience`,
    `issuer`; its secrets kept in the state, as every argument of a data source is), each passed to the data
    source as it is; and
    `include_tools`, `exclude_tools`, `drop_output_schemas` and `timeout`. Each server is registered with the
    interface `{ url = url, protocol_binding = "JSONRPC" }` unless `mcp_interfaces` names its interfaces, and takes a
    lock from `tool_locks` like any other. A service id may be in only one of `tool_specs_dir`, `tool_specs` and
    this map.
  EOT
  type = map(object({
    url          = string
    oauth_client = optional(string)
    oauth = optional(object({
      client_id      = optional(string)
      client_secret  = optional(string)
      private_key    = optional(string)
      assertion      = optional(string)
      assertion_file = optional(string)
      identity_provider = optional(object({
        issuer         = optional(string)
        token_endpoint = optional(string)
        client_id      = string
        client_secret  = optional(string)
        id_token       = string
      }))
      scopes   = optional(list(string))
      audience = optional(string)
      issuer   = optional(string)
    }))
    include_tools       = optional(list(string))
    exclude_tools       = optional(list(string))
    drop_output_schemas = optional(bool)
    timeout             = optional(string)
  }))
  default  = {}
  nullable = false

  validation {
    condition     = alltrue([for id in keys(var.live_tool_specs) : can(regex("^[a-z][a-z0-9-]{3,62}$", id))])
    error_message = join("\n", concat(["live_tool_specs:"], [for id in sort(keys(var.live_tool_specs)) : "live_tool_specs[\"${id}\"]: \"${id}\" is not a valid service id: 4 to 63 characters of lowercase letters, digits and hyphens, starting with a letter" if !can(regex("^[a-z][a-z0-9-]{3,62}$", id))]))
  }
}

variable "tool_text_policy" {
  description = <<-EOT
    What the text of every MCP server's tools may ask of the model (the `tool_policy` of each
    `agentregistry_mcp_server`, and the cross-server findings of `provider::agentregistry::fleet_tool_findings`
    over everything the module registers): `warn` (the default) reports every finding of medium or high severity
    as a warning; `enforce` fails the plan on a high one, before anything is registered (a tool spec with hidden
    instructions, invisible characters or an exfiltration address, or a tool name confusable with another
    server's); `off` checks nothing. **A platform team should choose `enforce`**: a plan then refuses a poisoned
    tool list on the day it is first registered, which `tool_locks` cannot (a lock approves what it is given),
    while `tool_locks` catches a tool that changes later. The guide *Tool text rules* lists the rules.
  EOT
  type        = string
  default     = "warn"
  nullable    = false

  validation {
    condition     = contains(["warn", "enforce", "off"], var.tool_text_policy)
    error_message = "tool_text_policy must be \"warn\", \"enforce\" or \"off\", not \"${var.tool_text_policy}\"."
  }
}
