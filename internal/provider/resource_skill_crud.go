package provider

import (
	"context"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"
)

func (r *skillResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := load[skillModel](ctx, &r.resourceBase, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	ctx, cancel := withDeadline(ctx, plan.Timeouts.Create, &resp.Diagnostics)
	defer cancel()
	rev, err := revisionSource(plan)
	if err != nil {
		resp.Diagnostics.AddError("Cannot Create Skill", err.Error())
		return
	}
	body := skillBody(plan)
	body.Name, body.InitialRevision = "", rev
	name := recordName{Project: r.data.Project, Location: r.data.Location, ID: plan.SkillID.ValueString()}
	sk, err := r.data.Client.CreateSkill(ctx, name.parent(), name.ID, body)
	if err != nil {
		resp.Diagnostics.AddError("Cannot Create Skill", apiErrorDetail("create", r.naming.format(name), err))
		return
	}
	resp.Diagnostics.Append(r.refresh(ctx, plan, sk)...)
	r.save(ctx, &resp.State, resp.Identity, plan, sk.Name, &resp.Diagnostics)
}

// refresh copies what the registry reports of sk and its default revision
// into m. Configured attributes the registry echoes keep the user's value
// (null stays null when the registry has the empty default).
func (r *skillResource) refresh(ctx context.Context, m *skillModel, sk *agentregistry.Skill) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(sk.Name)
	m.SkillID = types.StringValue(lastSegment(sk.Name))
	m.SkillURN = types.StringValue(sk.SkillId)
	m.DisplayName = optionalString(sk.DisplayName)
	m.Description = optionalString(sk.Description)
	m.TargetState = types.StringValue(strings.TrimPrefix(sk.TargetState, "TARGET_STATE_"))
	m.State = types.StringValue(strings.TrimPrefix(sk.State, "STATE_"))
	m.ScanningPolicy = types.StringNull()
	if sk.ScanningConfig != nil && sk.ScanningConfig.Policy != "" && sk.ScanningConfig.Policy != "POLICY_UNSPECIFIED" {
		m.ScanningPolicy = types.StringValue(sk.ScanningConfig.Policy)
	}
	m.DefaultRevision = types.StringValue(sk.DefaultRevision)
	m.RevisionSHA256, m.ScanState, m.ScanMessage = types.StringValue(""), types.StringValue(""), types.StringValue("")
	m.ScanFindings = types.ListValueMust(types.StringType, nil)
	if sk.DefaultRevision == "" {
		return diags
	}
	rev, err := r.data.Client.GetSkillRevision(ctx, sk.DefaultRevision)
	if err != nil {
		diags.AddError("Cannot Read Skill Revision", apiErrorDetail("read", sk.DefaultRevision, err))
		return diags
	}
	if !withinRecordCaps(&diags, sk.DefaultRevision, rev) {
		return diags
	}
	m.RevisionSHA256 = types.StringValue(rev.Sha256Hash)
	if m.ContentHash.IsNull() || m.ContentHash.IsUnknown() {
		if m.SourceDir.IsNull() {
			m.ContentHash = types.StringNull()
		} else {
			m.ContentHash = types.StringValue(rev.Sha256Hash)
		}
	}
	if sr := rev.ScanResult; sr != nil {
		m.ScanState, m.ScanMessage = types.StringValue(sr.ScanState), types.StringValue(sr.ErrorMessage)
		var d diag.Diagnostics
		m.ScanFindings, d = types.ListValueFrom(ctx, types.StringType, sr.Findings)
		diags.Append(d...)
		if m.ScanFindings.IsNull() {
			m.ScanFindings = types.ListValueMust(types.StringType, nil)
		}
	}
	return diags
}

func (r *skillResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := load[skillModel](ctx, &r.resourceBase, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	sk, ok := readOrForget(ctx, &r.resourceBase, resp, "Skill", state.ID.ValueString(), r.data.Client.GetSkill)
	if !ok {
		return
	}
	known := state.RevisionSHA256
	resp.Diagnostics.Append(r.refresh(ctx, state, sk)...)
	// A revision uploaded outside Terraform: take its hash as the content,
	// so that the next plan, comparing it with the folder, uploads again.
	if !state.RevisionSHA256.Equal(known) && !state.SourceDir.IsNull() {
		state.ContentHash = state.RevisionSHA256
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

func (r *skillResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, state, ok := loadPair[skillModel](ctx, &r.resourceBase, req.Plan, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	ctx, cancel := withDeadline(ctx, plan.Timeouts.Update, &resp.Diagnostics)
	defer cancel()
	name := state.ID.ValueString()
	plan.ID = state.ID
	if newRevision(plan, state) {
		rev, err := revisionSource(plan)
		if err == nil {
			_, err = r.data.Client.CreateSkillRevision(ctx, name, rev)
		}
		if err != nil {
			resp.Diagnostics.AddError("Cannot Upload Skill Revision", apiErrorDetail("upload a new revision of", name, err))
			return
		}
	}
	if mask := skillMask(plan, state); len(mask) > 0 {
		if _, err := r.data.Client.UpdateSkill(ctx, skillBody(plan), mask); err != nil {
			resp.Diagnostics.AddError("Cannot Update Skill", apiErrorDetail("update", name, err))
			return
		}
	}
	sk, err := r.data.Client.GetSkill(ctx, name)
	if err != nil {
		resp.Diagnostics.AddError("Cannot Read Skill", apiErrorDetail("read", name, err))
		return
	}
	resp.Diagnostics.Append(r.refresh(ctx, plan, sk)...)
	r.save(ctx, &resp.State, resp.Identity, plan, sk.Name, &resp.Diagnostics)
}

// skillMask lists the skill fields whose planned value differs from state.
func skillMask(plan, state *skillModel) []string {
	var mask []string
	for field, eq := range map[string]bool{
		"displayName":    plan.DisplayName.Equal(state.DisplayName),
		"description":    plan.Description.Equal(state.Description),
		"targetState":    plan.TargetState.Equal(state.TargetState),
		"scanningConfig": plan.ScanningPolicy.Equal(state.ScanningPolicy),
	} {
		if !eq {
			mask = append(mask, field)
		}
	}
	slices.Sort(mask) // map order is random; the mask is not
	return mask
}

func (r *skillResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := load[skillModel](ctx, &r.resourceBase, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	ctx, cancel := withDeadline(ctx, state.Timeouts.Delete, &resp.Diagnostics)
	defer cancel()
	// force: the skill's revisions belong to it and go with it.
	name := state.ID.ValueString()
	reportDelete(&resp.Diagnostics, "Skill", name, r.data.Client.DeleteSkill(ctx, name, true))
}
