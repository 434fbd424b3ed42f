package provider

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/cardsig"
)

// The keys the guide makes (openssl, then ssh-keygen, as written), used as
// the guide uses them: the PEM private key in signing_key_wo and
// sign_agent_card, the PEM public key in trusted_keys, public_jwks of either;
// the kid is the key's RFC 7638 thumbprint everywhere. Then the signed card
// is edited in the registry: the plan warns that apply re-signs and re-sends
// it, and after apply the plan is empty again.
func TestAccAgentResource_signingKeyPEMFromTheGuide(t *testing.T) {
	skipUnlessFunctions(t)
	skipUnless(t, capWriteOnly)
	for _, tool := range []string{"openssl", "ssh-keygen"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the guide's key commands need %s", tool)
		}
	}
	r := startRegistry(t)
	h := newCLIHarness(t)
	section := "### Making a signing key"
	for _, dir := range []string{".", "ssh"} {
		script := guideShBlock(t, "register-what-you-deploy", section, 0)
		if dir == "ssh" {
			script = guideShBlock(t, "register-what-you-deploy", section, 1)
		}
		if out, code := h.runGuideScript(t, "make-key-"+strings.Trim(dir, ".")+".sh", "set -e\n"+mkdirCd(dir)+script); code != 0 {
			t.Fatalf("the guide's key commands (%s) failed:\n%s", dir, out)
		}
	}
	pub := h.readFile(t, "agent-signing-key.pub.pem")
	private := h.readFile(t, "agent-signing-key.pem")
	sshKey := h.readFile(t, "ssh/agent-signing-key")
	if !strings.Contains(sshKey, "BEGIN EC PRIVATE KEY") {
		t.Fatalf("ssh-keygen -m PEM did not write a SEC 1 key:\n%.40s", sshKey)
	}
	kid := thumbprintOf(t, pub)
	sshKid := thumbprintOf(t, sshKey)

	h.env = append(h.env, "TF_VAR_signing_key="+private)
	h.write(t, "main.tf", exampleProviders+`
variable "signing_key" {
  type      = string
  sensitive = true
  ephemeral = true
}

provider "agentregistry" {
  endpoint         = "`+r.URL+`"
  project          = "test-project"
  trusted_keys     = file("${path.module}/agent-signing-key.pub.pem")
  signature_policy = "require"
}

locals {
  card = jsonencode(jsondecode(`+hclString(woCard)+`))
}

resource "agentregistry_agent" "signed" {
  service_id             = "pem-agent"
  agent_card             = local.card
  signing_key_wo         = var.signing_key
  signing_key_wo_version = 1
}

output "kids" {
  value = agentregistry_agent.signed.verified_key_ids
}
output "jwks" {
  value = provider::agentregistry::public_jwks(file("${path.module}/agent-signing-key.pub.pem"))
}
output "ssh_signed_kids" {
  value = provider::agentregistry::verify_agent_card(
    nonsensitive(provider::agentregistry::sign_agent_card(local.card, file("${path.module}/ssh/agent-signing-key"), "")),
    provider::agentregistry::public_jwks(file("${path.module}/ssh/agent-signing-key")),
  )
}
`)
	h.mustRun(t, "init", "-input=false")
	h.mustRun(t, "apply", "-auto-approve", "-input=false")
	var outputs map[string]struct{ Value any }
	if err := json.Unmarshal([]byte(h.mustRun(t, "output", "-json")), &outputs); err != nil {
		t.Fatal(err)
	}
	if got := outputs["kids"].Value; !jsonEqual(got, []any{kid}) {
		t.Errorf("verified_key_ids = %v, want [%s] (the thumbprint)", got, kid)
	}
	if got := outputs["ssh_signed_kids"].Value; !jsonEqual(got, []any{sshKid}) {
		t.Errorf("sign_agent_card with the ssh-keygen key verifies as %v, want [%s]", got, sshKid)
	}
	var jwks struct{ Keys []map[string]any }
	if err := json.Unmarshal([]byte(fmt.Sprint(outputs["jwks"].Value)), &jwks); err != nil || len(jwks.Keys) != 1 || jwks.Keys[0]["kid"] != kid {
		t.Errorf("public_jwks = %v (%v), want one key with kid %s", outputs["jwks"].Value, err, kid)
	}
	h.mustExit(t, 0, "plan", "-detailed-exitcode", "-input=false")

	// The signed card edited in the registry, its signatures kept.
	name := testParent + "/services/pem-agent"
	r.editCard(t, name, func(card map[string]any) {
		if card["signatures"] == nil {
			t.Fatal("the registry's card is not signed")
		}
		card["description"] = "Edited outside Terraform."
	})
	out := h.mustExit(t, 2, "plan", "-detailed-exitcode", "-input=false")
	if !containsAll(strings.Join(strings.Fields(out), " "), "Signed Agent Card Changed in the Registry",
		"Apply signs the configured card again with signing_key_wo and sends the signed card") {
		t.Fatalf("the plan does not say that apply re-signs and re-sends the card:\n%s", out)
	}
	h.mustRun(t, "apply", "-auto-approve", "-input=false")
	h.mustExit(t, 0, "plan", "-detailed-exitcode", "-input=false")
	svc, err := r.api.Projects.Locations.Services.Get(name).Do()
	if err != nil {
		t.Fatal(err)
	}
	if kids, err := cardsig.Verify(svc.AgentSpec.Content, []byte(pub), cardsig.PolicyRequire); err != nil || len(kids) != 1 || kids[0] != kid {
		t.Errorf("after apply, the registry's card verifies as %v, %v; want [%s]", kids, err, kid)
	}
}

func mkdirCd(dir string) string {
	if dir == "." {
		return ""
	}
	return "mkdir -p " + dir + " && cd " + dir + "\n"
}

func thumbprintOf(t *testing.T, pemKey string) string {
	t.Helper()
	set, err := cardsig.TrustedKeys([]byte(pemKey))
	if err != nil || len(set.Keys) != 1 {
		t.Fatalf("reading the guide's key: %v", err)
	}
	return set.Keys[0].KeyID
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
