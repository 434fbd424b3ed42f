package provider

// Resource identity on every resource, through the CLI under test: the
// identity in state after create, import by id (command and block) and by
// identity, adoption of records created outside Terraform with an import
// block that names only the id, and a state written without identity gaining
// it on the next refresh.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/googleapi"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

// identityCase is one resource type with a record of it.
type identityCase struct {
	typeName string
	// body is the resource block (named "test") that manages the record.
	body string
	// identity is the identity the record has in state.
	identity map[string]knownvalue.Check
	// importID is the string id a user imports it by; minimalIdentity the
	// identity block with only what is required for import.
	importID, minimalIdentity string
	// seed registers the record through the API, as another client would.
	seed func(t *testing.T, r *testRegistry)
	// importedNotEmpty: the first plan after an import still shows an
	// in-place update (a skill's source_dir cannot be read back).
	importedNotEmpty bool
	// seedFirst: the record must exist before create, as App Hub derives an
	// agent's AgentProperties (agentregistry_agent_properties verifies them).
	seedFirst bool
}

// startIdentityRegistry starts a registry that accepts App Hub writes, so
// that the AgentProperties case can seed what App Hub would derive.
func startIdentityRegistry(t *testing.T, c identityCase) *testRegistry {
	t.Helper()
	r := startRegistry(t, registryserver.Options{AppHubWritable: true})
	if c.seedFirst {
		c.seed(t, r)
	}
	return r
}

func (c identityCase) addr() string { return c.typeName + ".test" }

// testBlock is a resource block named "test" with one argument a line.
func testBlock(typeName string, arguments ...string) string {
	return "resource \"" + typeName + "\" \"test\" {\n  " + strings.Join(arguments, "\n  ") + "\n}\n"
}

func serviceIdentity(id string) map[string]knownvalue.Check {
	return map[string]knownvalue.Check{"service_id": knownvalue.StringExact(id),
		"project": knownvalue.StringExact("test-project"), "location": knownvalue.StringExact("global")}
}

const idWorkload = "projects/test-project/locations/global/applications/billing/workloads/id-helper"

