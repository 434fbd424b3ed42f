# Every standalone skill. The generated configuration has neither source_dir
# nor gcs_uri: set source_dir to the skill's folder to manage its content.
list "agentregistry_skill" "all" {
  provider = agentregistry
}
