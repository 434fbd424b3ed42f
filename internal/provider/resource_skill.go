package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

var (
	_ resource.Resource                = (*skillResource)(nil)
	_ resource.ResourceWithConfigure   = (*skillResource)(nil)
	_ resource.ResourceWithImportState = (*skillResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*skillResource)(nil)
	_ resource.ResourceWithIdentity    = (*skillResource)(nil)
)

var (
	skillIDPattern   = regexp.MustCompile(`^[a-z-]{4,64}$`)
	gcsURIPattern    = regexp.MustCompile(`^gs://[a-z0-9][a-z0-9._-]{1,220}/.+`)
	skillStates      = []string{"DRAFT", "ACTIVE", "DISABLED", "DEPRECATED", "DECOMMISSIONED"}
	scanningPolicies = []string{"DISABLED", "ENABLED_BLOCKING", "ENABLED_NONBLOCKING"}
)

// skillNaming: a skill is projects/{project}/locations/{location}/skills/{skill_id}.
var skillNaming = naming{typeSuffix: "skill", collection: "skills", idAttr: "skill_id",
	idPattern: skillIDPattern, idRule: "4 to 64 lower-case letters and hyphens", example: "invoice-review"}

// NewSkillResource returns the agentregistry_skill resource.
func NewSkillResource() resource.Resource { return &skillResource{resourceBase{naming: skillNaming}} }

type skillResource struct{ resourceBase }

type skillModel struct {
	ID              types.String   `tfsdk:"id"`
	SkillID         types.String   `tfsdk:"skill_id"`
	SourceDir       types.String   `tfsdk:"source_dir"`
	GcsURI          types.String   `tfsdk:"gcs_uri"`
	Generation      types.String   `tfsdk:"generation"`
	TargetState     types.String   `tfsdk:"target_state"`
	DisplayName     types.String   `tfsdk:"display_name"`
	Description     types.String   `tfsdk:"description"`
	ScanningPolicy  types.String   `tfsdk:"scanning_policy"`
	ContentHash     types.String   `tfsdk:"content_hash"`
	SkillURN        types.String   `tfsdk:"skill_urn"`
	DefaultRevision types.String   `tfsdk:"default_revision"`
	RevisionSHA256  types.String   `tfsdk:"revision_sha256"`
	State           types.String   `tfsdk:"state"`
	ScanState       types.String   `tfsdk:"scan_state"`
	ScanMessage     types.String   `tfsdk:"scan_message"`
	ScanFindings    types.List     `tfsdk:"scan_findings"`
	Timeouts        timeouts.Value `tfsdk:"timeouts"`
}

// ImportState takes a full skill name, a bare skill_id or an identity. An
// import id may end in ",<source_dir>": the folder cannot be read back from
// the registry, so it may be given with the id to make the plan after an
// import empty.
func (r *skillResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id, dir, hasDir := strings.Cut(req.ID, ",")
	req.ID = id
	n, diags := r.naming.importName(ctx, r.data, req)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), r.naming.format(n))...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("skill_id"), n.ID)...)
	if hasDir {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("source_dir"), dir)...)
	}
	resp.Diagnostics.Append(r.naming.setIdentity(ctx, resp.Identity, n)...)
}

// loadSkill reads and validates the folder at plan (and again at apply, so
// that what is uploaded is what was planned).
func loadSkill(dir string) (*skillpkg.Package, error) {
	return skillpkg.Load(dir)
}

// skillPackageError turns a folder problem into a diagnostic detail.
func skillPackageError(dir string, err error) string {
	var ve *skillpkg.ValidationError
	if errors.As(err, &ve) {
		return fmt.Sprintf("The skill in %s is not valid Agent Skills content (%d problems):\n\n%s\n\n"+
			"See https://agentskills.io/specification for the front matter rules.", dir, ve.Total(), err)
	}
	return fmt.Sprintf("Cannot package the skill in %s: %v", dir, err)
}

