package state

import (
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
)

// An AgentProperties entry that is not JSON is refused by name. Through the
// API the body's decoder refuses it first; validateAgentProperties does not
// count on that.
func TestAgentPropertiesNotJSON(t *testing.T) {
	entry, v := validateAgentProperties(resource.ExtendedMetadata{MetadataStruct: []byte(`{"displayName":`)})
	if entry != nil || len(v) != 1 || v[0].Field != apField || !strings.HasPrefix(v[0].Description, "is not valid JSON") {
		t.Errorf("entry %s, violations %+v; want none and one saying it is not valid JSON", entry, v)
	}
}
