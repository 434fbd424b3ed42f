package provider

import (
	"context"
	"fmt"
	"maps"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/registryservertest"
)

// Benchmarks of the requests OpenTofu sends for one agent whose card is the 10 KB
// card of scripts/bench.sh (31 skills), served in process (no CLI, no gRPC), with
// the bundled registry on loopback where the request reaches it: the provider's
// own CPU per resource and per request, which a plan of N agents pays N times.

// agentBench holds an agent created through the provider, and its requests.
type agentBench struct {
	ours          tfprotov6.ProviderServer
	typ           tftypes.Type
	config, state *tfprotov6.DynamicValue
}

func newAgentBench(b *testing.B) *agentBench {
	b.Helper()
	card, err := os.ReadFile("../../scripts/bench/card-10k.json")
	if err != nil {
		b.Fatal(err)
	}
	_, ts := registryservertest.Start(b, registryserver.Options{})
	ours := configuredServer(b, "bench", ts.URL)
	schema := resourceSchemas(b, ours)["agentregistry_agent"]
	typ := schema.ValueType()
	ab := &agentBench{ours: ours, typ: typ, config: dynamicValue(b, typ, protoObject(b, typ, map[string]tftypes.Value{
		"service_id": tftypes.NewValue(tftypes.String, "bench-agent"), "agent_card": tftypes.NewValue(tftypes.String, string(card))}))}

	plan := ab.planCreate(b, ours)
	applied, err := ours.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: "agentregistry_agent", PriorState: ab.null(b), PlannedState: plan.PlannedState, Config: ab.config,
	})
	if err != nil || len(applied.Diagnostics) > 0 {
		b.Fatalf("create: %v %v", err, applied.Diagnostics)
	}
	ab.state = applied.NewState
	return ab
}

func (ab *agentBench) null(b *testing.B) *tfprotov6.DynamicValue {
	return dynamicValue(b, ab.typ, tftypes.NewValue(ab.typ, nil))
}

// planCreate is the plan of the new agent, as OpenTofu asks for it.
func (ab *agentBench) planCreate(b *testing.B, s tfprotov6.ProviderServer) *tfprotov6.PlanResourceChangeResponse {
	resp, err := s.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: "agentregistry_agent", PriorState: ab.null(b), ProposedNewState: ab.config, Config: ab.config,
	})
	if err != nil || len(resp.Diagnostics) > 0 {
		b.Fatalf("plan: %v %v", err, resp.Diagnostics)
	}
	return resp
}

func BenchmarkAgentPlanCreate10KB(b *testing.B) {
	ab := newAgentBench(b)
	b.ReportAllocs()
	for b.Loop() {
		ab.planCreate(b, ab.ours)
	}
}

func BenchmarkAgentPlanUnchanged10KB(b *testing.B) {
	ab := newAgentBench(b)
	req := &tfprotov6.PlanResourceChangeRequest{
		TypeName: "agentregistry_agent", PriorState: ab.state, ProposedNewState: ab.state, Config: ab.config,
	}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := ab.ours.PlanResourceChange(context.Background(), req)
		if err != nil || len(resp.Diagnostics) > 0 || len(resp.RequiresReplace) > 0 {
			b.Fatalf("plan: %v %v %v", err, resp.Diagnostics, resp.RequiresReplace)
		}
	}
}

func BenchmarkAgentRead10KB(b *testing.B) {
	ab := newAgentBench(b)
	req := &tfprotov6.ReadResourceRequest{TypeName: "agentregistry_agent", CurrentState: ab.state}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := ab.ours.ReadResource(context.Background(), req)
		if err != nil || len(resp.Diagnostics) > 0 {
			b.Fatalf("read: %v %v", err, resp.Diagnostics)
		}
	}
}

func BenchmarkAgentValidateConfig10KB(b *testing.B) {
	ab := newAgentBench(b)
	req := &tfprotov6.ValidateResourceConfigRequest{TypeName: "agentregistry_agent", Config: ab.config}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := ab.ours.ValidateResourceConfig(context.Background(), req)
		if err != nil || len(resp.Diagnostics) > 0 {
			b.Fatalf("validate: %v %v", err, resp.Diagnostics)
		}
	}
}

func BenchmarkAgentApplyCreate10KB(b *testing.B) {
	ab := newAgentBench(b)
	planned, err := ab.planCreate(b, ab.ours).PlannedState.Unmarshal(ab.typ)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		// A new service each time: the planned state of agent i.
		b.StopTimer()
		i++
		var attrs map[string]tftypes.Value
		if err := planned.As(&attrs); err != nil {
			b.Fatal(err)
		}
		attrs = maps.Clone(attrs)
		id := fmt.Sprintf("bench-agent-%d", i)
		name := "projects/bench/locations/global/services/" + id
		attrs["service_id"] = tftypes.NewValue(tftypes.String, id)
		attrs["name"] = tftypes.NewValue(tftypes.String, name)
		attrs["id"] = tftypes.NewValue(tftypes.String, name)
		req := &tfprotov6.ApplyResourceChangeRequest{TypeName: "agentregistry_agent", PriorState: ab.null(b),
			PlannedState: dynamicValue(b, ab.typ, tftypes.NewValue(ab.typ, attrs)), Config: ab.config}
		b.StartTimer()
		resp, err := ab.ours.ApplyResourceChange(context.Background(), req)
		if err != nil || len(resp.Diagnostics) > 0 {
			b.Fatalf("create: %v %v", err, resp.Diagnostics)
		}
	}
}

// configuredServer is the provider's protocol 6 server, configured for the
// registry at endpoint.
func configuredServer(t testing.TB, project, endpoint string) tfprotov6.ProviderServer {
	t.Helper()
	return configureProvider(t, New("test")(), map[string]tftypes.Value{
		"endpoint": tftypes.NewValue(tftypes.String, endpoint), "project": tftypes.NewValue(tftypes.String, project)})
}

// configureProvider is p's protocol 6 server, configured with settings (every
// other attribute of the provider block null).
func configureProvider(t testing.TB, p provider.Provider, settings map[string]tftypes.Value) tfprotov6.ProviderServer {
	t.Helper()
	s := providerserver.NewProtocol6(p)()
	schemas, err := s.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schemas.Diagnostics) > 0 {
		t.Fatalf("GetProviderSchema: %v %v", err, schemas.Diagnostics)
	}
	typ := schemas.Provider.ValueType()
	resp, err := s.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{
		TerraformVersion: "1.10.0",
		Config:           dynamicValue(t, typ, protoObject(t, typ, settings)),
	})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("ConfigureProvider: %v %v", err, resp.Diagnostics)
	}
	return s
}

// protoObject is an object of type typ with the given attributes, every other null.
func protoObject(t testing.TB, typ tftypes.Type, set map[string]tftypes.Value) tftypes.Value {
	attrs := map[string]tftypes.Value{}
	for name, attrType := range as[tftypes.Object](t, typ).AttributeTypes {
		attrs[name] = tftypes.NewValue(attrType, nil)
	}
	maps.Copy(attrs, set)
	return tftypes.NewValue(typ, attrs)
}

func dynamicValue(t testing.TB, typ tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

func resourceSchemas(t testing.TB, s tfprotov6.ProviderServer) map[string]*tfprotov6.Schema {
	schemas, err := s.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schemas.ResourceSchemas) == 0 {
		t.Fatalf("GetProviderSchema: %v, %d resource schemas", err, len(schemas.ResourceSchemas))
	}
	return schemas.ResourceSchemas
}
