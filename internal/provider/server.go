package provider

import (
	"bytes"
	"context"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// NewServer returns the factory of the provider's protocol 6 server, used by main
// and by the acceptance tests: the framework's server, with a shortcut for plans
// that change nothing (unchangedPlanServer).
func NewServer(version string) func() tfprotov6.ProviderServer {
	return func() tfprotov6.ProviderServer {
		p := &agentRegistryProvider{version: version}
		framework := providerserver.NewProtocol6(p)()
		return unchangedPlanServer{ProviderServer: framework, provider: p}
	}
}

// unchangedPlanServer answers PlanResourceChange itself when the proposed new
// state is the prior state byte for byte, as it is for every unchanged resource
// of a drift-check plan: the planned state is then the prior state, with no
// replacement. That is what the framework answers for this provider's resources,
// which have no defaults, no write-only attributes, and no plan modifier or
// ModifyPlan that alters an unchanged resource (TestUnchangedPlanServer_*
// compare both answers for every resource type).
//
// Why by hand: terraform-plugin-framework (v1.19) still runs every attribute's
// plan modifiers on such a plan and writes each top-level attribute back into the
// plan, each write rebuilding the whole value. With the skills of the agents'
// cards in that value, this was most of the provider's CPU in a plan of 500
// unchanged agents, and the plan took 4.7 times as long as OpenTofu's own floor.
// Every other request, and any plan where something changed, goes to the framework.
type unchangedPlanServer struct {
	tfprotov6.ProviderServer
	provider *agentRegistryProvider
}

func (s unchangedPlanServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	// Only once Configure succeeded: otherwise the framework's answer carries the
	// configuration's errors (see providerData.configErrors).
	if s.provider.usable.Load() && proposesNoChange(req) {
		return &tfprotov6.PlanResourceChangeResponse{
			PlannedState:   req.ProposedNewState,
			PlannedPrivate: req.PriorPrivate,
		}, nil
	}
	return s.ProviderServer.PlanResourceChange(ctx, req)
}

// msgpackNil is how a null object (a resource being created or destroyed) is encoded.
var msgpackNil = []byte{0xc0}

// proposesNoChange reports whether the proposed new state is the prior state,
// which exists, byte for byte. OpenTofu and Terraform encode both with the same
// MessagePack encoder, attributes in name order, so equal values give equal bytes;
// anything else (including an unknown value from the configuration) differs and
// goes to the framework.
func proposesNoChange(req *tfprotov6.PlanResourceChangeRequest) bool {
	prior, proposed := req.PriorState, req.ProposedNewState
	if prior == nil || proposed == nil || len(prior.MsgPack) == 0 || bytes.Equal(prior.MsgPack, msgpackNil) {
		return false
	}
	return bytes.Equal(prior.MsgPack, proposed.MsgPack)
}
