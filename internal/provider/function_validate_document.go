package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// validateDocumentFunction is the shape shared by validate_agent_card,
// validate_tool_spec and validate_agent_properties: a JSON string in, the list
// of its errors out (empty when valid), for variable validation and check blocks.
type validateDocumentFunction struct {
	name string
	noun string
	// policy, when set, ends the description: how the document is read.
	policy   string
	validate func([]byte) *spec.Result
}

func (f *validateDocumentFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = f.name
}

func (f *validateDocumentFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Validates " + f.noun + " and returns its problems",
		MarkdownDescription: "Validates " + f.noun + " against the schema the provider enforces at plan time and returns " +
			"the list of errors, each as `line L, column C: /json/pointer: message`. A document on one line, as " +
			"`jsonencode` writes it (also `jsonencode(jsondecode(file(...)))`), has no lines to count: there each error " +
			"below the top level is `/json/pointer: message; look for <excerpt>`, the excerpt quoting the value and its " +
			"neighbours (such as a skill's `id` and `name`) so that a search finds it in the file. The list is empty " +
			"when the document is valid; warnings are not included. Use it in `variable` validation and `check` blocks." + f.policy,
		Parameters: []function.Parameter{
			function.StringParameter{Name: "json", MarkdownDescription: "The document, as a JSON string."},
		},
		Return: function.ListReturn{ElementType: types.StringType},
	}
}

func (f *validateDocumentFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var doc string
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &doc))
	if resp.Error != nil {
		return
	}
	problems := []string{}
	for _, p := range f.validate([]byte(doc)).Errors() {
		problems = append(problems, p.String())
	}
	resp.Error = function.ConcatFuncErrors(resp.Error, resp.Result.Set(ctx, problems))
}
