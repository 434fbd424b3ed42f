package provider

// Reliability under faults, end to end: every write, refresh and search of
// the provider is driven through OpenTofu against the bundled registry server
// while the server injects faults (repeated 503, 429 with Retry-After, a
// connection dropped after the write was committed, a response slower than
// the resource timeout, an operation that finishes in error).
//
// After each faulty step the suite checks that
//   - the fault actually fired (the server saw the retries),
//   - every retry of one write carried the same requestId,
//   - the registry's record and Terraform's state agree,
//   - nothing was created twice (services and derived records are counted),
// and the next step applies the same configuration again without faults and
// expects an empty plan and not a single write request.

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsondoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/registryservertest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

const (
	relAgentAddr = "agentregistry_agent.test"
	relMcpAddr   = "agentregistry_mcp_server.test"
	relPropsAddr = "agentregistry_agent_properties.test"
	relSkillsDS  = "data.agentregistry_skills.fx"
	relWorkload  = "projects/test-project/locations/global/applications/billing/workloads/invoice-helper"
	relTimeout   = "2s"            // the short resource timeout of the timeout tests
	relSlow      = 6 * time.Second // a response slower than relTimeout
)

// relEnv is one registry server with fault injection, and a client without
// retries for the checks: a fault the provider did not consume makes a check
// fail instead of being absorbed silently.
type relEnv struct {
	*testRegistry

	mu        sync.Mutex
	stepStart time.Time
}

func relStart(t *testing.T, opts registryserver.Options) *relEnv {
	t.Helper()
	return &relEnv{testRegistry: startRegistry(t, opts)}
}

// inject is a PreConfig: it clears earlier faults, forgets recorded requests,
// starts the step's clock and injects the given faults.
func (e *relEnv) inject(faults ...registryservertest.Fault) func() {
	return func() {
		e.srv.ClearFaults()
		e.srv.ResetRequests()
		e.mu.Lock()
		e.stepStart = time.Now()
		e.mu.Unlock()
		for _, f := range faults {
			e.srv.InjectFault(f)
		}
	}
}

// then runs extra PreConfig work after inject (assertions on what the
// previous, failed step left behind).
func then(pre func(), more ...func()) func() {
	return func() {
		pre()
		for _, m := range more {
			m()
		}
	}
}

// requests lists the recorded requests of a method whose path contains sub.
func (e *relEnv) requests(method, sub string) []registryservertest.RecordedRequest {
	var out []registryservertest.RecordedRequest
	for _, r := range e.srv.Requests() {
		if r.Method == method && strings.Contains(r.Path, sub) {
			out = append(out, r)
		}
	}
	return out
}

// fired checks that at least atLeast requests of method on a path containing
// sub reached the server in this step: the fault was hit and the request retried.
func (e *relEnv) fired(method, sub string, atLeast int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := len(e.requests(method, sub)); n < atLeast {
			return fmt.Errorf("expected at least %d %s requests on *%s* (the fault and its retries), got %d", atLeast, method, sub, n)
		}
		return nil
	}
}

// once checks that exactly one request of method on a path containing sub
// reached the server in this step: the write was sent once.
func (e *relEnv) once(method, sub string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := len(e.requests(method, sub)); got != 1 {
			return fmt.Errorf("expected exactly one %s request on *%s*, got %d", method, sub, got)
		}
		return nil
	}
}

// sameRequestID checks that every write of method on a path containing sub
// in this step carried one and the same requestId (an idempotent retry).
func (e *relEnv) sameRequestID(method, sub string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		ids := map[string]bool{}
		for _, r := range e.requests(method, sub) {
			ids[r.Query.Get("requestId")] = true
		}
		if len(ids) != 1 || ids[""] {
			return fmt.Errorf("expected every %s on *%s* to carry the same non-empty requestId, got %v", method, sub, ids)
		}
		return nil
	}
}

// tookAtLeast checks that the step lasted at least d (a Retry-After was honoured).
func (e *relEnv) tookAtLeast(d time.Duration) resource.TestCheckFunc {
	return func(*terraform.State) error {
		e.mu.Lock()
		start := e.stepStart
		e.mu.Unlock()
		if el := time.Since(start); el < d {
			return fmt.Errorf("the step took %v; a Retry-After of %v should have made it last longer", el, d)
		}
		return nil
	}
}

