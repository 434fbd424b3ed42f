package provider

// The stdio transport of agentregistry_mcp_tool_spec: an MCP server started
// as a process from `command`, as the alternative to `url`.

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/stdio"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// addStdioAttributes adds command, env and working_dir, and makes url optional.
func addStdioAttributes(attrs map[string]schema.Attribute) {
	u, _ := attrs["url"].(schema.StringAttribute) // liveAttributes' url is a string attribute
	u.Required, u.Optional = false, true
	attrs["url"] = u
	attrs["command"] = schema.ListAttribute{
		Optional:    true,
		ElementType: types.StringType,
		MarkdownDescription: "Starts the MCP server as a process and speaks MCP over its stdin and stdout (the stdio " +
			"transport): the program, then its arguments, such as `[\"npx\", \"-y\", \"@modelcontextprotocol/server-memory\"]`. " +
			"No shell is involved (no `$VAR`, pipes or globs); a program without a slash is looked up in `PATH`. " +
			"Exactly one of `url` and `command` is set.",
		Validators: []validator.List{listvalidator.SizeAtLeast(1)},
	}
	attrs["env"] = schema.MapAttribute{
		Optional:    true,
		Sensitive:   true,
		ElementType: types.StringType,
		MarkdownDescription: "Environment variables set for the process (over any it inherits), such as an API " +
			"token the server needs. Sensitive: never logged nor shown in messages, whether the server prints a value " +
			"on stderr or puts it in a JSON-RPC error. " + blankingNote + " Only with `command`.",
	}
	attrs["inherit_env"] = schema.ListAttribute{
		Optional:    true,
		ElementType: types.StringType,
		MarkdownDescription: "Variables of Terraform's own environment that the process inherits besides the " +
			"default ones, which the MCP SDKs pass (`HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`; on Windows " +
			"`APPDATA`, `HOMEDRIVE`, `HOMEPATH`, `LOCALAPPDATA`, `PATH`, `PATHEXT`, `PROCESSOR_ARCHITECTURE`, " +
			"`PROGRAMFILES`, `SYSTEMDRIVE`, `SYSTEMROOT`, `TEMP`, `USERNAME`, `USERPROFILE`): " +
			"names such as `HTTPS_PROXY`, or name prefixes with one trailing `*` such as `NODE_*`. The provider's " +
			"own credentials are never passed: naming one (`AGENTREGISTRY_ACCESS_TOKEN`, any `AGENTREGISTRY_` " +
			"variable, `GOOGLE_OAUTH_ACCESS_TOKEN`, `GOOGLE_CREDENTIALS`, `GOOGLE_APPLICATION_CREDENTIALS`...) is an " +
			"error, and a prefix drops them from what it matches. Only with `command`.",
		Validators: []validator.List{listvalidator.SizeAtLeast(1), inheritEnvValidator()},
	}
	attrs["working_dir"] = schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "The process's working directory. Defaults to Terraform's. Only with `command`.",
		Validators:          []validator.String{nonEmptyString{}},
	}
}

// stdioNote ends the data source's description: what runs, and when.
const stdioNote = "With `command`, the data source **runs a program on the machine that runs Terraform**, on every " +
	"`plan`, `refresh` and `apply` that reads it (and on every `plan` of a CI job that detects drift): the program " +
	"runs as the user running Terraform, with only a few variables of Terraform's environment (those the MCP SDKs " +
	"pass, and what `inherit_env` names; never the provider's credentials) plus `env`, and can do anything that user " +
	"can. Only name programs you trust, pinned to a version (`npx -y @scope/server@1.2.3`, not `@latest`), and make " +
	"sure CI has them installed (`npx` downloads a package on first use, which needs the npm registry and, behind a " +
	"proxy, `inherit_env = [\"HTTPS_PROXY\", \"NO_PROXY\"]`). The process and every process it starts (its process " +
	"group, on Unix) are stopped as MCP's stdio transport specifies, when the tools are read or when `timeout` passes: " +
	"its stdin is closed; if it is still running 2 seconds later, its group gets SIGTERM; 2 seconds after that, " +
	"SIGKILL. Past `timeout`, the waits are cut short, but a server always has 1 second between SIGTERM and SIGKILL. " +
	"What it writes is bounded: each message on stdout at 1 MiB, all of stdout at 32 MiB, and only the last 2 KiB " +
	"of stderr are kept, quoted in the error when the server exits early, never answers, or writes too much. A " +
	"JSON-RPC error it answers (to `server/discover`, `initialize` or `tools/list`) is quoted on one line, its " +
	"message and its data up to 512 characters each. Errors name the command with its arguments (16 at most, 128 " +
	"characters each)."

