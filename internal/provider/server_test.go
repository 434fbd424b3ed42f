package provider

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// configuredServers returns the framework's server and the provider's own
// (NewServer's), both configured with the given project ("" for none) and a
// registry endpoint that is never contacted.
func configuredServers(t testing.TB, project string) (framework, ours tfprotov6.ProviderServer) {
	return configuredServersAt(t, project, "http://127.0.0.1:9")
}

// configuredServersAt is configuredServers with the registry at endpoint.
func configuredServersAt(t testing.TB, project, endpoint string) (framework, ours tfprotov6.ProviderServer) {
	t.Helper()
	framework = providerserver.NewProtocol6(&agentRegistryProvider{version: "test"})()
	ours = NewServer("test")()
	for _, s := range []tfprotov6.ProviderServer{framework, ours} {
		schemas, err := s.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
		if err != nil || len(schemas.Diagnostics) > 0 {
			t.Fatalf("GetProviderSchema: %v %v", err, schemas.Diagnostics)
		}
		typ := schemas.Provider.ValueType()
		attrs := map[string]tftypes.Value{}
		for name, attrType := range typ.(tftypes.Object).AttributeTypes {
			attrs[name] = tftypes.NewValue(attrType, nil)
		}
		attrs["endpoint"] = tftypes.NewValue(tftypes.String, endpoint)
		if project != "" {
			attrs["project"] = tftypes.NewValue(tftypes.String, project)
		}
		resp, err := s.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{
			TerraformVersion: "1.10.6",
			Config:           dynamicValue(t, typ, tftypes.NewValue(typ, attrs)),
		})
		if err != nil || len(resp.Diagnostics) > 0 {
			t.Fatalf("ConfigureProvider: %v %v", err, resp.Diagnostics)
		}
	}
	return framework, ours
}

func dynamicValue(t testing.TB, typ tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

// sampleValue is a known value of typ with every attribute set and one element
// in every collection, so that every nested attribute is present.
func sampleValue(typ tftypes.Type) tftypes.Value {
	switch {
	case typ.Is(tftypes.String):
		return tftypes.NewValue(typ, "sample")
	case typ.Is(tftypes.Bool):
		return tftypes.NewValue(typ, true)
	case typ.Is(tftypes.Number):
		return tftypes.NewValue(typ, 7)
	case typ.Is(tftypes.List{}):
		return tftypes.NewValue(typ, []tftypes.Value{sampleValue(typ.(tftypes.List).ElementType)})
	case typ.Is(tftypes.Set{}):
		return tftypes.NewValue(typ, []tftypes.Value{sampleValue(typ.(tftypes.Set).ElementType)})
	case typ.Is(tftypes.Map{}):
		return tftypes.NewValue(typ, map[string]tftypes.Value{"k": sampleValue(typ.(tftypes.Map).ElementType)})
	case typ.Is(tftypes.Object{}):
		attrs := map[string]tftypes.Value{}
		for name, attrType := range typ.(tftypes.Object).AttributeTypes {
			attrs[name] = sampleValue(attrType)
		}
		return tftypes.NewValue(typ, attrs)
	}
	panic("sampleValue: unhandled type " + typ.String())
}

// configOf is the configuration that gives state: computed-only attributes null,
// and with bare, every optional attribute null too (their state then null as
// well, except optional computed ones, which keep their value).
func configOf(schema *tfprotov6.Schema, state tftypes.Value, bare bool) (config, newState tftypes.Value) {
	var attrs map[string]tftypes.Value
	if err := state.As(&attrs); err != nil {
		panic(err)
	}
	cfg, st := maps.Clone(attrs), maps.Clone(attrs) // As shares the value's own map
	for _, a := range schema.Block.Attributes {
		null := tftypes.NewValue(cfg[a.Name].Type(), nil)
		switch {
		case a.Computed && !a.Optional:
			cfg[a.Name] = null
		case bare && a.Optional:
			cfg[a.Name] = null
			if !a.Computed {
				st[a.Name] = null
			}
		}
	}
	return tftypes.NewValue(state.Type(), cfg), tftypes.NewValue(state.Type(), st)
}

// noChangePlan is the PlanResourceChange request of an unchanged resource (see
// configOf for bare), and the schema's value type.
func noChangePlan(t *testing.T, typeName string, schema *tfprotov6.Schema, bare bool) (*tfprotov6.PlanResourceChangeRequest, tftypes.Type) {
	typ := schema.ValueType()
	config, state := configOf(schema, sampleValue(typ), bare)
	return &tfprotov6.PlanResourceChangeRequest{
		TypeName:         typeName,
		PriorState:       dynamicValue(t, typ, state),
		ProposedNewState: dynamicValue(t, typ, state),
		Config:           dynamicValue(t, typ, config),
	}, typ
}

func resourceSchemas(t testing.TB, s tfprotov6.ProviderServer) map[string]*tfprotov6.Schema {
	schemas, err := s.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schemas.ResourceSchemas) == 0 {
		t.Fatalf("GetProviderSchema: %v, %d resource schemas", err, len(schemas.ResourceSchemas))
	}
	return schemas.ResourceSchemas
}