// noWrites checks that no write request reached the server in this step.
func (e *relEnv) noWrites() resource.TestCheckFunc {
	return func(*terraform.State) error {
		if w := e.writes(); len(w) > 0 {
			return fmt.Errorf("a converged configuration must not write, but the registry received %v", w)
		}
		return nil
	}
}

// listServices pages through the registry's services.
func (e *relEnv) listServices() ([]string, error) {
	var names []string
	err := e.client.Registry().Projects.Locations.Services.List(testParent).PageSize(100).
		Pages(context.Background(), func(p *agentregistry.ListServicesResponse) error {
			for _, s := range p.Services {
				names = append(names, s.Name)
			}
			return nil
		})
	return names, err
}

func (e *relEnv) countDerived() (agents, mcps int, err error) {
	ctx := context.Background()
	err = e.client.Registry().Projects.Locations.Agents.List(testParent).PageSize(100).
		Pages(ctx, func(p *agentregistry.ListAgentsResponse) error { agents += len(p.Agents); return nil })
	if err == nil {
		err = e.client.Registry().Projects.Locations.McpServers.List(testParent).PageSize(100).
			Pages(ctx, func(p *agentregistry.ListMcpServersResponse) error { mcps += len(p.McpServers); return nil })
	}
	return agents, mcps, err
}

// counts checks that the registry holds exactly the given services (by id)
// and one derived record for each: nothing was created twice.
func (e *relEnv) counts(agents, mcps int, serviceIDs ...string) resource.TestCheckFunc {
	return func(*terraform.State) error { return e.checkCounts(agents, mcps, serviceIDs...) }
}

func (e *relEnv) checkCounts(agents, mcps int, serviceIDs ...string) error {
	names, err := e.listServices()
	if err != nil {
		return fmt.Errorf("list services: %w", err)
	}
	want := map[string]bool{}
	for _, id := range serviceIDs {
		want[testParent+"/services/"+id] = true
	}
	if len(names) != len(want) {
		return fmt.Errorf("expected services %v in the registry, got %v", serviceIDs, names)
	}
	for _, n := range names {
		if !want[n] {
			return fmt.Errorf("unexpected service %s in the registry (expected %v)", n, serviceIDs)
		}
	}
	a, m, err := e.countDerived()
	if err != nil {
		return fmt.Errorf("list derived records: %w", err)
	}
	if a != agents || m != mcps {
		return fmt.Errorf("expected %d agents and %d MCP servers derived, got %d and %d", agents, mcps, a, m)
	}
	return nil
}

// expectAgentsNow is for PreConfig: it asserts what a failed step left in the
// registry (agents, and no MCP server).
func (e *relEnv) expectAgentsNow(agents int, serviceIDs ...string) func() {
	return func() {
		if err := e.checkCounts(agents, 0, serviceIDs...); err != nil {
			e.t.Errorf("after the failed step: %v", err)
		}
	}
}

func relAttrs(s *terraform.State, addr string) (map[string]string, error) {
	rs, ok := s.RootModule().Resources[addr]
	if !ok || rs.Primary == nil {
		return nil, fmt.Errorf("%s is not in the state", addr)
	}
	return rs.Primary.Attributes, nil
}

func relCompare(addr string, pairs ...string) error {
	for i := 0; i+2 < len(pairs); i += 3 {
		if pairs[i+1] != pairs[i+2] {
			return fmt.Errorf("%s.%s is %q in the state but %q in the registry", addr, pairs[i], pairs[i+1], pairs[i+2])
		}
	}
	return nil
}

