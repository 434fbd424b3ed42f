package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// Import ids, for every naming: full names, bare ids resolved with the
// provider's project and location, and what is refused.
func TestNaming_importID(t *testing.T) {
	data := &providerData{Project: "p", Location: "global"}
	for _, c := range []struct {
		naming naming
		id     string
		want   recordName
		err    string
	}{
		{agentNaming, "projects/x/locations/eu/services/currency-agent", recordName{"x", "eu", "currency-agent"}, ""},
		{agentNaming, "currency-agent", recordName{"p", "global", "currency-agent"}, ""},
		{agentNaming, "  currency-agent  ", recordName{"p", "global", "currency-agent"}, ""},
		{agentNaming, "Currency", recordName{}, `bare service_id such as "currency-agent"`},
		{agentNaming, "projects/x/locations/eu/bindings/planner-flights", recordName{}, "projects/{project}/locations/{location}/services/{service_id}"},
		{agentNaming, "projects/x/locations/eu/services/Bad_Id", recordName{}, "Invalid"},
		{agentNaming, "", recordName{}, "Cannot import agentregistry_agent"},
		{mcpServerNaming, "weather-mcp", recordName{"p", "global", "weather-mcp"}, ""},
		{bindingNaming, "planner-flights", recordName{"p", "global", "planner-flights"}, ""},
		{bindingNaming, "planner-", recordName{}, "not ending with a hyphen"},
		{bindingNaming, "projects/x/locations/eu/bindings/planner-flights", recordName{"x", "eu", "planner-flights"}, ""},
		{skillNaming, "pdf-forms", recordName{"p", "global", "pdf-forms"}, ""},
		{skillNaming, "pdf2", recordName{}, "lower-case letters and hyphens"},
		{agentPropertiesNaming, "projects/p/locations/l/applications/a/workloads/w-1", recordName{ID: "projects/p/locations/l/applications/a/workloads/w-1"}, ""},
		{agentPropertiesNaming, "w-1", recordName{}, "expected the workload's full name"},
	} {
		got, diags := c.naming.importName(context.Background(), data, resource.ImportStateRequest{ID: c.id})
		switch {
		case c.err == "" && diags.HasError():
			t.Errorf("%s %q: %v", c.naming.typeName(), c.id, diags)
		case c.err != "" && (!diags.HasError() || !strings.Contains(diags[0].Summary()+diags[0].Detail(), c.err)):
			t.Errorf("%s %q: diagnostics %v, want one saying %q", c.naming.typeName(), c.id, diags, c.err)
		case got != c.want:
			t.Errorf("%s %q: %+v, want %+v", c.naming.typeName(), c.id, got, c.want)
		}
	}
}

// A name formats back to itself, and a name of another collection or shape
// does not parse.
func TestNaming_formatAndParse(t *testing.T) {
	for _, n := range []naming{agentNaming, bindingNaming, skillNaming, agentPropertiesNaming} {
		r := recordName{Project: "p", Location: "l", ID: "some-id"}
		if n.wholeName {
			r = recordName{ID: "projects/p/locations/l/applications/a/workloads/w"}
		}
		got, ok := n.parse(n.format(r))
		if !ok || got != r {
			t.Errorf("%s: parse(format(%+v)) = %+v, %v", n.typeName(), r, got, ok)
		}
	}
	for _, name := range []string{"projects/p/locations/l/services", "projects//locations/l/services/x",
		"projects/p/locations/l/services/x/extra", "projects/p/zones/l/services/x", "projects/p/locations/l/agents/x"} {
		if _, ok := agentNaming.parse(name); ok {
			t.Errorf("parse(%q) accepted a name that is not a service's", name)
		}
	}
}

// The identity schema: the id is required for import, project and location
// optional, and a workload's identity is its name alone.
func TestNaming_identitySchema(t *testing.T) {
	s := agentNaming.identitySchema()
	if len(s.Attributes) != 3 || !s.Attributes["service_id"].IsRequiredForImport() ||
		!s.Attributes["project"].IsOptionalForImport() || !s.Attributes["location"].IsOptionalForImport() {
		t.Errorf("service identity schema: %+v", s.Attributes)
	}
	w := agentPropertiesNaming.identitySchema()
	if len(w.Attributes) != 1 || !w.Attributes["workload"].IsRequiredForImport() {
		t.Errorf("workload identity schema: %+v", w.Attributes)
	}
}
