package provider

// How agentregistry_agent_properties checks what App Hub holds. Google's App
// Hub derives a workload's AgentProperties from the deployed agent and marks
// extendedMetadata output only, so the default mode, verify, writes nothing:
// it compares the declared document with App Hub's and names every field that
// differs. Write mode writes, and still checks what the registry then holds,
// since a registry that follows Google ignores the write without an error.

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
)

const (
	modeVerify = "verify"
	modeWrite  = "write"

	// maxListedChanges and maxShownValue bound the verify error, whatever
	// App Hub holds: a 10 KB document has few fields a reader can act on.
	maxListedChanges = 20
	maxShownValue    = 120
)

const outputOnlyHint = "Google's App Hub derives the AgentProperties entry from the deployed agent and serves it " +
	"read-only (extendedMetadata is output only), and a registry that follows it ignores the write. Use " +
	`mode = "verify" (the default), or a registry that accepts the write, such as the bundled agentregistry-server ` +
	"started with -apphub-writable."

// writeRefusedDetail is the plan error of mode = "write" against Google's App Hub.
func writeRefusedDetail(endpoint string) string {
	return fmt.Sprintf("mode = \"write\" writes the workload's AgentProperties, but the App Hub endpoint is %s, Google's, "+
		"where workloadProperties.extendedMetadata is output only: App Hub derives AgentProperties from the deployed "+
		"agent's card and ignores writes, so this apply could only fail or do nothing.\n\n"+
		"Use mode = \"verify\" (the default): it writes nothing, checks that App Hub holds the declared document and "+
		"shows App Hub's later changes as drift. Keep mode = \"write\" only with a registry that accepts the write, "+
		"such as the bundled agentregistry-server started with -apphub-writable (set the provider's apphub_endpoint).", endpoint)
}

// apply makes the registry hold the planned document (write) or checks that
// it does (verify); ok is false after an error was reported.
func (r *agentPropertiesResource) apply(ctx context.Context, plan *agentPropertiesModel, title, verb string, diags *diag.Diagnostics) bool {
	workload := plan.Workload.ValueString()
	if plan.Mode.ValueString() == modeWrite {
		entry, err := r.write(ctx, plan)
		if err != nil {
			diags.AddError(title, apiErrorDetail(verb, workload, err)+readOnlyHint(err))
			return false
		}
		return checkHeld(plan, entry, heldCheck{
			differs: "The registry answered the write of the AgentProperties of " + workload + " without error, " +
				"but holds another document",
			missing: "The registry answered the write of the AgentProperties of " + workload + " without error, " +
				"but holds no AgentProperties entry for it",
			advice: outputOnlyHint,
		}, diags)
	}
	w, err := r.data.Client.GetWorkload(ctx, workload)
	switch {
	case registryclient.IsNotFound(err):
		diags.AddError(notInAppHubTitle, fmt.Sprintf("App Hub has no workload %s (mode = \"verify\"). "+
			"App Hub registers a workload and derives its AgentProperties when the agent is deployed: deploy the agent, "+
			"or correct `workload`. Nothing was changed.", workload))
		return false
	case err != nil:
		diags.AddError("Cannot Read Agent Properties", apiErrorDetail("read", workload, err))
		return false
	}
	return checkHeld(plan, agentPropertiesEntry(w), verifyCheck(workload, "App Hub derives AgentProperties from the "+
		"deployed agent's card. Either redeploy the agent with a card that gives the declared values, then apply "+
		"again, or change the declaration to what App Hub holds. Nothing was changed."), diags)
}

const (
	differsTitle     = "Agent Properties Differ From App Hub's"
	notInAppHubTitle = "Agent Properties Not in App Hub"
)

// verifyCheck words what verify mode found, with advice on what to do.
func verifyCheck(workload, advice string) heldCheck {
	return heldCheck{
		differs: "App Hub holds other AgentProperties for workload " + workload +
			" than this configuration declares (mode = \"verify\")",
		missing: "App Hub holds no AgentProperties entry for workload " + workload + " (mode = \"verify\")",
		advice:  advice,
	}
}

// heldCheck words checkHeld's error: what differs, or that nothing is held,
// then what to do.
type heldCheck struct{ differs, missing, advice string }