// identityCases are the six resources. dir is a skill folder named id-skill.
func identityCases(dir string) []identityCase {
	card := resJSON(resCard("Converts currencies", resCardSkill("convert", "Converts an amount", "fx")))
	tools := resJSON(resToolSpec("Forecasts the weather"))
	props := resJSON(resProperties("1.0.0"))
	return []identityCase{
		{
			typeName: "agentregistry_agent", importID: "id-agent", minimalIdentity: `service_id = "id-agent"`,
			body:     testBlock("agentregistry_agent", `service_id = "id-agent"`, "agent_card = jsonencode("+card+")"),
			identity: serviceIdentity("id-agent"),
			seed: func(t *testing.T, r *testRegistry) {
				r.createService("id-agent", &agentregistry.Service{AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: googleapi.RawMessage(card)}})
			},
		},
		{
			typeName: "agentregistry_mcp_server", importID: "id-mcp", minimalIdentity: `service_id = "id-mcp"`,
			body: testBlock("agentregistry_mcp_server", `service_id = "id-mcp"`, "interfaces = ["+resJSONRPCInterface+"]",
				"tool_spec = jsonencode("+tools+")"),
			identity: serviceIdentity("id-mcp"),
			seed: func(t *testing.T, r *testRegistry) {
				r.createService("id-mcp", &agentregistry.Service{
					Interfaces:    []*agentregistry.Interface{{Url: "https://mcp.example.com/weather", ProtocolBinding: "JSONRPC"}},
					McpServerSpec: &agentregistry.McpServerSpec{Type: "TOOL_SPEC", Content: googleapi.RawMessage(tools)}})
			},
		},
		{
			typeName: "agentregistry_endpoint", importID: "id-endpoint", minimalIdentity: `service_id = "id-endpoint"`,
			body:     testBlock("agentregistry_endpoint", `service_id = "id-endpoint"`, "interfaces = ["+resHTTPInterface+"]"),
			identity: serviceIdentity("id-endpoint"),
			seed: func(t *testing.T, r *testRegistry) {
				r.createService("id-endpoint", &agentregistry.Service{
					Interfaces:   []*agentregistry.Interface{{Url: "https://billing.example.com/v1", ProtocolBinding: "HTTP_JSON"}},
					EndpointSpec: &agentregistry.EndpointSpec{Type: "NO_SPEC"}})
			},
		},
		{
			typeName: "agentregistry_binding", importID: "id-binding", minimalIdentity: `binding_id = "id-binding"`,
			body: testBlock("agentregistry_binding", `binding_id = "id-binding"`,
				fmt.Sprintf("source = %q", resPlannerURN), fmt.Sprintf("target = %q", resFlightsURN)),
			identity: map[string]knownvalue.Check{"binding_id": knownvalue.StringExact("id-binding"),
				"project": knownvalue.StringExact("test-project"), "location": knownvalue.StringExact("global")},
			seed: func(t *testing.T, r *testRegistry) {
				_, err := r.client.CreateBinding(context.Background(), testParent, "id-binding", &agentregistry.Binding{
					Source: &agentregistry.Source{Identifier: resPlannerURN}, Target: &agentregistry.Target{Identifier: resFlightsURN}})
				if err != nil {
					t.Fatalf("seed binding: %v", err)
				}
			},
		},
		{
			typeName: "agentregistry_agent_properties", importID: idWorkload, minimalIdentity: fmt.Sprintf("workload = %q", idWorkload),
			body:      testBlock("agentregistry_agent_properties", fmt.Sprintf("workload = %q", idWorkload), "properties = jsonencode("+props+")"),
			identity:  map[string]knownvalue.Check{"workload": knownvalue.StringExact(idWorkload)},
			seedFirst: true,
			seed: func(t *testing.T, r *testRegistry) {
				if _, err := r.client.SetWorkloadMetadata(context.Background(), idWorkload, registryclient.AgentPropertiesKey,
					json.RawMessage(props), true); err != nil {
					t.Fatalf("seed workload: %v", err)
				}
			},
		},
		{
			typeName: "agentregistry_skill", importID: "id-skill," + dir, minimalIdentity: `skill_id = "id-skill"`,
			body: testBlock("agentregistry_skill", `skill_id = "id-skill"`, fmt.Sprintf("source_dir = %q", dir), `target_state = "ACTIVE"`),
			identity: map[string]knownvalue.Check{"skill_id": knownvalue.StringExact("id-skill"),
				"project": knownvalue.StringExact("test-project"), "location": knownvalue.StringExact("global")},
			importedNotEmpty: true,
			seed: func(t *testing.T, r *testRegistry) {
				pkg, err := skillpkg.Load(dir)
				if err != nil {
					t.Fatal(err)
				}
				_, err = r.client.CreateSkill(context.Background(), testParent, "id-skill", &agentregistry.Skill{
					Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE",
					InitialRevision: &agentregistry.SkillRevision{ArchiveUploadSource: &agentregistry.ArchiveUploadSource{
						ArchiveContent: base64.StdEncoding.EncodeToString(pkg.Archive)}}})
				if err != nil {
					t.Fatalf("seed skill: %v", err)
				}
			},
		},
	}
}

// Each resource has its identity in state after create, and imports by its
// id (the import command and an import block) and by its identity.
func TestAccIdentity_everyResource(t *testing.T) {
	for _, c := range identityCases(resSkillDir(t, "id-skill", "Identity tests.")) {
		t.Run(c.typeName, func(t *testing.T) {
			r := startIdentityRegistry(t, c)
			cfg := r.config(c.body)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProviderFactories,
				TerraformVersionChecks:   requires(capIdentity),
				Steps: []resource.TestStep{
					{Config: cfg, ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity(c.addr(), c.identity)}},
					{ResourceName: c.addr(), ImportState: true, ImportStateKind: resource.ImportCommandWithID,
						ImportStateId: c.importID, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"}},
					{ResourceName: c.addr(), ImportState: true, ImportStateKind: resource.ImportBlockWithID,
						ImportStateId: c.importID, ExpectNonEmptyPlan: c.importedNotEmpty},
					{ResourceName: c.addr(), ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity,
						ExpectNonEmptyPlan: c.importedNotEmpty},
				},
			})
		})
	}
}

