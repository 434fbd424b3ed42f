# By the skill's full name and its folder:
terraform import agentregistry_skill.pdf_forms 'projects/local-project/locations/global/skills/pdf-forms,skills/pdf-forms'
# By the bare skill_id (the provider's project and location), without a folder:
terraform import agentregistry_skill.pdf_forms pdf-forms
