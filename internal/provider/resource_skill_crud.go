package provider

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
)

func encodeArchive(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func (r *skillResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.data == nil {
		missingProviderData(&resp.Diagnostics)
		return
	}
	var plan skillModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel, ok := withTimeout(ctx, plan.Timeouts.Create, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()
	parent := fmt.Sprintf("projects/%s/locations/%s", r.data.Project, r.data.Location)
	rev, err := revisionSource(&plan)
	if err != nil {
		resp.Diagnostics.AddError("Cannot Create Skill", err.Error())
		return
	}
	body := skillBody(&plan)
	body.Name, body.InitialRevision = "", rev
	sk, err := r.data.Client.CreateSkill(ctx, parent, plan.SkillID.ValueString(), body)
	if err != nil {
		resp.Diagnostics.AddError("Cannot Create Skill", apiErrorDetail("create", parent+"/skills/"+plan.SkillID.ValueString(), err))
		return
	}
	resp.Diagnostics.Append(r.refresh(ctx, &plan, sk)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// refresh copies what the registry reports of sk and its default revision
// into m. Configured attributes the registry echoes keep the user's value
// (null stays null when the registry has the empty default).
func (r *skillResource) refresh(ctx context.Context, m *skillModel, sk *agentregistry.Skill) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(sk.Name)
	m.SkillID = types.StringValue(sk.Name[strings.LastIndex(sk.Name, "/")+1:])
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
	if r.data == nil {
		missingProviderData(&resp.Diagnostics)
		return
	}
	var state skillModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	sk, err := r.data.Client.GetSkill(ctx, state.ID.ValueString())
	if registryclient.IsNotFound(err) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot Read Skill", apiErrorDetail("read", state.ID.ValueString(), err))
		return
	}
	known := state.RevisionSHA256
	resp.Diagnostics.Append(r.refresh(ctx, &state, sk)...)
	// A revision uploaded outside Terraform: take its hash as the content,
	// so that the next plan, comparing it with the folder, uploads again.
	if !state.RevisionSHA256.Equal(known) && !state.SourceDir.IsNull() {
		state.ContentHash = state.RevisionSHA256
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *skillResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if r.data == nil {
		missingProviderData(&resp.Diagnostics)
		return
	}
	var plan, state skillModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel, ok := withTimeout(ctx, plan.Timeouts.Update, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()
	name := state.ID.ValueString()
	plan.ID = state.ID
	if newRevision(&plan, &state) {
		rev, err := revisionSource(&plan)
		if err == nil {
			_, err = r.data.Client.CreateSkillRevision(ctx, name, rev)
		}
		if err != nil {
			resp.Diagnostics.AddError("Cannot Upload Skill Revision", apiErrorDetail("upload a new revision of", name, err))
			return
		}
	}
	if mask := skillMask(&plan, &state); len(mask) > 0 {
		if _, err := r.data.Client.UpdateSkill(ctx, skillBody(&plan), mask); err != nil {
			resp.Diagnostics.AddError("Cannot Update Skill", apiErrorDetail("update", name, err))
			return
		}
	}
	sk, err := r.data.Client.GetSkill(ctx, name)
	if err != nil {
		resp.Diagnostics.AddError("Cannot Read Skill", apiErrorDetail("read", name, err))
		return
	}
	resp.Diagnostics.Append(r.refresh(ctx, &plan, sk)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
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
	return mask
}

func (r *skillResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if r.data == nil {
		missingProviderData(&resp.Diagnostics)
		return
	}
	var state skillModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel, ok := withTimeout(ctx, state.Timeouts.Delete, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()
	// force: the skill's revisions belong to it and go with it.
	err := r.data.Client.DeleteSkill(ctx, state.ID.ValueString(), true)
	if err != nil && !registryclient.IsNotFound(err) {
		resp.Diagnostics.AddError("Cannot Delete Skill", apiErrorDetail("delete", state.ID.ValueString(), err))
	}
}