// Records registered outside Terraform are adopted with import blocks that
// name only the id (project and location are the provider's): the plan
// imports each and changes nothing else, the apply writes nothing, and the
// next plan is empty.
func TestAccIdentity_adoptWithAnImportBlockOfTheIDAlone(t *testing.T) {
	for _, c := range identityCases(resSkillDir(t, "id-skill", "Identity tests.")) {
		t.Run(c.typeName, func(t *testing.T) {
			r := startRegistry(t, registryserver.Options{AppHubWritable: true})
			c.seed(t, r)
			cfg := r.config(c.body + "\nimport {\n  to = " + c.addr() + "\n  identity = { " + c.minimalIdentity + " }\n}\n")
			preApply := []plancheck.PlanCheck{onlyImports{n: 1, updates: c.importedNotEmpty}}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProviderFactories,
				TerraformVersionChecks:   requires(capIdentity),
				Steps: []resource.TestStep{{
					PreConfig:        r.srv.ResetRequests,
					Config:           cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: preApply},
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectIdentity(c.addr(), c.identity),
						noWritesCheck{r},
					},
				}},
			})
		})
	}
}

// onlyImports is a plan check: the plan imports exactly n resources and
// does nothing else to them (with updates, an in-place update that comes
// with the import is allowed), and nothing outside them changes.
type onlyImports struct {
	n       int
	updates bool
}

func (c onlyImports) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	imports := 0
	for _, rc := range req.Plan.ResourceChanges {
		a := rc.Change.Actions
		switch {
		case rc.Change.Importing != nil && (a.NoOp() || (c.updates && a.Update())):
			imports++
		case !a.NoOp() && !a.Read():
			resp.Error = fmt.Errorf("%s: planned %v, want only imports", rc.Address, a)
			return
		}
	}
	if imports != c.n {
		resp.Error = fmt.Errorf("planned %d imports, want %d", imports, c.n)
	}
}

// noWritesCheck is a state check that fails when a write reached the
// registry since the last ResetRequests.
type noWritesCheck struct{ r *testRegistry }

func (c noWritesCheck) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if w := c.r.writes(); len(w) > 0 {
		resp.Error = fmt.Errorf("expected no write request to reach the registry, got %v", w)
	}
}

// A state written by a release without identity gains the identity on the
// next refresh, and the plan stays empty.
func TestAccIdentity_stateWithoutIdentityGainsIt(t *testing.T) {
	for _, c := range identityCases(resSkillDir(t, "id-skill", "Identity tests.")) {
		t.Run(c.typeName, func(t *testing.T) {
			r := startIdentityRegistry(t, c)
			cfg := r.config(c.body)
			resource.ParallelTest(t, resource.TestCase{
				TerraformVersionChecks: requires(capIdentity),
				Steps: []resource.TestStep{
					{ProtoV6ProviderFactories: providerWithoutIdentity, Config: cfg},
					{
						ProtoV6ProviderFactories: testAccProviderFactories,
						Config:                   cfg,
						ConfigPlanChecks:         resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
						ConfigStateChecks:        []statecheck.StateCheck{statecheck.ExpectIdentity(c.addr(), c.identity)},
					},
				},
			})
		})
	}
}

// providerWithoutIdentity serves the provider as a release before identity
// did: no identity schemas, and no identity in any answer.
var providerWithoutIdentity = map[string]func() (tfprotov6.ProviderServer, error){
	"agentregistry": func() (tfprotov6.ProviderServer, error) {
		return withoutIdentity{providerserver.NewProtocol6(New("test")())()}, nil
	},
}

type withoutIdentity struct{ tfprotov6.ProviderServer }

func (w withoutIdentity) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{IdentitySchemas: map[string]*tfprotov6.ResourceIdentitySchema{}}, nil
}

func (w withoutIdentity) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := w.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		resp.PlannedIdentity = nil
	}
	return resp, err
}

func (w withoutIdentity) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := w.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil {
		resp.NewIdentity = nil
	}
	return resp, err
}

func (w withoutIdentity) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	resp, err := w.ProviderServer.ReadResource(ctx, req)
	if resp != nil {
		resp.NewIdentity = nil
	}
	return resp, err
}

func (w withoutIdentity) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	resp, err := w.ProviderServer.ImportResourceState(ctx, req)
	if resp != nil {
		for _, r := range resp.ImportedResources {
			r.Identity = nil
		}
	}
	return resp, err
}
