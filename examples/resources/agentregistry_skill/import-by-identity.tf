# Terraform 1.12+ or OpenTofu 1.12+: import by the resource identity.
import {
  to = agentregistry_skill.pdf_forms
  identity = {
    skill_id = "pdf-forms"
    # project  = "my-project" # optional: the provider's project
    # location = "global"     # optional: the provider's location
  }
}
