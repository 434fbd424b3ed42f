package provider

import (
	"context"
	"maps"
	"regexp"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

var digitsPattern = regexp.MustCompile(`^[0-9]{1,19}$`)

// computedString is a computed attribute that keeps its state value in a
// plan unless ModifyPlan marks it unknown (a new revision or state).
func computedString(desc string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: desc,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
}

func (r *skillResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := skillSourceAttributes()
	maps.Copy(attrs, skillSettingAttributes())
	maps.Copy(attrs, skillComputedAttributes())
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages a standalone skill of the Agent Registry: a folder in the " +
			"[Agent Skills](https://agentskills.io/specification) format (a `SKILL.md` with YAML front matter, plus " +
			"scripts, references and assets), uploaded as a revision of the skill.\n\n" +
			"At plan time the `SKILL.md` front matter is validated (every problem at once, with its line), the folder " +
			"name is checked against `name`, and `content_hash` is computed from a deterministic ZIP of the folder " +
			"(sorted entries, fixed times and modes). Editing any file of the folder plans an in-place update that " +
			"uploads a new revision; the skill itself is replaced only when `skill_id` changes. Symlinks that leave " +
			"the folder are refused, and so are archives over " + strconv.Itoa(skillpkg.MaxArchiveBytes>>20) + " MiB" + ".\n\n" +
			"The bundled server does not scan packages: its revisions report `scan_state = \"DISABLED\"` with a " +
			"message saying so, and never findings.\n\n" + recordCapsDoc,
		Attributes: attrs,
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
	}
}

// skillSourceAttributes are the skill's id and where its package comes from.
func skillSourceAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"skill_id": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "The skill's id: 4 to 64 lower-case letters and hyphens. Changing it forces a new resource.",
			Validators: []validator.String{stringvalidator.RegexMatches(skillIDPattern,
				"must be 4 to 64 lower-case letters and hyphens")},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"source_dir": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "The skill folder on the machine running Terraform; its name must equal the `name` " +
				"in its `SKILL.md`. A new skill needs exactly one of `source_dir` and `gcs_uri`; a skill that already " +
				"exists in the registry (imported, or adopted with `terraform query`) may have neither, and then its " +
				"content stays as the registry has it until one is set.",
			Validators: []validator.String{stringvalidator.ConflictsWith(path.MatchRoot("gcs_uri")), stringvalidator.LengthAtLeast(1)},
		},
		"gcs_uri": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "A Cloud Storage object holding the skill's ZIP or TAR archive, `gs://{bucket}/{object}`, " +
				"read by the registry (not validated at plan, since Terraform does not read it). The bundled server " +
				"cannot read Cloud Storage and refuses it.",
			Validators: []validator.String{stringvalidator.RegexMatches(gcsURIPattern, "must be gs://{bucket}/{object}")},
		},
		"generation": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "The Cloud Storage object generation of `gcs_uri` (decimal); the latest when unset.",
			Validators: []validator.String{stringvalidator.AlsoRequires(path.MatchRoot("gcs_uri")),
				stringvalidator.RegexMatches(digitsPattern, "must be a decimal generation number")},
		},
	}
}

// skillSettingAttributes are the skill's settings in the registry.
func skillSettingAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"target_state": schema.StringAttribute{
			Optional: true, Computed: true, Default: stringdefault.StaticString("ACTIVE"),
			MarkdownDescription: "The state the skill should be in: `DRAFT`, `ACTIVE` (default), `DISABLED`, `DEPRECATED` or `DECOMMISSIONED`.",
			Validators:          []validator.String{stringvalidator.OneOf(skillStates...)},
		},
		"display_name": schema.StringAttribute{
			Optional: true, MarkdownDescription: "A human-readable name, at most 128 characters.",
			Validators: []validator.String{stringvalidator.UTF8LengthBetween(1, 128)},
		},
		"description": schema.StringAttribute{
			Optional: true, MarkdownDescription: "What the skill does, at most 2048 characters (the registry's field; the `SKILL.md` description travels in the package).",
			Validators: []validator.String{stringvalidator.UTF8LengthBetween(1, 2048)},
		},
		"scanning_policy": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "The registry's security scanning policy (`scanningConfig.policy`): `DISABLED`, " +
				"`ENABLED_BLOCKING` (Google's default when unset) or `ENABLED_NONBLOCKING`.",
			Validators: []validator.String{stringvalidator.OneOf(scanningPolicies...)},
		},
	}
}

// skillComputedAttributes are what the registry reports of the skill and its default revision.
func skillComputedAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": computedString("The skill's full name, `projects/{project}/locations/{location}/skills/{skill_id}`."),
		"content_hash": computedString("The SHA-256 (hex) of the deterministic ZIP of `source_dir`, known at plan; " +
			"a change plans a new revision. After a refresh it is the registry's hash of the default revision, so a " +
			"revision uploaded outside Terraform shows as drift."),
		"skill_urn":        computedString("The registry's globally unique logical id of the skill (`skillId` in the API), such as `urn:skill:projects-123:locations:global:pdf-tools` for a skill of a project, or `urn:skill:{publisher namespace}:{skill_id}` for a publisher's (the bundled server writes the project id where Google writes the project number)."),
		"default_revision": computedString("The full name of the revision the skill serves, the newest one uploaded."),
		"revision_sha256":  computedString("The registry's SHA-256 of the default revision's archive."),
		"state":            computedString("The skill's state as the registry reports it (`ACTIVE`, `DRAFT`, ...)."),
		"scan_state":       computedString("The scan state of the default revision (`SUCCEEDED`, `DISABLED`, `RUNNING`, ...)."),
		"scan_message":     computedString("The scan's error message, if any; the bundled server says here that it did not scan."),
		"scan_findings": schema.ListAttribute{
			Computed: true, ElementType: types.StringType,
			MarkdownDescription: "The finding resource names of the default revision's scan.",
			PlanModifiers:       []planmodifier.List{listplanmodifier.UseStateForUnknown()},
		},
	}
}