func (r *skillResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan, state skillModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if req.State.Raw.IsNull() && plan.SourceDir.IsNull() && plan.GcsURI.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("source_dir"), "Missing Skill Source",
			"A new skill needs its content, and neither source_dir nor gcs_uri is set. Set source_dir to the skill's "+
				"folder (a SKILL.md in the Agent Skills format) or gcs_uri to a ZIP or TAR archive in Cloud Storage. Only "+
				"a skill that already exists in the registry (imported, for example with terraform query) may have "+
				"neither; its content then stays as the registry has it.")
		return
	}
	if !plan.SourceDir.IsNull() && !plan.SourceDir.IsUnknown() {
		pkg, err := loadSkill(plan.SourceDir.ValueString())
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("source_dir"), "Invalid Skill Package", skillPackageError(plan.SourceDir.ValueString(), err))
			return
		}
		plan.ContentHash = types.StringValue(pkg.SHA256)
	} else if plan.SourceDir.IsNull() {
		plan.ContentHash = types.StringNull()
	} else {
		// The folder is known only at apply (it comes from another
		// resource): its hash, and so whether it is a new revision, too.
		plan.ContentHash = types.StringUnknown()
	}
	if req.State.Raw.IsNull() {
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
		return
	}
	if newRevision(&plan, &state) {
		// A new revision is uploaded: what the registry derives from it is
		// known only after apply.
		for _, v := range []*types.String{&plan.DefaultRevision, &plan.RevisionSHA256, &plan.ScanState, &plan.ScanMessage} {
			*v = types.StringUnknown()
		}
		plan.ScanFindings = types.ListUnknown(types.StringType)
	}
	if !plan.TargetState.Equal(state.TargetState) {
		plan.State = types.StringUnknown()
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// newRevision reports whether the plan uploads a new revision: the folder's
// content or the Cloud Storage object changed (a moved folder with the same
// content does not).
// After an import without the folder, state has no content hash: the
// registry's hash of the default revision stands for it.
// Without a source (an adopted skill), there is nothing to upload.
func newRevision(plan, state *skillModel) bool {
	if plan.SourceDir.IsNull() && plan.GcsURI.IsNull() {
		return false
	}
	had := state.ContentHash
	if had.IsNull() && !plan.SourceDir.IsNull() {
		had = state.RevisionSHA256
	}
	return !plan.ContentHash.Equal(had) || !plan.GcsURI.Equal(state.GcsURI) || !plan.Generation.Equal(state.Generation)
}

// revisionSource builds the revision to upload from the plan, and sets
// plan.ContentHash when it was unknown at plan.
func revisionSource(plan *skillModel) (*agentregistry.SkillRevision, error) {
	if plan.SourceDir.IsNull() {
		src := &agentregistry.GcsSource{Uri: plan.GcsURI.ValueString()}
		if g := plan.Generation.ValueString(); g != "" {
			n, err := strconv.ParseInt(g, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("generation %q is not an integer", g)
			}
			src.Generation = n
		}
		return &agentregistry.SkillRevision{GcsSource: src}, nil
	}
	pkg, err := loadSkill(plan.SourceDir.ValueString())
	if err != nil {
		return nil, errors.New(skillPackageError(plan.SourceDir.ValueString(), err))
	}
	if plan.ContentHash.IsUnknown() { // source_dir was unknown at plan
		plan.ContentHash = types.StringValue(pkg.SHA256)
	} else if pkg.SHA256 != plan.ContentHash.ValueString() {
		return nil, fmt.Errorf("the content of %s changed between plan and apply (hash %s, planned %s); run plan again",
			plan.SourceDir.ValueString(), pkg.SHA256, plan.ContentHash.ValueString())
	}
	return registryclient.ArchiveRevision(pkg.Archive), nil
}

// skillBody is the skill's writable fields from the plan.
func skillBody(plan *skillModel) *agentregistry.Skill {
	sk := &agentregistry.Skill{
		Name: plan.ID.ValueString(), Type: "SIMPLE", TargetState: "TARGET_STATE_" + plan.TargetState.ValueString(),
		DisplayName: plan.DisplayName.ValueString(), Description: plan.Description.ValueString(),
	}
	if p := plan.ScanningPolicy.ValueString(); p != "" {
		sk.ScanningConfig = &agentregistry.ScanningConfig{Policy: p}
	}
	return sk
}
