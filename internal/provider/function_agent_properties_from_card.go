package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

// NewAgentPropertiesFromCardFunction is provider::agentregistry::agent_properties_from_card.
func NewAgentPropertiesFromCardFunction() function.Function {
	return &agentPropertiesFromCardFunction{}
}

type agentPropertiesFromCardFunction struct{}

func (f *agentPropertiesFromCardFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "agent_properties_from_card"
}

func (f *agentPropertiesFromCardFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Derives an AgentProperties document from an A2A Agent Card",
		MarkdownDescription: "Derives the App Hub `apphub.googleapis.com/AgentProperties` document of an agent from its " +
			"A2A Agent Card: display name, description, version, framework, `agentCardUri` (when given) and skills. " +
			"The result is valid against the AgentProperties schema; feed it to `agentregistry_agent_properties`. " +
			"An invalid card is an error that lists its problems.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "card_json", MarkdownDescription: "The agent card, as a JSON string."},
			function.StringParameter{Name: "framework", MarkdownDescription: "The agent framework, such as `google-adk`, `langchain` or `custom`."},
		},
		VariadicParameter: function.StringParameter{
			Name:                "agent_card_uri",
			MarkdownDescription: "Optional: the URL where the card is published (`agentCardUri`); at most one.",
		},
		Return: function.StringReturn{},
	}
}

func (f *agentPropertiesFromCardFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var card, framework string
	var uris []string
	resp.Error = req.Arguments.Get(ctx, &card, &framework, &uris)
	if resp.Error != nil {
		return
	}
	if len(uris) > 1 {
		resp.Error = function.NewArgumentFuncError(2, "agent_properties_from_card takes at most one agent_card_uri")
		return
	}
	if errs := spec.ValidateAgentCard([]byte(card)).Errors(); len(errs) > 0 {
		resp.Error = function.NewArgumentFuncError(0, validators.DescribeProblems("A2A Agent Card", "problem", errs))
		return
	}
	uri := ""
	if len(uris) == 1 {
		uri = uris[0]
	}
	props, err := spec.AgentPropertiesFromCard([]byte(card), framework, uri)
	if err != nil {
		resp.Error = function.NewFuncError("Cannot derive AgentProperties: " + err.Error())
		return
	}
	resp.Error = resp.Result.Set(ctx, string(props))
}
