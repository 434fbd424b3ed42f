package searchquery

// Skills is the schema of skills:search (the registry's standalone skills):
// the skill's id, resource name, display name and description, and the
// front matter of its default revision.
var Skills = NewSchema("skills",
	[]string{"skillId", "name", "displayName", "description", "frontmatter.name", "frontmatter.description",
		"frontmatter.license", "frontmatter.compatibility", "frontmatter.metadata"},
	map[string][]string{"frontmatter": {"frontmatter.name", "frontmatter.description", "frontmatter.license",
		"frontmatter.compatibility", "frontmatter.metadata"}},
	[]string{"skillId", "displayName", "description", "frontmatter.name", "frontmatter.description", "frontmatter.metadata"})
