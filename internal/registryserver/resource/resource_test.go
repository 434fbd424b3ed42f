package resource_test

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/apphub/v1"
	"google.golang.org/api/googleapi"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
)

// pairs are the resource types and the generated types they copy.
var pairs = []struct{ copy, original any }{
	{resource.Service{}, agentregistry.Service{}}, {resource.AgentSpec{}, agentregistry.AgentSpec{}},
	{resource.McpServerSpec{}, agentregistry.McpServerSpec{}}, {resource.EndpointSpec{}, agentregistry.EndpointSpec{}},
	{resource.Interface{}, agentregistry.Interface{}}, {resource.Agent{}, agentregistry.Agent{}},
	{resource.Card{}, agentregistry.Card{}}, {resource.Protocol{}, agentregistry.Protocol{}},
	{resource.A2ASkill{}, agentregistry.A2ASkill{}}, {resource.McpServer{}, agentregistry.McpServer{}},
	{resource.Tool{}, agentregistry.Tool{}}, {resource.Annotations{}, agentregistry.Annotations{}},
	{resource.Endpoint{}, agentregistry.Endpoint{}}, {resource.Binding{}, agentregistry.Binding{}},
	{resource.Source{}, agentregistry.Source{}}, {resource.Target{}, agentregistry.Target{}},
	{resource.AuthProviderBinding{}, agentregistry.AuthProviderBinding{}}, {resource.Skill{}, agentregistry.Skill{}},
	{resource.ScanningConfig{}, agentregistry.ScanningConfig{}}, {resource.Frontmatter{}, agentregistry.Frontmatter{}},
	{resource.SkillRevision{}, agentregistry.SkillRevision{}}, {resource.ArchiveUploadSource{}, agentregistry.ArchiveUploadSource{}},
	{resource.GcsSource{}, agentregistry.GcsSource{}}, {resource.ScanResult{}, agentregistry.ScanResult{}},
	{resource.ListServicesResponse{}, agentregistry.ListServicesResponse{}}, {resource.ListBindingsResponse{}, agentregistry.ListBindingsResponse{}},
	{resource.FetchAvailableBindingsResponse{}, agentregistry.FetchAvailableBindingsResponse{}},
	{resource.ListSkillsResponse{}, agentregistry.ListSkillsResponse{}}, {resource.SearchSkillsResponse{}, agentregistry.SearchSkillsResponse{}},
	{resource.ListSkillRevisionsResponse{}, agentregistry.ListSkillRevisionsResponse{}},
	{resource.Workload{}, apphub.Workload{}}, {resource.Attributes{}, apphub.Attributes{}},
	{resource.ContactInfo{}, apphub.ContactInfo{}}, {resource.Criticality{}, apphub.Criticality{}},
	{resource.Environment{}, apphub.Environment{}}, {resource.WorkloadProperties{}, apphub.WorkloadProperties{}},
	{resource.ExtendedMetadata{}, apphub.ExtendedMetadata{}}, {resource.FunctionalType{}, apphub.FunctionalType{}},
	{resource.Identity{}, apphub.Identity{}}, {resource.WorkloadReference{}, apphub.WorkloadReference{}},
	{resource.ListWorkloadsResponse{}, apphub.ListWorkloadsResponse{}},
}

// qualifier is the package of a type name: the copy and the original refer
// to the same type names in their own packages.
var qualifier = regexp.MustCompile(`\b\w+\.`)

// field is what the JSON encoding of a struct field depends on.
type field struct{ name, typ, tag string }

func fields(v any) []field {
	var out []field
	t := reflect.TypeOf(v)
	for i := range t.NumField() {
		f := t.Field(i)
		if tag := f.Tag.Get("json"); tag != "-" && tag != "" {
			out = append(out, field{f.Name, qualifier.ReplaceAllString(f.Type.String(), ""), tag})
		}
	}
	return out
}

// Every resource type has the fields of the generated type it copies, in
// its order, with the same Go types (up to their package) and JSON tags: a
// request decodes the same fields, and a record encodes the same JSON. The
// hints of Annotations drop omitempty (the generated type sends them with
// ForceSendFields).
func TestTypesMirrorTheGeneratedOnes(t *testing.T) {
	for _, p := range pairs {
		copied, original := fields(p.copy), fields(p.original)
		if _, ok := p.copy.(resource.Annotations); ok {
			for i := range original {
				if original[i].typ == "bool" {
					original[i].tag = strings.TrimSuffix(original[i].tag, ",omitempty")
				}
			}
		}
		if !reflect.DeepEqual(copied, original) {
			t.Errorf("%T differs from %T:\ncopy     %v\noriginal %v", p.copy, p.original, copied, original)
		}
	}
}

// A derived MCP server's tool annotations encode as the generated type with
// every hint forced, false ones included, keys in the same order.
func TestAnnotationsEncodeAsForced(t *testing.T) {
	copied, err := json.Marshal(resource.Annotations{ReadOnlyHint: true, Title: "T"})
	if err != nil {
		t.Fatal(err)
	}
	original, err := json.Marshal(agentregistry.Annotations{ReadOnlyHint: true, Title: "T",
		ForceSendFields: []string{"ReadOnlyHint", "DestructiveHint", "IdempotentHint", "OpenWorldHint"}})
	if err != nil {
		t.Fatal(err)
	}
	if string(copied) != string(original) {
		t.Errorf("annotations encode as %s, the generated type as %s", copied, original)
	}
}

// A record filled in every field encodes to the same bytes as the generated
// type holding the same values (a RawMessage of either package is the same
// JSON).
func TestSkillRevisionEncodesAsTheGeneratedOne(t *testing.T) {
	copied, err := json.Marshal(resource.SkillRevision{Name: "n", SizeBytes: 42, Frontmatter: &resource.Frontmatter{Metadata: map[string]string{"k": "v"}},
		ScanResult: &resource.ScanResult{Findings: []string{"f"}}})
	if err != nil {
		t.Fatal(err)
	}
	original, err := json.Marshal(agentregistry.SkillRevision{Name: "n", SizeBytes: 42, Frontmatter: &agentregistry.Frontmatter{Metadata: map[string]string{"k": "v"}},
		ScanResult: &agentregistry.ScanResult{Findings: []string{"f"}}})
	if err != nil {
		t.Fatal(err)
	}
	if string(copied) != string(original) {
		t.Errorf("a revision encodes as %s, the generated type as %s", copied, original)
	}
	card, err := json.Marshal(resource.Card{Content: json.RawMessage(`{"a":1}`)})
	if err == nil {
		var orig []byte
		orig, err = json.Marshal(agentregistry.Card{Content: googleapi.RawMessage(`{"a":1}`)})
		if string(card) != string(orig) {
			t.Errorf("a card encodes as %s, the generated type as %s", card, orig)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}
