package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/toollock"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

// NewToolLockFunction is provider::agentregistry::tool_lock.
func NewToolLockFunction() function.Function { return toolLockFunction{} }

type toolLockFunction struct{}

func (toolLockFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "tool_lock"
}

func (toolLockFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Makes the lock of approved MCP tools from a tool spec",
		MarkdownDescription: "Makes the lock of an MCP server's approved tools from its tool spec (a `tools/list` " +
			"result, such as the `json` of the `agentregistry_mcp_tool_spec` data source or a file): a JSON " +
			"document that holds, for each tool by name, its definition in RFC 8785 canonical form and the " +
			"SHA-256 of those bytes (the digest `agentregistry_mcp_server` documents for `tool_digests`). " +
			"Save it as `tools.lock.json`, review it in a pull request like `.terraform.lock.hcl`, and pass it " +
			"to `agentregistry_mcp_server.approved_tools`. Its bytes are stable: the same tools, in any key " +
			"order, spacing or number spelling, make the same lock, members sorted and indented by two spaces " +
			"so that a review diff shows each changed field on its own line. A tool spec that is not valid is an " +
			"error that lists its problems.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "tool_spec", MarkdownDescription: "The MCP tool spec, as a JSON string."},
		},
		Return: function.StringReturn{},
	}
}

func (toolLockFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var doc string
	resp.Error = req.Arguments.Get(ctx, &doc)
	if resp.Error != nil {
		return
	}
	// A lock approves tools the registry would accept: the same checks as tool_spec.
	if errs := spec.ValidateToolSpec([]byte(doc)).Errors(); len(errs) > 0 {
		resp.Error = function.NewArgumentFuncError(0, validators.DescribeProblems("MCP Tool Spec", "problem", errs)+
			"\n\nA lock is made of a valid tool spec: fix the spec (or the server it was read from) first.")
		return
	}
	lock, err := toollock.Make([]byte(doc))
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, "Cannot make the tool lock: "+err.Error())
		return
	}
	resp.Error = resp.Result.Set(ctx, string(lock))
}
