package provider

// Pinning an MCP server's approved tools: approved_tools holds a
// lock (provider::agentregistry::tool_lock), and every plan compares the tool
// spec with it tool by tool and field by field before anything is sent. The
// comparison and the digest are internal/toollock's.

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsondoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/toollock"
)

// The values of approval_policy; null is enforce.
const (
	approvalEnforce = "enforce"
	approvalWarn    = "warn"
)

// toolDigestDefinition is the digest's definition, as the schema and the
// resource page state it.
const toolDigestDefinition = "the SHA-256, as 64 lowercase hexadecimal digits, of the RFC 8785 (JSON " +
	"Canonicalization Scheme) bytes of the tool object as it stands in `tool_spec`'s `tools` array, with every " +
	"member it has: `name`, `title`, `description`, `inputSchema`, `outputSchema`, `annotations`, `icons`, " +
	"`_meta` and any other"

var toolDigestsAttribute = schema.MapAttribute{
	Computed:    true,
	ElementType: types.StringType,
	MarkdownDescription: "Each tool of `tool_spec` by name, with its digest: " + toolDigestDefinition + ". " +
		"Known at plan time; empty when `tool_spec` is not set. Equal to the `sha256` of the tool in a lock made " +
		"by `provider::agentregistry::tool_lock`, so a module or a policy check can compare a tool with its approval.",
}

func approvedToolsAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		CustomType: jsondoc.Type{},
		Optional:   true,
		MarkdownDescription: "The lock of the tools a team approved, as made by " +
			"`provider::agentregistry::tool_lock` and kept in a reviewed file: `file(\"tools.lock.json\")`. " +
			"At plan time every tool of `tool_spec` must equal its approved definition: a tool that is new, " +
			"missing, or changed in any field (`title`, `description`, `inputSchema`, `outputSchema`, " +
			"`annotations`, `icons`, `_meta`...) is reported in one diagnostic that lists every difference by " +
			"tool and field (texts as approved and as now, schemas by JSON pointer), and under " +
			"`approval_policy = \"enforce\"` the plan fails and nothing is sent to the registry. A lock whose " +
			"digests do not match its definitions (edited by hand) is an error, and so is, under either policy, a " +
			"tool spec or lock the check cannot read (a tool without a digest, such as one holding a number beyond " +
			"the range of a double): the check fails closed. Needs `tool_spec`. Changing it makes no API call.",
		Validators: []validator.String{
			toolLockValidator{},
			stringvalidator.AlsoRequires(path.MatchRoot("tool_spec")),
		},
	}
}

func approvalPolicyAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "What a tool spec that differs from `approved_tools` does to the plan: `enforce` " +
			"(the default) fails it, with nothing sent; `warn` reports the same differences as a warning and " +
			"lets the plan and the apply go on. Ignored without `approved_tools`. Changing it makes no API call.",
		Validators: []validator.String{stringvalidator.OneOf(approvalEnforce, approvalWarn)},
	}
}

// toolDigests is tool_digests for a tool spec: unknown while it is, empty
// without one, null when it does not parse (the validator says why).
func toolDigests(spec jsondoc.Value) types.Map {
	switch {
	case spec.IsUnknown():
		return types.MapUnknown(types.StringType)
	case spec.IsNull():
		return types.MapValueMust(types.StringType, nil)
	}
	digests, err := toollock.Digests([]byte(spec.ValueString()))
	if err != nil {
		return types.MapNull(types.StringType)
	}
	m, _ := types.MapValueFrom(context.Background(), types.StringType, digests)
	return m
}

// approvedToolsPolicy is the MCP server kind's document policy: the tool
// spec is sent as it is, and compared with approved_tools.
type approvedToolsPolicy struct{}

// prepare: nothing is sent in place of the tool spec.
func (approvedToolsPolicy) prepare(context.Context, tfsdk.Config, *mcpServerModel, *diag.Diagnostics) outgoing {
	return outgoing{}
}

// driftNote: the diff of a tool spec says it all.
func (approvedToolsPolicy) driftNote(_, _ *mcpServerModel, _ outgoing, _ *diag.Diagnostics) {}

