package validators

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// AgentCard validates an A2A Agent Card (0.3 or 1.0) at plan time.
func AgentCard() validator.String {
	return document{title: "A2A Agent Card", validate: spec.ValidateAgentCard}
}

// ToolSpec validates an MCP tool spec (a tools/list result) at plan time.
func ToolSpec() validator.String {
	return document{title: "MCP Tool Spec", validate: spec.ValidateToolSpec}
}

// AgentProperties validates an apphub.googleapis.com/AgentProperties document at plan time.
func AgentProperties() validator.String {
	return document{title: "AgentProperties Document", validate: spec.ValidateAgentProperties}
}

// document reports every problem of one document in a single diagnostic, so that a
// user fixes them in one pass. Validation results are cached by the spec package,
// so the several validations Terraform asks for in one run cost no schema work.
type document struct {
	title    string
	validate func([]byte) *spec.Result
}

func (d document) Description(context.Context) string {
	return "must be a valid " + d.title + " of at most 10,240 bytes (compact JSON)"
}

func (d document) MarkdownDescription(ctx context.Context) string { return d.Description(ctx) }

func (d document) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	// Unknown values are validated again once known (at apply, before any request).
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	result := d.validate([]byte(req.ConfigValue.ValueString()))
	if errs := result.Errors(); len(errs) > 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+d.title, DescribeProblems(d.title, errs)+
			"\n\nFix these in the document; nothing was sent to the registry.")
	}
	if warns := result.Warnings(); len(warns) > 0 {
		resp.Diagnostics.AddAttributeWarning(req.Path, d.title+" Warning", DescribeProblems(d.title, warns))
	}
}

// DescribeProblems renders problems as an indented list under one sentence.
func DescribeProblems(title string, problems []spec.Problem) string {
	var b strings.Builder
	noun := "problem"
	if len(problems) > 1 {
		noun = "problems"
	}
	fmt.Fprintf(&b, "The %s has %d %s:", title, len(problems), noun)
	for _, p := range problems {
		b.WriteString("\n  - ")
		b.WriteString(p.String())
	}
	return b.String()
}
