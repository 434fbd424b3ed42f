package validators

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
)

// Document is one kind of document: its title in messages and its validation.
type Document struct {
	Title    string
	Validate func([]byte) *spec.Result
}

// The documents the provider validates.
var (
	AgentCardDocument       = Document{Title: "A2A Agent Card", Validate: spec.ValidateAgentCard}
	ToolSpecDocument        = Document{Title: "MCP Tool Spec", Validate: spec.ValidateToolSpec}
	AgentPropertiesDocument = Document{Title: "AgentProperties Document", Validate: spec.ValidateAgentProperties}
)

// AgentCard validates an A2A Agent Card (0.3 or 1.0) at plan time.
func AgentCard() validator.String { return documentValidator{AgentCardDocument} }

// ToolSpec validates an MCP tool spec (a tools/list result) at plan time.
func ToolSpec() validator.String { return documentValidator{ToolSpecDocument} }

// AgentProperties validates an apphub.googleapis.com/AgentProperties document at plan time.
func AgentProperties() validator.String { return documentValidator{AgentPropertiesDocument} }

// documentValidator reports every error of one document in a single
// diagnostic, so that a user fixes them in one pass. Validation results are
// cached by the spec package, so the several validations Terraform asks for in
// one run cost no schema work.
//
// Warnings are not reported here: Terraform validates the configuration twice
// in a plan (and three times in an apply), so each warning would show two or
// three times. The resources report them from ModifyPlan instead (Warnings).
type documentValidator struct{ Document }

func (d documentValidator) Description(context.Context) string {
	return "must be a valid " + d.Title + " of at most 10,240 bytes (compact JSON)"
}

func (d documentValidator) MarkdownDescription(ctx context.Context) string { return d.Description(ctx) }

func (d documentValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	// Unknown values are validated again once known (at apply, before any request).
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if errs := d.Validate([]byte(req.ConfigValue.ValueString())).Errors(); len(errs) > 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+d.Title, DescribeProblems(d.Title, "problem", errs)+
			"\n\nFix these in the document; nothing was sent to the registry.")
	}
}

// Warnings reports the warnings of a document about to be sent as one warning
// diagnostic on its attribute; nothing for a document with none. Resources call
// it from ModifyPlan, which Terraform calls once per resource in a plan.
func (d Document) Warnings(p path.Path, doc string) diag.Diagnostics {
	var diags diag.Diagnostics
	if warns := d.Validate([]byte(doc)).Warnings(); len(warns) > 0 {
		diags.AddAttributeWarning(p, d.Title+" Has Warnings", DescribeProblems(d.Title, "warning", warns)+
			"\n\nThe registry may accept the document as it is; fix these to be sure it does.")
	}
	return diags
}

// DescribeProblems renders problems as an indented list under one sentence
// that counts them with noun ("problem", "warning"). A problem's pointer
// holds the document's keys, which may come from a peer (a tool spec read
// from an MCP server, a lock made of one): each line reaches the terminal
// with its non-graphic characters escaped (termsafe.Escape).
func DescribeProblems(title, noun string, problems []spec.Problem) string {
	var b strings.Builder
	if len(problems) > 1 {
		noun += "s"
	}
	fmt.Fprintf(&b, "The %s has %d %s:", title, len(problems), noun)
	for _, p := range problems {
		b.WriteString("\n  - ")
		b.WriteString(termsafe.Escape(p.String()))
	}
	return b.String()
}