// agentAgrees checks that the registry's service and the state of the agent
// (relAgentAddr) agree on every attribute the registry holds, and that the
// computed skills follow the card.
func (e *relEnv) agentAgrees() resource.TestCheckFunc {
	const addr = relAgentAddr
	return func(s *terraform.State) error {
		a, err := relAttrs(s, addr)
		if err != nil {
			return err
		}
		svc, err := e.client.GetService(context.Background(), a["name"])
		if err != nil {
			return fmt.Errorf("read %s from the registry: %w", a["name"], err)
		}
		if svc.AgentSpec == nil || !jsondoc.SemanticallyEqual(a["agent_card"], string(svc.AgentSpec.Content)) {
			return fmt.Errorf("%s.agent_card differs from the registry's card:\nstate:    %s\nregistry: %v", addr, a["agent_card"], svc.AgentSpec)
		}
		if err := relCompare(addr,
			"id", a["id"], svc.Name,
			"display_name", a["display_name"], svc.DisplayName,
			"description", a["description"], svc.Description,
			"registry_resource", a["registry_resource"], svc.RegistryResource,
			"create_time", a["create_time"], svc.CreateTime,
			"update_time", a["update_time"], svc.UpdateTime,
		); err != nil {
			return err
		}
		card, err := spec.ParseAgentCard(svc.AgentSpec.Content)
		if err != nil {
			return fmt.Errorf("the registry's card does not parse: %w", err)
		}
		if err := relCompare(addr, "skill_ids.#", a["skill_ids.#"], strconv.Itoa(len(card.Skills))); err != nil {
			return err
		}
		for i, sk := range card.Skills {
			if err := relCompare(addr, fmt.Sprintf("skill_ids.%d", i), a[fmt.Sprintf("skill_ids.%d", i)], sk.ID); err != nil {
				return err
			}
		}
		ag, err := e.client.GetAgent(context.Background(), svc.RegistryResource)
		if err != nil {
			return fmt.Errorf("read the derived agent %s: %w", svc.RegistryResource, err)
		}
		return relCompare(addr, "agent_id", a["agent_id"], ag.AgentId)
	}
}

// mcpAgrees is agentAgrees for an MCP server.
func (e *relEnv) mcpAgrees(addr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a, err := relAttrs(s, addr)
		if err != nil {
			return err
		}
		svc, err := e.client.GetService(context.Background(), a["name"])
		if err != nil {
			return fmt.Errorf("read %s from the registry: %w", a["name"], err)
		}
		if svc.McpServerSpec == nil || !jsondoc.SemanticallyEqual(a["tool_spec"], string(svc.McpServerSpec.Content)) {
			return fmt.Errorf("%s.tool_spec differs from the registry's:\nstate:    %s\nregistry: %v", addr, a["tool_spec"], svc.McpServerSpec)
		}
		pairs := []string{
			"display_name", a["display_name"], svc.DisplayName,
			"description", a["description"], svc.Description,
			"registry_resource", a["registry_resource"], svc.RegistryResource,
			"update_time", a["update_time"], svc.UpdateTime,
			"interfaces.#", a["interfaces.#"], strconv.Itoa(len(svc.Interfaces)),
		}
		for i, in := range svc.Interfaces {
			pairs = append(pairs,
				fmt.Sprintf("interfaces.%d.url", i), a[fmt.Sprintf("interfaces.%d.url", i)], in.Url,
				fmt.Sprintf("interfaces.%d.protocol_binding", i), a[fmt.Sprintf("interfaces.%d.protocol_binding", i)], in.ProtocolBinding)
		}
		tools, err := spec.ParseToolSpec(svc.McpServerSpec.Content)
		if err != nil {
			return fmt.Errorf("the registry's tool spec does not parse: %w", err)
		}
		pairs = append(pairs, "tool_names.#", a["tool_names.#"], strconv.Itoa(len(tools)))
		for i, tool := range tools {
			pairs = append(pairs, fmt.Sprintf("tool_names.%d", i), a[fmt.Sprintf("tool_names.%d", i)], tool.Name)
		}
		return relCompare(addr, pairs...)
	}
}

// propertiesAgree checks the workload's AgentProperties entry against the state.
func (e *relEnv) propertiesAgree(addr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a, err := relAttrs(s, addr)
		if err != nil {
			return err
		}
		w, err := e.client.GetWorkload(context.Background(), a["workload"])
		if err != nil {
			return fmt.Errorf("read %s: %w", a["workload"], err)
		}
		var got string
		if w.WorkloadProperties != nil {
			if em, ok := w.WorkloadProperties.ExtendedMetadata[registryclient.AgentPropertiesKey]; ok {
				got = string(em.MetadataStruct)
			}
		}
		if got == "" || !jsondoc.SemanticallyEqual(a["properties"], got) {
			return fmt.Errorf("%s.properties differs from the registry's entry:\nstate:    %s\nregistry: %s", addr, a["properties"], got)
		}
		return nil
	}
}