// verify: at plan and before every write it runs the text gate
// (checkToolText, tool_policy) and compares the tool spec with
// approved_tools. It
// reports nothing on read (the plan that follows does), nor while the spec,
// the lock or the policy is unknown (it runs again before the write). A spec
// or a lock it cannot read is an error under either policy: the validators
// refuse them first, and should one ever pass them, the check fails closed
// rather than let a tool through unchecked.
func (approvedToolsPolicy) verify(_ *providerData, m *mcpServerModel, _ outgoing, onRead bool, diags *diag.Diagnostics) {
	if onRead {
		return
	}
	checkToolText(m, diags)
	if !known(m.ApprovedTools.StringValue) || !known(m.ToolSpec.StringValue) || m.ApprovalPolicy.IsUnknown() {
		return
	}
	diffs, err := compareWithLock(m.ApprovedTools.ValueString(), m.ToolSpec.ValueString())
	if err != nil {
		diags.AddAttributeError(path.Root("approved_tools"), "Cannot Check Approved Tools", "The tool spec could not "+
			"be compared with approved_tools:\n  - "+strings.ReplaceAll(err.Error(), "\n", "\n  - ")+"\n\nWithout "+
			"that comparison no tool can be shown to be the approved one, so the plan stops whatever approval_policy "+
			"says, and nothing was sent to the registry. Expected a tool spec whose every tool has a digest (valid "+
			"JSON under the I-JSON rules: no duplicate key, no unpaired surrogate, no number beyond the range of a "+
			"double) and a lock made by provider::agentregistry::tool_lock. Fix the document named above.")
		return
	}
	if len(diffs) == 0 {
		return
	}
	summary, detail := "MCP Tools Changed Since Approval", describeToolChanges(diffs)
	if m.ApprovalPolicy.ValueString() == approvalWarn {
		diags.AddAttributeWarning(path.Root("tool_spec"), summary, detail+"\n\napproval_policy is \"warn\": the plan "+
			"goes on, and an apply registers the tool spec as it is now. Review the changes; to approve them, make "+
			"the lock again with provider::agentregistry::tool_lock and commit it.")
		return
	}
	diags.AddAttributeError(path.Root("tool_spec"), summary, detail+"\n\nNothing was sent to the registry. If the "+
		"changes are expected, make the lock again with provider::agentregistry::tool_lock, review its diff and "+
		"commit it; if they are not, the MCP server changed its tools after they were approved: find out why "+
		"before registering them. approval_policy = \"warn\" reports the changes without failing the plan.")
}

// compareWithLock lists how a tool spec differs from a lock; the error says
// which of the two cannot be read, and why.
func compareWithLock(lockText, specText string) ([]toollock.Difference, error) {
	lock, err := toollock.Parse([]byte(lockText))
	if err != nil {
		return nil, fmt.Errorf("approved_tools is not a lock of approved tools: %w", err)
	}
	tools, err := toollock.Tools([]byte(specText))
	if err != nil {
		return nil, fmt.Errorf("tool_spec has no digest for its tools: %w", err)
	}
	return toollock.Compare(lock, tools), nil
}

func known(v types.String) bool { return !v.IsNull() && !v.IsUnknown() }

// describeToolChanges is the body of the diagnostic: every difference, one a line.
func describeToolChanges(diffs []toollock.Difference) string {
	tools := map[string]bool{}
	for _, d := range diffs {
		tools[d.Tool] = true
	}
	noun := "tool"
	if len(tools) > 1 {
		noun += "s"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The tool spec differs from the approved tools (approved_tools) in %d %s:", len(tools), noun)
	for _, d := range diffs {
		b.WriteString("\n  - ")
		b.WriteString(d.String())
	}
	return b.String()
}

// verifyUnchanged: with approved_tools, even a plan without
// changes is compared, so that every plan under warn shows the warning; so is
// a tool spec whose text has a finding to report (toolTextNeedsCheck).
func (approvedToolsPolicy) verifyUnchanged(ctx context.Context, _ *providerData, plan tfsdk.Plan, _ tfsdk.Config) bool {
	var lock jsondoc.Value
	plan.GetAttribute(ctx, path.Root("approved_tools"), &lock)
	return !lock.IsNull() || toolTextNeedsCheck(ctx, plan)
}

// toolLockValidator refuses, at validate time, a lock Parse refuses.
type toolLockValidator struct{}

func (toolLockValidator) Description(context.Context) string {
	return "must be a lock made by provider::agentregistry::tool_lock"
}

func (v toolLockValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v toolLockValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := toollock.Parse([]byte(req.ConfigValue.ValueString())); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Tool Lock", fmt.Sprintf(
			"approved_tools is not a lock of approved tools:\n  - %s\n\nExpected the document "+
				"provider::agentregistry::tool_lock makes of a tool spec (usually file(\"tools.lock.json\")). "+
				"Make it again with that function, review it and commit it.",
			strings.ReplaceAll(err.Error(), "\n", "\n  - ")))
	}
}
