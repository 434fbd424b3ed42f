# A skill folder in the Agent Skills format, next to this configuration.
# SKILL.md is validated at plan time, and content_hash (known at plan) changes
# whenever any file of the folder changes: the next apply uploads a new
# revision in place.
resource "agentregistry_skill" "pdf_forms" {
  skill_id        = "pdf-forms"
  source_dir      = "${path.module}/skills/pdf-forms"
  display_name    = "PDF forms"
  description     = "Fill and merge PDF forms."
  target_state    = "ACTIVE"
  scanning_policy = "ENABLED_BLOCKING"
}

# A package already in Cloud Storage, read by the registry (Google's; the
# bundled server cannot read Cloud Storage).
resource "agentregistry_skill" "from_gcs" {
  skill_id     = "pdf-forms-gcs"
  gcs_uri      = "gs://my-skills/pdf-forms.zip"
  generation   = "1718000000000000"
  target_state = "DRAFT"
}

output "pdf_forms_revision" {
  value = agentregistry_skill.pdf_forms.default_revision
}