// propertiesGone checks that the workload no longer carries an AgentProperties entry.
func (e *relEnv) propertiesGone(workload string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		w, err := e.client.GetWorkload(context.Background(), workload)
		if registryclient.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if w.WorkloadProperties != nil {
			if _, ok := w.WorkloadProperties.ExtendedMetadata[registryclient.AgentPropertiesKey]; ok {
				return fmt.Errorf("%s still carries an AgentProperties entry after destroy", workload)
			}
		}
		return nil
	}
}

// skillsAgree checks the skills data source against the registry: every
// skill of the agent's card tagged fx, in card order, naming its agent.
func (e *relEnv) skillsAgree(dsAddr, agentAddr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		ds, err := relAttrs(s, dsAddr)
		if err != nil {
			return err
		}
		a, err := relAttrs(s, agentAddr)
		if err != nil {
			return err
		}
		svc, err := e.client.GetService(context.Background(), a["name"])
		if err != nil {
			return err
		}
		card, err := spec.ParseAgentCard(svc.AgentSpec.Content)
		if err != nil {
			return err
		}
		var want []string
		for _, sk := range card.Skills {
			for _, tag := range sk.Tags {
				if tag == "fx" {
					want = append(want, sk.ID)
					break
				}
			}
		}
		if err := relCompare(dsAddr, "skills.#", ds["skills.#"], strconv.Itoa(len(want))); err != nil {
			return err
		}
		for i, id := range want {
			p := fmt.Sprintf("skills.%d.", i)
			if err := relCompare(dsAddr, p+"id", ds[p+"id"], id, p+"agent_name", ds[p+"agent_name"], svc.RegistryResource); err != nil {
				return err
			}
		}
		return nil
	}
}

// gone checks that the registry no longer has the named services.
func (e *relEnv) gone(serviceIDs ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for _, id := range serviceIDs {
			n := testParent + "/services/" + id
			if _, err := e.client.GetService(context.Background(), n); !registryclient.IsNotFound(err) {
				return fmt.Errorf("service %s should be gone, got err=%v", n, err)
			}
		}
		return nil
	}
}

// converge is the step after a fault: the same configuration, no fault; the
// plan must be empty and nothing may be written.
func (e *relEnv) converge(cfg string, checks ...resource.TestCheckFunc) resource.TestStep {
	return resource.TestStep{
		PreConfig: e.inject(),
		Config:    cfg,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		},
		Check: resource.ComposeAggregateTestCheckFunc(append([]resource.TestCheckFunc{e.noWrites()}, checks...)...),
	}
}

// Configurations.

var (
	relCardA = resCard("Converts currencies",
		resCardSkill("convert", "Converts an amount between currencies", "currency", "fx"),
		resCardSkill("rates", "Lists exchange rates", "fx"))
	relCardB = resCard("Converts currencies and lists rates",
		resCardSkill("convert", "Converts an amount between currencies", "currency", "fx"),
		resCardSkill("rates", "Lists exchange rates", "fx"),
		resCardSkill("history", "Shows historical rates", "history"))
)

type relAgentOpts struct {
	displayName string
	card        map[string]any
	search      bool // add the skills data source
	timeouts    bool // short create/update/delete timeouts
}

func (e *relEnv) agentConfig(o relAgentOpts) string {
	var b strings.Builder
	fmt.Fprintf(&b, `
resource "agentregistry_agent" "test" {
  service_id   = "rel-agent"
  display_name = %q
  description  = "Reliability test agent"
  agent_card   = jsonencode(%s)
`, o.displayName, resJSON(o.card))
	if o.timeouts {
		fmt.Fprintf(&b, "  timeouts {\n    create = %q\n    update = %q\n    delete = %q\n  }\n", relTimeout, relTimeout, relTimeout)
	}
	b.WriteString("}\n")
	if o.search {
		b.WriteString(`
data "agentregistry_skills" "fx" {
  query      = "skills.tags=fx"
  depends_on = [agentregistry_agent.test]
}
`)
	}
	return e.config(b.String())
}

