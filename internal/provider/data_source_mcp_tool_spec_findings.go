package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/tooltext"
)

// findingsAttribute is agentregistry_mcp_tool_spec's findings: what
// tool_findings finds in the tool spec read live.
func findingsAttribute() schema.ListAttribute {
	return schema.ListAttribute{
		Computed:    true,
		ElementType: toolFindingObject.ObjectType(),
		MarkdownDescription: "What `provider::agentregistry::tool_findings` finds in `json`, the tool spec as read: " +
			"hidden instructions, invisible characters, secret files, exfiltration sinks and the other rules of the " +
			"guide *Tool text rules*, every severity included, so that a drift job or a module can gate on them " +
			"(`[for f in data.agentregistry_mcp_tool_spec.x.findings : f if f.severity == \"high\"]`). " +
			toolFindingsDescription,
	}
}

// liveFindings is findings for the canonical tool spec just read (valid: the
// validator accepted it, so the analysis can read it; an error would leave
// the list empty, never a finding invented).
func liveFindings(canon []byte) types.List {
	findings, err := tooltext.Analyze(canon)
	out := make([]toolFindingModel, 0, len(findings))
	if err == nil {
		for _, f := range findings {
			out = append(out, toolFindingOf(f))
		}
	}
	return toolFindingObject.List(out)
}
