# Google's managed Agent Registry: Application Default Credentials are used
# when neither access_token nor credentials is given.
provider "agentregistry" {
  project  = "my-project"
  location = "global"
}

# In CI: a workload identity federation file (no key in it) whose federated
# identity impersonates a deploy service account; the quota project is named.
provider "agentregistry" {
  alias                       = "ci"
  project                     = "my-project"
  location                    = "us-central1"
  credentials                 = "${path.module}/gcp-wif.json"
  impersonate_service_account = "deployer@my-project.iam.gserviceaccount.com"
  billing_project             = "my-project"
  user_project_override       = true
}

# The bundled registry server on loopback (make server, in a clone):
# no credentials are sent to a non-Google endpoint unless access_token is set.
provider "agentregistry" {
  alias    = "local"
  endpoint = "http://127.0.0.1:8787"
  project  = "local-project"
}