// relLifecycle runs create, refresh, update, search and delete of an agent,
// each under the fault that mk builds for its method and path, and checks
// after each that the registry and the state agree. minRequests is how many
// requests each faulty call takes at least (the fault and the retry);
// minDuration how long each faulty step lasts at least.
func relLifecycle(t *testing.T, mk func(method, path string) registryservertest.Fault, minRequests int, minDuration time.Duration) {
	e := relStart(t, registryserver.Options{})
	cfgA := e.agentConfig(relAgentOpts{displayName: "Currency Agent", card: relCardA})
	cfgB := e.agentConfig(relAgentOpts{displayName: "Currency Converter", card: relCardB})
	cfgBSearch := e.agentConfig(relAgentOpts{displayName: "Currency Converter", card: relCardB, search: true})
	agrees := func(more ...resource.TestCheckFunc) resource.TestCheckFunc {
		return resource.ComposeAggregateTestCheckFunc(append([]resource.TestCheckFunc{
			e.agentAgrees(), e.counts(1, 0, "rel-agent"), e.tookAtLeast(minDuration),
		}, more...)...)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		CheckDestroy:             e.counts(0, 0),
		Steps: []resource.TestStep{
			{ // create
				PreConfig: e.inject(mk(http.MethodPost, "/services")),
				Config:    cfgA,
				Check: agrees(e.fired(http.MethodPost, "/services", minRequests),
					e.sameRequestID(http.MethodPost, "/services")),
			},
			e.converge(cfgA),
			{ // refresh: the plan reads the service through the fault and finds nothing to do
				PreConfig: e.inject(mk(http.MethodGet, "/services/")),
				Config:    cfgA,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: agrees(e.fired(http.MethodGet, "/services/", minRequests), e.noWrites()),
			},
			{ // update
				PreConfig: e.inject(mk(http.MethodPatch, "/services/")),
				Config:    cfgB,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(relAgentAddr, plancheck.ResourceActionUpdate)},
				},
				Check: agrees(e.fired(http.MethodPatch, "/services/", minRequests),
					e.sameRequestID(http.MethodPatch, "/services/")),
			},
			e.converge(cfgB),
			{ // search
				PreConfig: e.inject(mk(http.MethodPost, ":search")),
				Config:    cfgBSearch,
				Check: agrees(e.fired(http.MethodPost, ":search", minRequests),
					e.skillsAgree(relSkillsDS, relAgentAddr), e.noWrites()),
			},
			e.converge(cfgBSearch, e.skillsAgree(relSkillsDS, relAgentAddr)),
			{ // delete
				PreConfig: e.inject(mk(http.MethodDelete, "/services/")),
				Config:    e.config(""),
				Check: resource.ComposeAggregateTestCheckFunc(
					e.fired(http.MethodDelete, "/services/", minRequests),
					e.sameRequestID(http.MethodDelete, "/services/"),
					e.gone("rel-agent"), e.counts(0, 0), e.tookAtLeast(minDuration)),
			},
			e.converge(e.config("")),
		},
	})
}

// Three 503s in a row on every call: the client retries with backoff, the
// write is applied once, and Terraform records what the registry holds.
func TestAccReliability_repeated503(t *testing.T) {
	relLifecycle(t, func(method, path string) registryservertest.Fault {
		return registryservertest.Fault{Method: method, PathContains: path, Status: http.StatusServiceUnavailable, Times: 3}
	}, 4, 0)
}

// A 429 with Retry-After: 1 on every call: the client waits the second the
// server asked for (the step lasts at least that long) and then succeeds.
func TestAccReliability_rateLimited429(t *testing.T) {
	relLifecycle(t, func(method, path string) registryservertest.Fault {
		return registryservertest.Fault{Method: method, PathContains: path, Status: http.StatusTooManyRequests,
			RetryAfter: time.Second, Times: 1}
	}, 2, time.Second)
}

// The server commits the write and then drops the connection without an
// answer: the client sends the write again with the same requestId, the
// registry replays the first outcome, and nothing is created twice.
func TestAccReliability_droppedAfterCommit(t *testing.T) {
	relLifecycle(t, func(method, path string) registryservertest.Fault {
		return registryservertest.Fault{Method: method, PathContains: path, DropAfterCommit: true, Times: 1}
	}, 2, 0)
}