// The shortcut must answer exactly what the framework answers, for every
// resource type: a resource that gains a default or a plan modifier acting on
// unchanged values makes this test fail, and the shortcut must then go.
func TestUnchangedPlanServer_agreesWithTheFramework(t *testing.T) {
	framework, ours := configuredServers(t, "p")
	for typeName, schema := range resourceSchemas(t, framework) {
		for _, bare := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/bare=%v", typeName, bare), func(t *testing.T) {
				req, typ := noChangePlan(t, typeName, schema, bare)
				if !proposesNoChange(req) {
					t.Fatal("the request must take the shortcut")
				}
				want, err := framework.PlanResourceChange(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				got, err := ours.PlanResourceChange(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				if len(want.Diagnostics) > 0 || len(want.RequiresReplace) > 0 || want.Deferred != nil {
					t.Fatalf("framework: diagnostics %v, requires replace %v, deferred %v", want.Diagnostics, want.RequiresReplace, want.Deferred)
				}
				if len(got.Diagnostics) > 0 || len(got.RequiresReplace) > 0 || got.Deferred != nil {
					t.Fatalf("shortcut: diagnostics %v, requires replace %v, deferred %v", got.Diagnostics, got.RequiresReplace, got.Deferred)
				}
				wantState, err := want.PlannedState.Unmarshal(typ)
				if err != nil {
					t.Fatal(err)
				}
				gotState, err := got.PlannedState.Unmarshal(typ)
				if err != nil {
					t.Fatal(err)
				}
				if !gotState.Equal(wantState) {
					t.Errorf("planned state differs:\nshortcut  %v\nframework %v", gotState, wantState)
				}
				if string(got.PlannedPrivate) != string(want.PlannedPrivate) {
					t.Errorf("planned private: shortcut %q, framework %q", got.PlannedPrivate, want.PlannedPrivate)
				}
			})
		}
	}
}

// A change goes to the framework: a new service_id plans a replacement.
func TestUnchangedPlanServer_changeGoesToTheFramework(t *testing.T) {
	_, ours := configuredServers(t, "p")
	schema := resourceSchemas(t, ours)["agentregistry_agent"]
	req, typ := noChangePlan(t, "agentregistry_agent", schema, false)
	proposed, err := req.ProposedNewState.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	if err := proposed.As(&attrs); err != nil {
		t.Fatal(err)
	}
	attrs["service_id"] = tftypes.NewValue(tftypes.String, "another-agent")
	req.ProposedNewState = dynamicValue(t, typ, tftypes.NewValue(typ, attrs))
	config, _ := configOf(schema, tftypes.NewValue(typ, attrs), false)
	req.Config = dynamicValue(t, typ, config)

	resp, err := ours.PlanResourceChange(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.RequiresReplace) != 1 || resp.RequiresReplace[0].String() != tftypes.NewAttributePath().WithAttributeName("service_id").String() {
		t.Errorf("requires replace = %v, want service_id", resp.RequiresReplace)
	}
}

// Without a usable configuration the framework answers, with the error.
func TestUnchangedPlanServer_misconfiguredProviderGoesToTheFramework(t *testing.T) {
	t.Setenv("AGENTREGISTRY_PROJECT", "")
	t.Setenv("GOOGLE_CLOUD_PROJECT", "")
	_, ours := configuredServers(t, "")
	req, _ := noChangePlan(t, "agentregistry_agent", resourceSchemas(t, ours)["agentregistry_agent"], false)
	resp, err := ours.PlanResourceChange(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Diagnostics) == 0 || !strings.Contains(resp.Diagnostics[0].Summary, "Project") {
		t.Errorf("diagnostics = %v, want the missing project error", resp.Diagnostics)
	}
}
