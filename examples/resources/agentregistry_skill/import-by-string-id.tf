# The skill's name (or bare skill_id), then a comma and the folder: a local
# path cannot be read back from the registry, so giving it here makes the
# first plan after the import empty.
import {
  to = agentregistry_skill.pdf_forms
  id = "projects/local-project/locations/global/skills/pdf-forms,skills/pdf-forms"
}
