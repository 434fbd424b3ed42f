package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"
)

// NewSkillListResource returns the agentregistry_skill list resource.
func NewSkillListResource() list.ListResource {
	return &skillList{listBase: listBase{resourceBase: resourceBase{naming: skillNaming}, plural: "skills"},
		res: &skillResource{resourceBase{naming: skillNaming}}}
}

type skillList struct {
	listBase
	// res reads each skill's default revision, as Read does.
	res *skillResource
}

var _ list.ListResourceWithConfigure = (*skillList)(nil)

func (l *skillList) Configure(ctx context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.listBase.Configure(ctx, req, resp)
	l.res.Configure(ctx, req, resp)
}

func (l *skillList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = l.listSchema(skillListDescription, "Lists only the skills that match this filter of `skills.list`, "+
		"over the fields the API documents: `state` and `targetState` with `=`, `createTime` and `updateTime` with `=`, `<` "+
		"and `>` (RFC 3339), joined by `AND`, `OR`, `NOT` and parentheses, such as `createTime>\"2026-01-01T00:00:00Z\"`.")
}

const skillListDescription = "Lists the standalone skills of the Agent Registry for `terraform query` (Terraform " +
	"1.14 and later; OpenTofu has no `query` yet): each result has the `agentregistry_skill` identity (`skill_id`, " +
	"`project`, `location`) and the skill's display name, else its id. With `include_resource = true`, or with " +
	"`-generate-config-out`, each result is the resource as a read after an import stores it.\n\n" +
	"The registry cannot give back a skill's folder, so the generated configuration sets neither `source_dir` nor " +
	"`gcs_uri` (both `null`): it is valid, plans only the import, and leaves the skill's content as the registry has " +
	"it. To manage the content, set `source_dir` to the skill's folder; the next plan then updates the skill in place, uploading " +
	"nothing when the folder is the revision the registry serves and a new revision when it differs. See the guide " +
	"*Adopt an existing registry*."

func (l *skillList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	l.run(ctx, req, stream, func(s *listStream, cfg listConfig) error {
		return emitPages(l.data.Client.SkillPages(ctx, cfg.parent, cfg.filter, s.pageSize()), func(sk *agentregistry.Skill) (bool, error) {
			return s.emit(sk.Name, sk.DisplayName, sk, fillFrom(ctx,
				func(m *skillModel) {
					m.ID, m.SkillID = types.StringValue(sk.Name), types.StringValue(lastSegment(sk.Name))
				},
				func(m *skillModel) diag.Diagnostics { return l.res.refresh(ctx, m, sk) })), nil
		})
	})
}
