package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

var (
	_ datasource.DataSource                     = (*mcpToolSpecDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*mcpToolSpecDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*mcpToolSpecDataSource)(nil)
)

// NewMcpToolSpecDataSource is the agentregistry_mcp_tool_spec data source.
func NewMcpToolSpecDataSource() datasource.DataSource { return &mcpToolSpecDataSource{} }

// mcpToolSpecDataSource needs only the provider's OAuth clients: it never
// talks to the registry, and a tool list has no signatures.
type mcpToolSpecDataSource struct{ liveBase }

type mcpToolSpecDataSourceModel struct {
	URL               types.String `tfsdk:"url"`
	Command           types.List   `tfsdk:"command"`
	Env               types.Map    `tfsdk:"env"`
	InheritEnv        types.List   `tfsdk:"inherit_env"`
	WorkingDir        types.String `tfsdk:"working_dir"`
	Headers           types.Map    `tfsdk:"headers"`
	OAuth             types.Object `tfsdk:"oauth"`
	OAuthClient       types.String `tfsdk:"oauth_client"`
	Timeout           types.String `tfsdk:"timeout"`
	Transport         types.String `tfsdk:"transport"`
	IncludeTools      types.List   `tfsdk:"include_tools"`
	ExcludeTools      types.List   `tfsdk:"exclude_tools"`
	DropOutputSchemas types.Bool   `tfsdk:"drop_output_schemas"`
	JSON              types.String `tfsdk:"json"`
	SHA256            types.String `tfsdk:"sha256"`
	ToolNames         types.List   `tfsdk:"tool_names"`
	ServerName        types.String `tfsdk:"server_name"`
	ServerVersion     types.String `tfsdk:"server_version"`
	ProtocolVersion   types.String `tfsdk:"protocol_version"`
	Findings          types.List   `tfsdk:"findings"`
}

const (
	transportStreamableHTTP = "streamable_http"
	transportSSE            = "sse"
)

func (d *mcpToolSpecDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_mcp_tool_spec"
}

func (d *mcpToolSpecDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := liveAttributes("tool list", "The MCP server's endpoint, such as `https://mcp.example.com/mcp`. "+
		"Exactly one of `url` and `command` is set.")
	addStdioAttributes(attrs)
	addOAuthAttribute(attrs, mcpOAuthUse)
	addOAuthClientAttribute(attrs, "read an MCP server behind OAuth (only with `url`, `https` or `http` on loopback, and "+
		"the Streamable HTTP transport)")
	attrs["transport"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "`streamable_http` (the default: MCP's Streamable HTTP transport) or `sse` (the older " +
			"HTTP+SSE transport of MCP 2024-11-05, for servers that speak only that).",
		Validators: []validator.String{stringvalidator.OneOf(transportStreamableHTTP, transportSSE)},
	}
	patterns := func(description string) schema.ListAttribute {
		return schema.ListAttribute{
			Optional:            true,
			ElementType:         types.StringType,
			MarkdownDescription: description,
			Validators:          []validator.List{toolPatternsValidator()},
		}
	}
	attrs["include_tools"] = patterns("Keep only the tools matching one of these patterns: a tool name, or a name " +
		"prefix followed by one trailing `*` (`files_*`). All tools when unset.")
	attrs["exclude_tools"] = patterns("Then drop the tools matching one of these patterns (names or trailing `*` prefixes).")
	attrs["drop_output_schemas"] = schema.BoolAttribute{
		Optional: true,
		MarkdownDescription: "Remove each tool's `outputSchema`, often the largest part of a tool, to fit the " +
			"registry's 10 KB limit. Defaults to `false`.",
	}
	addLiveDocumentAttributes(attrs, "tool spec", "The tool spec `{\"tools\":[...]}` in RFC 8785 canonical form, "+
		"each tool as the server sent it (after the options above): ready for `agentregistry_mcp_server.tool_spec`.")
	attrs["server_name"] = liveComputed("The server's name, from its `initialize` or `server/discover` answer (`serverInfo.name`).")
	attrs["server_version"] = liveComputed("The server's version, from its `initialize` or `server/discover` answer (`serverInfo.version`).")
	attrs["protocol_version"] = liveComputed("The MCP protocol version used with the server, such as `2026-07-28` " +
		"(stateless: `server/discover`, then `tools/list` with the version in each request's `_meta`) or " +
		"`2025-11-25`, `2025-06-18`, `2025-03-26` (an `initialize` handshake).")
	attrs["tool_names"] = schema.ListAttribute{
		Computed:            true,
		ElementType:         types.StringType,
		MarkdownDescription: "The names of the tools kept, in the server's order.",
	}
	attrs["findings"] = findingsAttribute()
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads the tools an MCP server offers, at plan time: connects with the official " +
			"MCP Go SDK over Streamable HTTP or HTTP+SSE (`url`), or starts the server as a process and speaks MCP " +
			"over its stdin and stdout (`command`, see below); asks `server/discover` (MCP 2026-07-28) or runs " +
			"`initialize` (older versions), then `tools/list` following every `nextCursor`. Feed `json` to " +
			"`agentregistry_mcp_server.tool_spec` and the plan shows any difference between what is registered and " +
			"what runs. The result is validated exactly as `tool_spec` is, with the same messages.\n\n" +
			"A result over the registry's 10 KB limit, after `include_tools`, `exclude_tools` and " +
			"`drop_output_schemas`, is an error that lists the five largest tools. What is read is bounded, so that " +
			"a hostile or broken server costs the plan little: each answer of the server (each event, over an event " +
			"stream) is read up to 1 MiB; the tools kept are collected page by page, after those options, and " +
			"reading stops once they pass 40 KB (four times the registry's limit), with the same list of the largest " +
			"tools; at most 1000 pages are read, and a cursor sent twice stops the reading. Errors say what went wrong: not " +
			"an MCP server (and what came back), a JSON-RPC error (its code, message and data, on one line, 512 characters " +
			"each), a timeout, or refused " +
			"credentials (check `headers`); with `oauth` or `oauth_client`, which step of the OAuth flow failed and what to check. " + liveFailureNote + "\n\n" + stdioNote,
		Attributes: attrs,
	}
}

