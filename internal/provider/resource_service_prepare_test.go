package provider

// The document a kind sends in place of its attribute (the agent's signed
// card) is prepared once per plan and once per write, and verified once
// each; a read verifies once and signs nothing. The provider is driven
// through the plugin protocol (as a CLI drives it, one RPC at a time) with
// its agent kind's document policy counted.

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// hookCounts counts the calls of the agent kind's document policy.
type hookCounts struct {
	prepares, verifies, readVerifies atomic.Int32
}

func (c *hookCounts) want(t *testing.T, step string, prepares, verifies, readVerifies int32) {
	t.Helper()
	if p, v, rv := c.prepares.Load(), c.verifies.Load(), c.readVerifies.Load(); p != prepares || v != verifies || rv != readVerifies {
		t.Errorf("after %s: %d prepares, %d verifies and %d verifies on read; want %d, %d and %d",
			step, p, v, rv, prepares, verifies, readVerifies)
	}
}

// countingProvider is the provider whose agentregistry_agent counts its
// kind's prepare and verify calls (countingPolicy).
type countingProvider struct {
	*agentRegistryProvider
	counts *hookCounts
	t      *testing.T
}

func (p countingProvider) Resources(ctx context.Context) []func() resource.Resource {
	factories := p.agentRegistryProvider.Resources(ctx)
	for i, f := range factories {
		if _, ok := f().(*serviceResource[agentModel, *agentModel]); ok {
			factories[i] = p.countedAgent
		}
	}
	return factories
}

func (p countingProvider) countedAgent() resource.Resource {
	r := as[*serviceResource[agentModel, *agentModel]](p.t, NewAgentResource())
	r.kind.policy = countingPolicy{r.kind.policy, p.counts}
	return r
}

// countingPolicy counts the prepare and verify calls of the policy it wraps.
type countingPolicy struct {
	documentPolicy[agentModel]
	counts *hookCounts
}

func (c countingPolicy) prepare(ctx context.Context, config tfsdk.Config, m *agentModel, diags *diag.Diagnostics) outgoing {
	c.counts.prepares.Add(1)
	return c.documentPolicy.prepare(ctx, config, m, diags)
}

func (c countingPolicy) verify(data *providerData, m *agentModel, out outgoing, onRead bool, diags *diag.Diagnostics) {
	if onRead {
		c.counts.readVerifies.Add(1)
	} else {
		c.counts.verifies.Add(1)
	}
	c.documentPolicy.verify(data, m, out, onRead, diags)
}

func noErrors(t *testing.T, rpc string, diags []*tfprotov6.Diagnostic) {
	t.Helper()
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Fatalf("%s: %s: %s", rpc, d.Summary, d.Detail)
		}
	}
}

// verifiedKeyIDs reads verified_key_ids from an agent's planned or new state.
func (a agentRPCs) verifiedKeyIDs(state *tfprotov6.DynamicValue) []string {
	var elems []tftypes.Value
	if err := a.attrs(state)["verified_key_ids"].As(&elems); err != nil {
		a.t.Fatalf("verified_key_ids: %v", err)
	}
	kids := make([]string, len(elems))
	for i, e := range elems {
		_ = e.As(&kids[i])
	}
	return kids
}

// attrs are the attributes of an agent's planned or new state.
func (a agentRPCs) attrs(state *tfprotov6.DynamicValue) map[string]tftypes.Value {
	v, err := state.Unmarshal(a.ty)
	var attrs map[string]tftypes.Value
	if err == nil {
		err = v.As(&attrs)
	}
	if err != nil {
		a.t.Fatal(err)
	}
	return attrs
}

// agentRPCs drives one agentregistry_agent through the plugin protocol.
type agentRPCs struct {
	t      *testing.T
	server tfprotov6.ProviderServer
	ty     tftypes.Type
}

func (a agentRPCs) plan(prior, config *tfprotov6.DynamicValue, proposed tftypes.Value) *tfprotov6.PlanResourceChangeResponse {
	resp, err := a.server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: "agentregistry_agent", PriorState: prior, ProposedNewState: dynamicValue(a.t, a.ty, proposed), Config: config})
	if err != nil {
		a.t.Fatal(err)
	}
	noErrors(a.t, "PlanResourceChange", resp.Diagnostics)
	return resp
}

