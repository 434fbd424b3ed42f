package provider

// The end-to-end proof of adoption with the real CLI (Terraform 1.14+; skipped
// with the reason on OpenTofu, which has no `query`): a registry populated
// outside Terraform, `terraform query -generate-config-out`, a plan that only
// imports, one apply, and an empty plan after it; then a change made behind
// Terraform's back shows as drift, and a skill given its folder plans an
// update that uploads nothing.

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/registryservertest"
)

// requires skips the test, with the reason, unless the harness's CLI has the capability.
func (h *cliHarness) requires(t *testing.T, c cliCapability) {
	t.Helper()
	if ok, why := c.supportedBy(cliFlavour(), cliVersion(t, h)); !ok {
		t.Skip(why)
	}
}

// cliVersion is the version of the harness's CLI.
func cliVersion(t *testing.T, h *cliHarness) *version.Version {
	t.Helper()
	out, err := exec.Command(h.bin, "version", "-json").Output()
	var v struct {
		Version string `json:"terraform_version"`
	}
	// OpenTofu may print a warning about the CLI configuration before the JSON.
	if i := strings.IndexByte(string(out), '{'); i > 0 {
		out = out[i:]
	}
	if err != nil || json.Unmarshal(out, &v) != nil {
		t.Fatalf("%s version -json: %v %s", h.bin, err, out)
	}
	return version.Must(version.NewVersion(v.Version))
}

// adoptQuery lists every kind of the registry seedAdoptable fills.
const adoptQuery = `
list "agentregistry_agent" "agents" {
  provider = agentregistry
}
list "agentregistry_mcp_server" "mcp" {
  provider = agentregistry
}
list "agentregistry_endpoint" "endpoints" {
  provider = agentregistry
}
list "agentregistry_binding" "bindings" {
  provider = agentregistry
}
list "agentregistry_skill" "skills" {
  provider = agentregistry
}
`