func (d *mcpToolSpecDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m mcpToolSpecDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	creds := d.oauthCredentials(ctx, m.OAuthClient, m.OAuth, &resp.Diagnostics)
	ctx, secrets := liveSecrets(ctx, m.Headers, m.Env, creds)
	defer func() { resp.Diagnostics = blankDiagnostics(secrets, resp.Diagnostics) }()
	opts := livedoc.ToolSpecOptions{
		Options:           liveOptions(ctx, secrets, m.Headers, m.Timeout, &resp.Diagnostics),
		SSE:               m.Transport.ValueString() == transportSSE,
		DropOutputSchemas: m.DropOutputSchemas.ValueBool(),
		OAuth:             creds,
	}
	resp.Diagnostics.Append(m.IncludeTools.ElementsAs(ctx, &opts.IncludeTools, false)...)
	resp.Diagnostics.Append(m.ExcludeTools.ElementsAs(ctx, &opts.ExcludeTools, false)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ts, source, err := fetchToolSpec(ctx, &m, opts, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if err != nil {
		resp.Diagnostics.AddAttributeError(source, "Cannot Read MCP Tool List", termsafe.Text(err.Error()))
		return
	}
	canon, sum, ok := acceptLiveDocument(ctx, validators.ToolSpec(), ts.JSON, describeSource(ctx, &m, secrets), &resp.Diagnostics)
	if !ok {
		return
	}
	m.JSON, m.SHA256 = types.StringValue(terraformSafe(canon)), types.StringValue(sum)
	m.ToolNames = stringList(ts.ToolNames)
	m.ServerName = types.StringValue(ts.ServerName)
	m.ServerVersion = types.StringValue(ts.ServerVersion)
	m.ProtocolVersion = types.StringValue(ts.ProtocolVersion)
	m.Findings = liveFindings(canon)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// listEntriesValidator refuses, at validate time, each entry of a list of
// strings that check refuses, as the fetcher would at read time.
type listEntriesValidator struct {
	description, summary string
	check                func(string) error
}

func (v listEntriesValidator) Description(context.Context) string { return v.description }

func (v listEntriesValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v listEntriesValidator) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	for i, e := range req.ConfigValue.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		if err := v.check(s.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i), v.summary, fmt.Sprintf("%s: %v.", req.Path, err))
		}
	}
}

// toolPatternsValidator refuses a "*" anywhere but at the end of a pattern,
// or a pattern that would match everything.
func toolPatternsValidator() validator.List {
	const description = "each pattern must be a tool name, or a name prefix followed by one trailing *"
	return listEntriesValidator{description: description, summary: "Invalid Tool Pattern", check: func(p string) error {
		if star := strings.IndexByte(p, '*'); p == "" || p == "*" || (star >= 0 && star != len(p)-1) {
			return fmt.Errorf("%q; %s", p, description)
		}
		return nil
	}}
}