// A response slower than the resource's timeout: the write fails with a
// timeout and is not applied (the server gives up with the client); the next
// apply without the fault converges. Covers create, update and delete.
func TestAccReliability_slowerThanTimeout(t *testing.T) {
	e := relStart(t, registryserver.Options{})
	cfgA := e.agentConfig(relAgentOpts{displayName: "Currency Agent", card: relCardA, timeouts: true})
	cfgB := e.agentConfig(relAgentOpts{displayName: "Currency Converter", card: relCardB, timeouts: true})
	slow := func(method, path string) registryservertest.Fault {
		return registryservertest.Fault{Method: method, PathContains: path, Delay: relSlow, Times: 1}
	}
	timedOut := func(summary string) *regexp.Regexp {
		return relWords(summary, "context deadline exceeded")
	}
	agrees := resource.ComposeAggregateTestCheckFunc(e.agentAgrees(), e.counts(1, 0, "rel-agent"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		CheckDestroy:             e.counts(0, 0),
		Steps: []resource.TestStep{
			{PreConfig: e.inject(slow(http.MethodPost, "/services")), Config: cfgA, ExpectError: timedOut("Cannot Create Agent")},
			{ // nothing was created; this apply creates the agent once
				PreConfig: then(e.expectAgentsNow(0), e.inject()),
				Config:    cfgA,
				Check:     resource.ComposeAggregateTestCheckFunc(agrees, e.once(http.MethodPost, "/services")),
			},
			e.converge(cfgA, agrees),
			{PreConfig: e.inject(slow(http.MethodPatch, "/services/")), Config: cfgB, ExpectError: timedOut("Cannot Update Agent")},
			{PreConfig: e.inject(), Config: cfgB, Check: resource.ComposeAggregateTestCheckFunc(agrees, e.once(http.MethodPatch, "/services/"))},
			e.converge(cfgB, agrees),
			{ // delete: the resource keeps its timeouts block while it is being destroyed
				PreConfig:   e.inject(slow(http.MethodDelete, "/services/")),
				Config:      e.config(""),
				ExpectError: timedOut("Cannot Delete Agent"),
			},
			{
				PreConfig: then(e.expectAgentsNow(1, "rel-agent"), e.inject()),
				Config:    e.config(""),
				Check:     resource.ComposeAggregateTestCheckFunc(e.gone("rel-agent"), e.counts(0, 0)),
			},
			e.converge(e.config("")),
		},
	})
}

// The write is committed but its operation cannot be polled before the
// timeout: Terraform reports the timeout and records nothing, although the
// registry holds the service. The next apply finds it (409 ALREADY_EXISTS
// with identical content), adopts it and creates nothing twice. A poll whose
// connection drops is retried.
func TestAccReliability_timeoutAfterCommitIsAdopted(t *testing.T) {
	e := relStart(t, registryserver.Options{OperationDelay: 300 * time.Millisecond})
	cfgA := e.agentConfig(relAgentOpts{displayName: "Currency Agent", card: relCardA, timeouts: true})
	cfgB := e.agentConfig(relAgentOpts{displayName: "Currency Converter", card: relCardB, timeouts: true})
	agrees := resource.ComposeAggregateTestCheckFunc(e.agentAgrees(), e.counts(1, 0, "rel-agent"))
	var firstCreateTime string
	remember := func() {
		svc, err := e.client.GetService(context.Background(), testParent+"/services/rel-agent")
		if err != nil {
			t.Errorf("the timed-out create should have left the service in the registry: %v", err)
			return
		}
		firstCreateTime = svc.CreateTime
	}
	adopted := func(s *terraform.State) error {
		a, err := relAttrs(s, relAgentAddr)
		if err != nil {
			return err
		}
		if firstCreateTime == "" || a["create_time"] != firstCreateTime {
			return fmt.Errorf("expected the service of the timed-out create (created %s) to be adopted, state has create_time %s", firstCreateTime, a["create_time"])
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		CheckDestroy:             e.counts(0, 0),
		Steps: []resource.TestStep{
			{
				PreConfig: e.inject(registryservertest.Fault{Method: http.MethodGet, PathContains: "/operations/", Delay: relSlow, Times: 1}),
				Config:    cfgA,
				ExpectError: relWords("Cannot Create Agent", "context deadline exceeded", "may still be created",
					"run apply again", "adopts it", "import it with the ID", testParent+"/services/rel-agent"),
			},
			{ // the registry has it, Terraform does not: the create is adopted
				PreConfig: then(e.expectAgentsNow(1, "rel-agent"), remember, e.inject()),
				Config:    cfgA,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(relAgentAddr, plancheck.ResourceActionCreate)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(agrees, adopted, e.once(http.MethodPost, "/services")),
			},
			e.converge(cfgA, agrees),
			{ // an operation poll whose connection is dropped is retried
				PreConfig: e.inject(registryservertest.Fault{Method: http.MethodGet, PathContains: "/operations/", DropAfterCommit: true, Times: 1}),
				Config:    cfgB,
				Check: resource.ComposeAggregateTestCheckFunc(agrees, e.once(http.MethodPatch, "/services/"),
					e.fired(http.MethodGet, "/operations/", 2)),
			},
			e.converge(cfgB, agrees),
		},
	})
}