func (a agentRPCs) apply(prior, config *tfprotov6.DynamicValue, planned *tfprotov6.PlanResourceChangeResponse) *tfprotov6.ApplyResourceChangeResponse {
	resp, err := a.server.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: "agentregistry_agent", PriorState: prior, PlannedState: planned.PlannedState, Config: config,
		PlannedPrivate: planned.PlannedPrivate})
	if err != nil {
		a.t.Fatal(err)
	}
	noErrors(a.t, "ApplyResourceChange", resp.Diagnostics)
	return resp
}

func TestServiceKinds_signedOncePerPlanAndPerWrite(t *testing.T) {
	reg := startRegistry(t)
	key := newWOKey(t, "signer")
	counts := &hookCounts{}
	counted := countingProvider{as[*agentRegistryProvider](t, New("test")()), counts, t}
	server := configureProvider(t, counted, map[string]tftypes.Value{
		"endpoint": tftypes.NewValue(tftypes.String, reg.URL), "project": tftypes.NewValue(tftypes.String, "test-project"),
		"trusted_keys":     tftypes.NewValue(tftypes.String, woPublicJWKS(t, key)),
		"signature_policy": tftypes.NewValue(tftypes.String, "require"),
	})
	a := agentRPCs{t: t, server: server, ty: resourceSchemas(t, server)["agentregistry_agent"].ValueType()}
	config := func(version int) (*tfprotov6.DynamicValue, map[string]tftypes.Value) {
		attrs := map[string]tftypes.Value{
			"service_id": tftypes.NewValue(tftypes.String, "counted-agent"), "agent_card": tftypes.NewValue(tftypes.String, woCard),
			"signing_key_wo_version": tftypes.NewValue(tftypes.Number, version),
		}
		withKey := map[string]tftypes.Value{"signing_key_wo": tftypes.NewValue(tftypes.String, key.jwk)}
		for k, v := range attrs {
			withKey[k] = v
		}
		return dynamicValue(t, a.ty, protoObject(t, a.ty, withKey)), attrs // the key is never in a plan
	}

	none := dynamicValue(t, a.ty, tftypes.NewValue(a.ty, nil))
	cfg, proposed := config(1)
	planned := a.plan(none, cfg, protoObject(t, a.ty, proposed))
	counts.want(t, "the plan of a create", 1, 1, 0)
	if kids := a.verifiedKeyIDs(planned.PlannedState); !slices.Equal(kids, []string{"signer"}) {
		t.Errorf("planned verified_key_ids %v, want the signer: the plan checked the card as signed", kids)
	}
	created := a.apply(none, cfg, planned)
	counts.want(t, "the create", 2, 2, 0)

	// verified_key_ids null in the prior state, which a read whose check
	// fails keeps: only a read that verifies the registry's signed card (the
	// state keeps the card as written, unsigned) sets the signer.
	stateAttrs := a.attrs(created.NewState)
	stateAttrs["verified_key_ids"] = tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, nil)
	read, err := a.server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: "agentregistry_agent",
		CurrentState: dynamicValue(t, a.ty, tftypes.NewValue(a.ty, stateAttrs)), Private: created.Private})
	if err != nil {
		t.Fatal(err)
	}
	noErrors(t, "ReadResource", read.Diagnostics)
	counts.want(t, "a read", 2, 2, 1)
	if kids := a.verifiedKeyIDs(read.NewState); !slices.Equal(kids, []string{"signer"}) {
		t.Errorf("verified_key_ids after a read %v, want the signer: the read verified the registry's signed card", kids)
	}

	// A new signing_key_wo_version re-signs and sends the card again, in place.
	cfg, _ = config(2)
	priorAttrs := a.attrs(read.NewState)
	priorAttrs["signing_key_wo_version"] = tftypes.NewValue(tftypes.Number, 2)
	planned = a.plan(read.NewState, cfg, tftypes.NewValue(a.ty, priorAttrs))
	counts.want(t, "the plan of an update", 3, 3, 1)
	a.apply(read.NewState, cfg, planned)
	counts.want(t, "the update", 4, 4, 1)
}