func (d *mcpToolSpecDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("url"), path.MatchRoot("command")),
		datasourcevalidator.Conflicting(path.MatchRoot("command"), path.MatchRoot("headers")),
		datasourcevalidator.Conflicting(path.MatchRoot("command"), path.MatchRoot("transport")),
		datasourcevalidator.Conflicting(path.MatchRoot("command"), path.MatchRoot("oauth")),
		datasourcevalidator.Conflicting(path.MatchRoot("command"), path.MatchRoot("oauth_client")),
		datasourcevalidator.Conflicting(path.MatchRoot("oauth"), path.MatchRoot("oauth_client")),
		oauthConfigValidator{},
		datasourcevalidator.Conflicting(path.MatchRoot("url"), path.MatchRoot("env")),
		datasourcevalidator.Conflicting(path.MatchRoot("url"), path.MatchRoot("inherit_env")),
		datasourcevalidator.Conflicting(path.MatchRoot("url"), path.MatchRoot("working_dir")),
	}
}

// fetchToolSpec reads the tools over HTTP (url) or from a process (command);
// source is the attribute an error is reported on.
func fetchToolSpec(ctx context.Context, m *mcpToolSpecDataSourceModel, opts livedoc.ToolSpecOptions, diags *diag.Diagnostics) (*livedoc.ToolSpec, path.Path, error) {
	if m.Command.IsNull() {
		ts, err := livedoc.FetchToolSpec(ctx, m.URL.ValueString(), opts)
		return ts, path.Root("url"), err
	}
	c := stdio.Command{Dir: m.WorkingDir.ValueString()}
	diags.Append(m.Command.ElementsAs(ctx, &c.Args, false)...)
	if !m.Env.IsNull() {
		diags.Append(m.Env.ElementsAs(ctx, &c.Env, false)...)
	}
	diags.Append(m.InheritEnv.ElementsAs(ctx, &c.InheritEnv, false)...)
	if diags.HasError() {
		return nil, path.Root("command"), nil
	}
	ts, err := livedoc.FetchToolSpecCommand(ctx, c, opts)
	return ts, path.Root("command"), err
}

// describeSource names where the tools came from, in validation messages:
// the URL, or the command with its arguments as livedoc's errors show it.
func describeSource(ctx context.Context, m *mcpToolSpecDataSourceModel, secrets *redact.Secrets) string {
	if m.Command.IsNull() {
		return m.URL.ValueString()
	}
	var c stdio.Command
	_ = m.Command.ElementsAs(ctx, &c.Args, false) // read before, in fetchToolSpec
	return "the MCP server started with " + c.Describe(secrets)
}

// nonEmptyString refuses an empty or blank string.
type nonEmptyString struct{}

func (nonEmptyString) Description(context.Context) string { return "must not be empty" }

func (v nonEmptyString) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v nonEmptyString) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || strings.TrimSpace(req.ConfigValue.ValueString()) != "" {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Empty Value",
		fmt.Sprintf("%s %s: expected a directory, found %q.", req.Path, v.Description(ctx), req.ConfigValue.ValueString()))
}

// inheritEnvValidator refuses, with livedoc's words, an entry that is not a
// name or a trailing-* prefix, or that names a credential of the provider.
func inheritEnvValidator() validator.List {
	return listEntriesValidator{summary: "Invalid Inherited Variable",
		description: "each entry must be a variable name, or a name prefix followed by one trailing *, and not a credential of the provider",
		check:       func(p string) error { return stdio.CheckInheritEnv([]string{p}) }}
}