// The delete timeout of the timeouts block bounds a destroy: a registry slower
// than it gives the provider's error, the resource stays in state, and the next
// destroy, with the registry answering again, removes it.
func TestAccReliability_deleteTimeout(t *testing.T) {
	e := relStart(t, registryserver.Options{})
	cfg := e.agentConfig(relAgentOpts{displayName: "Currency Agent", card: relCardA, timeouts: true})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		CheckDestroy:             e.counts(0, 0),
		Steps: []resource.TestStep{
			{Config: cfg, Check: e.counts(1, 0, "rel-agent")},
			{
				PreConfig:   e.inject(registryservertest.Fault{Method: http.MethodDelete, PathContains: "/services/", Delay: relSlow, Times: 1}),
				Config:      cfg,
				Destroy:     true,
				ExpectError: relWords("Cannot Delete Agent", "context deadline exceeded"),
			},
		},
	})
}

// An operation that finishes in error: the server's message reaches the
// user, nothing changes in the registry, and once the fault is gone the
// same configuration applies. Covers create, update and delete.
func TestAccReliability_operationError(t *testing.T) {
	e := relStart(t, registryserver.Options{OperationDelay: 200 * time.Millisecond})
	cfgA := e.agentConfig(relAgentOpts{displayName: "Currency Agent", card: relCardA})
	cfgB := e.agentConfig(relAgentOpts{displayName: "Currency Converter", card: relCardB})
	const msg = "the agent quota of project test-project is exhausted (injected)"
	opErr := func(method, path string) registryservertest.Fault {
		return registryservertest.Fault{Method: method, PathContains: path, Times: 1,
			OperationError: &registryservertest.RPCStatus{Code: 8, Message: msg}}
	}
	agrees := resource.ComposeAggregateTestCheckFunc(e.agentAgrees(), e.counts(1, 0, "rel-agent"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		CheckDestroy:             e.counts(0, 0),
		Steps: []resource.TestStep{
			{PreConfig: e.inject(opErr(http.MethodPost, "/services")), Config: cfgA,
				ExpectError: relWords("Cannot Create Agent", "RESOURCE_EXHAUSTED", msg)},
			{PreConfig: then(e.expectAgentsNow(0), e.inject()), Config: cfgA, Check: agrees},
			e.converge(cfgA, agrees),
			{PreConfig: e.inject(opErr(http.MethodPatch, "/services/")), Config: cfgB,
				ExpectError: relWords("Cannot Update Agent", msg)},
			{PreConfig: e.inject(), Config: cfgB, Check: resource.ComposeAggregateTestCheckFunc(agrees, e.once(http.MethodPatch, "/services/"))},
			e.converge(cfgB, agrees),
			{PreConfig: e.inject(opErr(http.MethodDelete, "/services/")), Config: e.config(""),
				ExpectError: relWords("Cannot Delete Agent", msg)},
			{PreConfig: then(e.expectAgentsNow(1, "rel-agent"), e.inject()), Config: e.config(""),
				Check: resource.ComposeAggregateTestCheckFunc(e.gone("rel-agent"), e.counts(0, 0))},
			e.converge(e.config("")),
		},
	})
}