// checkHeld reports, in one error, each field where the entry the registry
// holds differs from the planned document.
func checkHeld(plan *agentPropertiesModel, held []byte, words heldCheck, diags *diag.Diagnostics) bool {
	report := heldReport([]byte(plan.Properties.ValueString()), held, words)
	if report == "" {
		return true
	}
	diags.AddError(differsTitle, report)
	return false
}

// heldReport is "" when the entry the registry holds is the declared
// document, and otherwise says so, lists each field that differs (at most
// maxListedChanges) and gives the advice.
func heldReport(declared, held []byte, words heldCheck) string {
	if held == nil {
		return words.missing + ".\n\n" + words.advice
	}
	changes, err := jsoncanon.Diff(declared, held, maxListedChanges+1) // one more tells that some are left out
	if err == nil && len(changes) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n", words.differs)
	if err != nil {
		fmt.Fprintf(&b, "  its entry cannot be compared: %v\n", err)
	}
	for _, c := range changes[:min(len(changes), maxListedChanges)] {
		fmt.Fprintf(&b, "  %s: declared %s, App Hub has %s\n", pointerOrRoot(c.Pointer), shownValue(c.A), shownValue(c.B))
	}
	if len(changes) > maxListedChanges {
		fmt.Fprintf(&b, "  (the first %d differences; there are more)\n", maxListedChanges)
	}
	return b.String() + "\n" + words.advice
}

func pointerOrRoot(p string) string {
	if p == "" {
		return "(the whole document)"
	}
	return p
}

// shownValue is a compact JSON value cut to maxShownValue bytes, or
// "(absent)".
func shownValue(v []byte) string {
	if v == nil {
		return "(absent)"
	}
	if len(v) <= maxShownValue {
		return string(v)
	}
	cut := maxShownValue
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", v[:cut], len(v))
}

// verifyAtPlan warns, at plan, when an apply in verify mode would fail: it
// reads App Hub's entry when the plan creates the resource or changes its
// document, and names each field that differs, or the missing workload. A
// warning, not an error: App Hub derives the entry from the deployed agent, and
// a deploy in the same apply (a resource this one depends on) or between plan
// and apply can still make it match; the apply checks again and fails then.
// A read that fails leaves the check to the apply, and says so.
func (r *agentPropertiesResource) verifyAtPlan(ctx context.Context, plan, state *agentPropertiesModel, diags *diag.Diagnostics) {
	if r.data == nil || plan.Mode.ValueString() != modeVerify || plan.Workload.IsUnknown() || plan.Properties.IsUnknown() {
		return
	}
	timeout := plan.Timeouts.Update
	if state == nil || !state.Workload.Equal(plan.Workload) {
		timeout = plan.Timeouts.Create
	} else if sameDocument(plan.Properties, state.Properties) {
		return // the apply sends and checks nothing
	}
	ctx, cancel := withDeadline(ctx, timeout, diags)
	defer cancel()
	workload := plan.Workload.ValueString()
	const failing = "mode = \"verify\" writes nothing, so applying this plan will fail"
	w, err := r.data.Client.GetWorkload(ctx, workload)
	switch {
	case registryclient.IsNotFound(err):
		diags.AddAttributeWarning(path.Root("workload"), notInAppHubTitle, fmt.Sprintf("App Hub has no workload %s: "+
			"%s unless the agent is deployed before this resource is applied (App Hub registers a workload and derives "+
			"its AgentProperties when the agent is deployed). Deploy the agent, or correct `workload`.", workload, failing))
	case err != nil:
		diags.AddAttributeWarning(path.Root("properties"), "Agent Properties Not Checked Against App Hub at Plan",
			apiErrorDetail("read", workload, err)+"\n\nThe apply reads App Hub again and fails if its entry differs "+
				"from the declared document.")
	default:
		report := heldReport([]byte(plan.Properties.ValueString()), agentPropertiesEntry(w), verifyCheck(workload,
			failing+" unless App Hub holds the declared document by then: App Hub derives it from the deployed "+
				"agent's card. Redeploy the agent with a card that gives the declared values (before this apply, or in "+
				"it, through a resource this one depends on), or change the declaration to what App Hub holds."))
		if report != "" {
			diags.AddAttributeWarning(path.Root("properties"), differsTitle, report)
		}
	}
}
