package provider

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/tooltext"
)

// fleetToolFindingModel is one finding of fleet_tool_findings.
type fleetToolFindingModel struct {
	ServiceID string `tfsdk:"service_id"`
	toolFindingModel
}

var fleetToolFindingObject = modelOf[fleetToolFindingModel]()

// NewFleetToolFindingsFunction is provider::agentregistry::fleet_tool_findings.
func NewFleetToolFindingsFunction() function.Function { return fleetToolFindingsFunction{} }

type fleetToolFindingsFunction struct{}

func (fleetToolFindingsFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "fleet_tool_findings"
}

func (fleetToolFindingsFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Judges the tool specs of a fleet of MCP servers together: tool_findings, and the cross-server findings",
		MarkdownDescription: "Runs `tool_findings` over every tool spec of a map (service id to tool spec, as JSON " +
			"strings) and adds what one document cannot show: a tool name equal to another server's " +
			"(`fleet-duplicate-name`, low: common between honest servers of one domain), a tool name that differs " +
			"from another server's but looks the same, its UTS #39 skeleton equal (`fleet-confusable-name`, high), " +
			"and a tool's text naming a tool that only another server has (`fleet-cross-server-reference`, medium: " +
			"the shape of a shadowing attack). Each finding has `service_id` besides the fields of `tool_findings`. " +
			toolFindingsDescription + " Findings are in service id order. A spec that cannot be read is an error " +
			"naming its service id.",
		Parameters: []function.Parameter{
			function.MapParameter{Name: "tool_specs", ElementType: types.StringType,
				MarkdownDescription: "The tool specs by service id, as JSON strings."},
		},
		Return: function.ListReturn{ElementType: fleetToolFindingObject.ObjectType()},
	}
}

func (fleetToolFindingsFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var docs map[string]string
	resp.Error = req.Arguments.Get(ctx, &docs)
	if resp.Error != nil {
		return
	}
	specs := make(map[string][]byte, len(docs))
	for id, d := range docs {
		specs[id] = []byte(d)
	}
	findings, err := tooltext.AnalyzeFleet(specs)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, cannotCheckToolText(err))
		return
	}
	out := make([]fleetToolFindingModel, 0, len(findings))
	for _, f := range findings {
		out = append(out, fleetToolFindingModel{ServiceID: f.ServiceID, toolFindingModel: toolFindingOf(f.Finding)})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ServiceID < out[j].ServiceID })
	resp.Error = resp.Result.Set(ctx, fleetToolFindingObject.List(out))
}
