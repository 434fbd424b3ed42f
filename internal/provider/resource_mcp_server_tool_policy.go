package provider

// The text gate of agentregistry_mcp_server: tool_policy decides what the
// findings of internal/tooltext (what a tool's text asks of the model) do to
// a plan. The findings are computed on every plan, never stored: the lock of
// approved tools (approved_tools) records nothing new.

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
	"github.com/agentregistry/terraform-provider-agentregistry/internal/tooltext"
)

// The values of tool_policy; null is warn.
const (
	toolPolicyWarn    = "warn"
	toolPolicyEnforce = "enforce"
	toolPolicyOff     = "off"
)

// maxFindingsListed bounds the lines of one diagnostic; the rest are counted.
const maxFindingsListed = 50

func toolPolicyAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "What the text of `tool_spec` may ask of the model, checked at every plan by the rules " +
			"of `provider::agentregistry::tool_findings` (hidden instructions, invisible characters, secret files, " +
			"exfiltration sinks, shadowing, contradicted annotations, schema smuggling, preference manipulation, " +
			"padding; the guide *Tool text rules* lists them): `warn` (the default) reports every medium or high " +
			"finding as a warning naming the tool, the JSON pointer of the text and the rule; `enforce` fails the plan " +
			"on a high finding, before anything is sent to the registry (medium ones warn), and fails it too when the " +
			"spec cannot be read at all; `off` checks nothing. Findings are computed, never stored, and never change " +
			"`approved_tools`' lock. Changing it makes no API call.",
		Validators: []validator.String{stringvalidator.OneOf(toolPolicyWarn, toolPolicyEnforce, toolPolicyOff)},
	}
}

// toolPolicyOf is the policy a model asks for; "" while it is unknown.
func toolPolicyOf(v types.String) string {
	switch {
	case v.IsUnknown():
		return ""
	case v.IsNull():
		return toolPolicyWarn
	}
	return v.ValueString()
}

// checkToolText is the text gate: at plan and before every write. It checks
// nothing while the spec or the policy is unknown (it runs again before the
// write), nor under off.
func checkToolText(m *mcpServerModel, diags *diag.Diagnostics) {
	policy := toolPolicyOf(m.ToolPolicy)
	if policy == "" || policy == toolPolicyOff || !known(m.ToolSpec.StringValue) {
		return
	}
	findings, err := tooltext.Analyze([]byte(m.ToolSpec.ValueString()))
	if err != nil {
		// Under enforce the gate fails closed. Under warn it adds nothing:
		// the tool_spec validator refuses the same document with an error.
		if policy == toolPolicyEnforce {
			diags.AddAttributeError(path.Root("tool_spec"), "Cannot Check Tool Text", cannotCheckToolText(err)+
				"\n\ntool_policy is \"enforce\": the plan stops, and nothing was sent to the registry.")
		}
		return
	}
	var high, medium []tooltext.Finding
	for _, f := range findings {
		switch f.Severity {
		case tooltext.High:
			high = append(high, f)
		case tooltext.Medium:
			medium = append(medium, f)
		}
	}
	if policy == toolPolicyEnforce && len(high) > 0 {
		diags.AddAttributeError(path.Root("tool_spec"), "MCP Tool Text Asks Too Much of the Model",
			describeFindings(high)+"\n\ntool_policy is \"enforce\": the plan stops on a high finding, and nothing was "+
				"sent to the registry. Find out why the server's tools say this before registering them; "+
				"provider::agentregistry::tool_findings shows every finding, and the guide \"Tool text rules\" says "+
				"what each rule looks for.")
		high = nil
	}
	if warn := append(high, medium...); len(warn) > 0 {
		diags.AddAttributeWarning(path.Root("tool_spec"), "MCP Tool Text Findings", describeFindings(warn)+
			"\n\nThe plan goes on (tool_policy is \""+policy+"\"; \"enforce\" fails it on a high finding). "+
			"The guide \"Tool text rules\" says what each rule looks for.")
	}
}

// describeFindings lists findings one a line: the tool, where, the rule.
func describeFindings(fs []tooltext.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The text of tool_spec has %d finding(s):", len(fs))
	for i, f := range fs {
		if i == maxFindingsListed {
			fmt.Fprintf(&b, "\n  - and %d more", len(fs)-i)
			break
		}
		// The tool's name is already escaped (tooltext.Finding.Tool).
		fmt.Fprintf(&b, "\n  - tool \"%s\", %s (%s), rule %s (%s): %s", f.Tool, fieldOf(f.Pointer), f.Pointer, f.Rule,
			f.Severity, f.Message)
	}
	return b.String()
}

// fieldOf is the field of a tool a pointer is in: what follows /tools/N/.
func fieldOf(pointer string) string {
	parts := strings.SplitN(pointer, "/", 4)
	if len(parts) < 4 {
		return "the tool"
	}
	return parts[3]
}

// toolTextNeedsCheck tells whether an unchanged plan must run the gate: a
// spec with a finding of medium or high severity is reported on every plan,
// as approved_tools' differences are.
func toolTextNeedsCheck(ctx context.Context, plan tfsdk.Plan) bool {
	var spec jsondoc.Value
	var policy types.String
	plan.GetAttribute(ctx, path.Root("tool_spec"), &spec)
	plan.GetAttribute(ctx, path.Root("tool_policy"), &policy)
	if p := toolPolicyOf(policy); p == "" || p == toolPolicyOff || !known(spec.StringValue) {
		return false
	}
	findings, err := tooltext.Analyze([]byte(spec.ValueString()))
	if err != nil {
		return true
	}
	for _, f := range findings {
		if f.Severity >= tooltext.Medium {
			return true
		}
	}
	return false
}