// The MCP server and AgentProperties resources under the same faults: 503s
// and a dropped connection on create, a dropped PATCH and a 429 on update,
// an operation error on the workload, 503s and drops on destroy.
func TestAccReliability_mcpServerAndAgentProperties(t *testing.T) {
	e := relStart(t, registryserver.Options{AppHubWritable: true})
	cfg := func(description, version string) string {
		return e.config(fmt.Sprintf(`
resource "agentregistry_mcp_server" "test" {
  service_id  = "rel-weather"
  description = %q
  interfaces  = [%s]
  tool_spec   = jsonencode(%s)
}

resource "agentregistry_agent_properties" "test" {
  workload   = %q
  properties = jsonencode(%s)
  mode       = "write"
}
`, description, resJSONRPCInterface, resJSON(resToolSpec(description)), relWorkload, resJSON(resProperties(version))))
	}
	cfgA, cfgB, cfgC := cfg("Weather forecasts", "1.0.0"), cfg("Weather forecasts and alerts", "1.1.0"), cfg("Weather everywhere", "1.2.0")
	agrees := resource.ComposeAggregateTestCheckFunc(e.mcpAgrees(relMcpAddr), e.propertiesAgree(relPropsAddr), e.counts(0, 1, "rel-weather"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		CheckDestroy:             resource.ComposeAggregateTestCheckFunc(e.counts(0, 0), e.propertiesGone(relWorkload)),
		Steps: []resource.TestStep{
			{
				PreConfig: e.inject(
					registryservertest.Fault{Method: http.MethodPost, PathContains: "/services", Status: http.StatusServiceUnavailable, Times: 2},
					registryservertest.Fault{Method: http.MethodGet, PathContains: "/workloads/", Status: http.StatusBadGateway, Times: 2},
					registryservertest.Fault{Method: http.MethodPatch, PathContains: "/workloads/", DropAfterCommit: true, Times: 1},
				),
				Config: cfgA,
				Check: resource.ComposeAggregateTestCheckFunc(agrees,
					e.fired(http.MethodPost, "/services", 3), e.sameRequestID(http.MethodPost, "/services"),
					e.fired(http.MethodPatch, "/workloads/", 2), e.sameRequestID(http.MethodPatch, "/workloads/")),
			},
			e.converge(cfgA, agrees),
			{
				PreConfig: e.inject(
					registryservertest.Fault{Method: http.MethodPatch, PathContains: "/services/", DropAfterCommit: true, Times: 1},
					registryservertest.Fault{Method: http.MethodPatch, PathContains: "/workloads/", Status: http.StatusTooManyRequests, RetryAfter: time.Second, Times: 1},
				),
				Config: cfgB,
				Check: resource.ComposeAggregateTestCheckFunc(agrees, e.tookAtLeast(time.Second),
					e.fired(http.MethodPatch, "/services/", 2), e.sameRequestID(http.MethodPatch, "/services/"),
					e.fired(http.MethodPatch, "/workloads/", 2), e.sameRequestID(http.MethodPatch, "/workloads/")),
			},
			e.converge(cfgB, agrees),
			{
				PreConfig: e.inject(registryservertest.Fault{Method: http.MethodPatch, PathContains: "/workloads/", Times: 1,
					OperationError: &registryservertest.RPCStatus{Code: 14, Message: "App Hub is briefly unavailable (injected)"}}),
				Config:      cfgC,
				ExpectError: relWords("Cannot Update Agent Properties", "App Hub is briefly unavailable (injected)"),
			},
			{PreConfig: e.inject(), Config: cfgC, Check: agrees},
			e.converge(cfgC, agrees),
			{
				PreConfig: e.inject(
					registryservertest.Fault{Method: http.MethodDelete, PathContains: "/services/", Status: http.StatusServiceUnavailable, Times: 2},
					registryservertest.Fault{Method: http.MethodPatch, PathContains: "/workloads/", DropAfterCommit: true, Times: 1},
				),
				Config: e.config(""),
				Check: resource.ComposeAggregateTestCheckFunc(e.gone("rel-weather"), e.counts(0, 0), e.propertiesGone(relWorkload),
					e.fired(http.MethodDelete, "/services/", 3), e.sameRequestID(http.MethodDelete, "/services/"),
					e.fired(http.MethodPatch, "/workloads/", 2), e.sameRequestID(http.MethodPatch, "/workloads/")),
			},
			e.converge(e.config("")),
		},
	})
}

// relWords matches the given phrases in order, each with any whitespace
// between its words (the CLI wraps long diagnostics).
func relWords(phrases ...string) *regexp.Regexp {
	parts := make([]string, len(phrases))
	for i, p := range phrases {
		words := strings.Fields(p)
		for j, w := range words {
			words[j] = regexp.QuoteMeta(w)
		}
		parts[i] = strings.Join(words, `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, `.*`))
}
