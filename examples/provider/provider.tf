# Google's managed Agent Registry: Application Default Credentials are used
# when no access_token is given.
provider "agentregistry" {
  project  = "my-project"
  location = "global"
}

# The bundled registry server on loopback (make server, in a clone):
# no credentials are sent to a non-Google endpoint unless access_token is set.
provider "agentregistry" {
  alias    = "local"
  endpoint = "http://127.0.0.1:8787"
  project  = "local-project"
}
