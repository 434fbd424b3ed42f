package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/tooltext"
)

// toolFindingModel is one finding of tool_findings, and of the findings of
// the agentregistry_mcp_tool_spec data source.
type toolFindingModel struct {
	Tool     string `tfsdk:"tool"`
	Pointer  string `tfsdk:"pointer"`
	Rule     string `tfsdk:"rule"`
	Severity string `tfsdk:"severity"`
	Message  string `tfsdk:"message"`
}

var toolFindingObject = modelOf[toolFindingModel]()

func toolFindingOf(f tooltext.Finding) toolFindingModel {
	return toolFindingModel{Tool: f.Tool, Pointer: f.Pointer, Rule: f.Rule, Severity: f.Severity.String(), Message: f.Message}
}

// toolFindingsDescription says what a finding holds, for the function and
// the data source.
const toolFindingsDescription = "Each finding is an object: `tool` (the tool's name, hidden characters escaped), " +
	"`pointer` (an RFC 6901 JSON pointer into the tool spec, at the string that fired the rule, or the property a " +
	"name names), `rule` (a stable id, listed with its rationale and an example on the guide *Tool text rules*), " +
	"`severity` (`high`, `medium` or `low`) and `message` (what was found, quoted, every hidden character " +
	"written as an escape such as `\\u200b`, never raw). Findings are sorted by pointer, then rule."

// NewToolFindingsFunction is provider::agentregistry::tool_findings.
func NewToolFindingsFunction() function.Function { return toolFindingsFunction{} }

type toolFindingsFunction struct{}

func (toolFindingsFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "tool_findings"
}

func (toolFindingsFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Judges what an MCP tool spec asks of the model: tool poisoning, hidden characters, exfiltration",
		MarkdownDescription: "Reads every string a model reads in an MCP tool spec (a `tools/list` result: each tool's " +
			"`name`, `title`, `description`, `annotations`, and every string of `inputSchema` and `outputSchema`, " +
			"property names, defaults, enums, examples and keyword values included) and returns what the rules find: " +
			"hidden instructions aimed at the model, invisible or deceptive characters, secret files and credentials, " +
			"exfiltration sinks, text that redefines other tools, `readOnlyHint` contradicted by the tool's own text, " +
			"instructions smuggled into schemas, preference manipulation and padding. " + toolFindingsDescription +
			"\n\nOffline and deterministic: no model, no network, the same findings for the same document. The " +
			"analysis is bounded (a schema nested more than 64 levels, or more than 100,000 strings, stops it with a " +
			"high `unchecked-text` finding); a document that is not JSON, or has no `tools` array, is an error. The " +
			"spec need not be valid for the registry (a list over 10 KB is read too). An empty list means no rule fired.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "tool_spec", MarkdownDescription: "The MCP tool spec, as a JSON string."},
		},
		Return: function.ListReturn{ElementType: toolFindingObject.ObjectType()},
	}
}

func (toolFindingsFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var doc string
	resp.Error = req.Arguments.Get(ctx, &doc)
	if resp.Error != nil {
		return
	}
	findings, err := tooltext.Analyze([]byte(doc))
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, cannotCheckToolText(err))
		return
	}
	out := make([]toolFindingModel, 0, len(findings))
	for _, f := range findings {
		out = append(out, toolFindingOf(f))
	}
	resp.Error = resp.Result.Set(ctx, toolFindingObject.List(out))
}

// cannotCheckToolText is the error for a tool spec the analysis cannot read.
func cannotCheckToolText(err error) string {
	return "Cannot Check Tool Text: the tool spec could not be read: " + err.Error() + ". Expected a JSON tools/list " +
		"result, {\"tools\": [...]}, under the I-JSON rules (no duplicate key, no unpaired surrogate, no number " +
		"beyond the range of a double). Nothing can be said of a document that cannot be read: fix it first."
}