func TestAccListResources_adoptWithGeneratedConfig(t *testing.T) {
	r := startRegistry(t)
	h := newCLIHarness(t)
	h.requires(t, capQuery)
	seedAdoptable(t, r)
	h.write(t, "main.tf", exampleProviders+r.config(""))
	h.write(t, "adopt.tfquery.hcl", adoptQuery)
	h.mustRun(t, "init", "-input=false")
	r.srv.ResetRequests()

	h.mustRun(t, "query", "-generate-config-out=generated.tf")
	generated, err := os.ReadFile(filepath.Join(h.dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`agent_card\s+= jsonencode\(\{`, `tool_spec\s+= jsonencode\(\{`, `service_id\s+= "legacy-agent"`,
		`binding_id\s+= "planner-files"`, `skill_id\s+= "pdf-tools"`} {
		if !regexp.MustCompile(want).Match(generated) {
			t.Errorf("generated.tf lacks %s:\n%s", want, generated)
		}
	}
	if n, want := strings.Count(string(generated), "import {"), 9; n != want {
		t.Errorf("generated.tf has %d import blocks, want %d:\n%s", n, want, generated)
	}
	// The query file is the input of `terraform query` only: plan reads main.tf and generated.tf.
	out := h.mustExit(t, 2, "plan", "-detailed-exitcode", "-input=false")
	if !strings.Contains(out, "Plan: 9 to import, 0 to add, 0 to change, 0 to destroy.") {
		t.Fatalf("the plan of the generated configuration must only import:\n%s", out)
	}
	out = h.mustRun(t, "apply", "-auto-approve", "-input=false")
	if !strings.Contains(out, "Apply complete! Resources: 9 imported, 0 added, 0 changed, 0 destroyed.") {
		t.Fatalf("apply:\n%s", out)
	}
	r.expectNoWrites(t)
	h.mustRun(t, "plan", "-detailed-exitcode", "-input=false")

	// Drift detection as usual: a display name changed outside Terraform.
	if _, err := r.api.Projects.Locations.Services.Patch(testParent+"/services/billing-api",
		&agentregistry.Service{DisplayName: "Billing (renamed)"}).UpdateMask("displayName").Do(); err != nil {
		t.Fatal(err)
	}
	out = h.mustExit(t, 2, "plan", "-detailed-exitcode", "-input=false")
	if !regexp.MustCompile(`~ display_name\s+= "Billing \(renamed\)" -> "Billing API"`).MatchString(out) {
		t.Errorf("the plan after a change outside Terraform must show it:\n%s", out)
	}
}

// The generated skill has neither source_dir nor gcs_uri; given the folder
// whose content the registry serves, the next plan updates it in place and
// the apply uploads nothing.
func TestAccListResources_adoptedSkillTakesItsFolder(t *testing.T) {
	r := startRegistry(t)
	h := newCLIHarness(t)
	h.requires(t, capQuery)
	seedStandaloneSkill(t, r, "pdf-tools", "Fills PDF forms.")
	h.write(t, "main.tf", exampleProviders+r.config(""))
	h.write(t, "adopt.tfquery.hcl", `
list "agentregistry_skill" "skills" {
  provider = agentregistry
}
`)
	h.mustRun(t, "init", "-input=false")
	h.mustRun(t, "query", "-generate-config-out=generated.tf")
	h.mustRun(t, "apply", "-auto-approve", "-input=false")
	h.mustRun(t, "plan", "-detailed-exitcode", "-input=false")

	dir := filepath.Join(h.dir, "skills", "pdf-tools")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	h.write(t, "skills/pdf-tools/SKILL.md", "---\nname: pdf-tools\ndescription: Fills PDF forms.\n---\n")
	generated, err := os.ReadFile(filepath.Join(h.dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	// What the docs say to do: set source_dir, which the generated configuration writes as null.
	sourceDir := regexp.MustCompile(`(?m)^  source_dir\s+= null$`)
	if !sourceDir.Match(generated) {
		t.Fatalf("generated.tf has no source_dir = null line:\n%s", generated)
	}
	// An absolute folder: the provider runs in this process, not in the CLI's working folder.
	h.write(t, "generated.tf", sourceDir.ReplaceAllLiteralString(string(generated), "  source_dir = "+hclString(dir)))
	out := h.mustExit(t, 2, "plan", "-detailed-exitcode", "-input=false")
	if !strings.Contains(out, "Plan: 0 to add, 1 to change, 0 to destroy.") || !strings.Contains(out, "+ source_dir") {
		t.Fatalf("adding the folder must plan one in-place update:\n%s", out)
	}
	r.srv.ResetRequests()
	h.mustRun(t, "apply", "-auto-approve", "-input=false")
	r.expectNoWrites(t) // the folder is the revision the registry serves
	h.mustRun(t, "plan", "-detailed-exitcode", "-input=false")
}

// Bad input through Terraform: each is an error of the list block, in the
// provider's words (a negative limit in Terraform's: it refuses one before
// the provider sees it), and nothing is written.
func TestAccListResources_badInput(t *testing.T) {
	r := startRegistry(t)
	seedAdoptable(t, r)
	r.srv.ResetRequests()
	r.srv.InjectFault(registryservertest.Fault{PathContains: "/projects/no-such-project/", Status: http.StatusNotFound})
	step := func(list, want string) resource.TestStep {
		return resource.TestStep{Query: true, Config: list, ExpectError: regexp.MustCompile(want)}
	}
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   requires(capQuery),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{Config: r.config("")},
			step(`list "agentregistry_agent" "bad" {
  provider = agentregistry
  config {
    filter = "color:blue"
  }
}`, `(?s)Invalid List Filter.*unknown field "color"`),
			step(`list "agentregistry_agent" "bad" {
  provider = agentregistry
  config {
    query = "skills.colour:red"
  }
}`, `(?s)Invalid Search Query.*skills.colour`),
			step(`list "agentregistry_mcp_server" "bad" {
  provider = agentregistry
  config {
    query = "`+strings.TrimSpace(strings.Repeat("w ", 65))+`"
  }
}`, `(?s)Invalid Search Query.*64`),
			step(`list "agentregistry_endpoint" "bad" {
  provider = agentregistry
  limit    = -1
}`, `Invalid limit argument`),
			step(`list "agentregistry_binding" "bad" {
  provider = agentregistry
  config {
    project = "no-such-project"
  }
}`, `(?s)Registry Location Not Found.*projects/no-such-project/locations/global`),
		},
	})
	r.expectNoWrites(t)
}
