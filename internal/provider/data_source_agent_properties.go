package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

var (
	_ datasource.DataSource              = (*agentPropertiesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*agentPropertiesDataSource)(nil)
)

// NewAgentPropertiesDataSource is the agentregistry_agent_properties data source.
func NewAgentPropertiesDataSource() datasource.DataSource { return &agentPropertiesDataSource{} }

type agentPropertiesDataSource struct{ dataSourceBase }

type agentPropertiesDataSourceModel struct {
	Workload       types.String `tfsdk:"workload"`
	Exists         types.Bool   `tfsdk:"exists"`
	PropertiesJSON types.String `tfsdk:"properties_json"`
	DisplayName    types.String `tfsdk:"display_name"`
	Description    types.String `tfsdk:"description"`
	Version        types.String `tfsdk:"version"`
	Framework      types.String `tfsdk:"framework"`
	AgentCardURI   types.String `tfsdk:"agent_card_uri"`
	Skills         types.List   `tfsdk:"skills"`
}

// agentPropertiesDoc is the AgentProperties document (its draft-07 schema
// names these fields and no others).
type agentPropertiesDoc struct {
	DisplayName  string       `json:"displayName"`
	Description  string       `json:"description"`
	Version      string       `json:"version"`
	Framework    string       `json:"framework"`
	AgentCardURI string       `json:"agentCardUri"`
	Skills       []spec.Skill `json:"skills"`
}

func (d *agentPropertiesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_properties"
}

func (d *agentPropertiesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads the `apphub.googleapis.com/AgentProperties` entry of an App Hub workload: the " +
			"document as canonical JSON (RFC 8785) and its fields, typed. It works against Google's App Hub, which fills " +
			"the entry itself and serves it read-only (the `agentregistry_agent_properties` resource cannot write there), " +
			"and against the bundled server. A workload without the entry reads with `exists = false`; a missing " +
			"workload is an error.\n\n" + resultCapsDoc,
		Attributes: map[string]schema.Attribute{
			"workload": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The workload, `projects/{project}/locations/{location}/applications/{application}/workloads/{workload}`.",
				Validators: []validator.String{stringvalidator.RegexMatches(workloadNamePattern,
					"must be projects/{project}/locations/{location}/applications/{application}/workloads/{workload}")},
			},
			"exists":          schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the workload has an AgentProperties entry."},
			"properties_json": str("The entry as canonical JSON (RFC 8785: sorted keys, no spacing); null without an entry. `jsondecode` it for the whole document."),
			"display_name":    str("`displayName`; null when absent."),
			"description":     str("`description`; null when absent."),
			"version":         str("`version`; null when absent."),
			"framework":       str("`framework`, what the agent is built with; null when absent."),
			"agent_card_uri":  str("`agentCardUri`, where the agent's A2A card is served; null when absent."),
			"skills":          dsSkillsNestedAttribute("The entry's `skills`, in order; empty without an entry."),
		},
	}
}

func (d *agentPropertiesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m agentPropertiesDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !d.configured(&resp.Diagnostics) {
		return
	}
	name := m.Workload.ValueString()
	w, err := d.data.Client.GetWorkload(ctx, name)
	if registryclient.IsNotFound(err) {
		resp.Diagnostics.AddError("Workload Not Found", fmt.Sprintf("App Hub has no workload %q. Check the name.", name))
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot Read Workload", apiErrorDetail("read", name, err))
		return
	}
	entry := agentPropertiesEntry(w)
	var doc agentPropertiesDoc
	if entry != nil {
		canon, err := jsoncanon.Canonical(entry)
		if err == nil {
			err = json.Unmarshal(entry, &doc)
		}
		if err != nil {
			resp.Diagnostics.AddError("Unreadable Agent Properties", fmt.Sprintf("The AgentProperties entry of %s is not a "+
				"document this provider can read: %v.", name, err))
			return
		}
		m.PropertiesJSON = types.StringValue(string(canon))
	} else {
		m.PropertiesJSON = types.StringNull()
	}
	m.Exists = types.BoolValue(entry != nil)
	m.DisplayName, m.Description, m.Version = optionalString(doc.DisplayName), optionalString(doc.Description), optionalString(doc.Version)
	m.Framework, m.AgentCardURI = optionalString(doc.Framework), optionalString(doc.AgentCardURI)
	skills := flattenSkills(doc.Skills)
	if !withinResultCaps(&resp.Diagnostics, "the AgentProperties of "+name, skills, "") {
		return
	}
	m.Skills = a2aSkills.List(skills)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
