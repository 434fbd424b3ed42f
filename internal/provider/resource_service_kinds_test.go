package provider

// Table tests of the service kinds' pure functions (update masks, derived
// values, refresh), so that the core can change without a CLI run.

import (
	"context"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsondoc"
)

const (
	kindCard       = `{"protocolVersion":"0.3.0","name":"A","description":"d","version":"1.2.0","url":"https://a.example/a2a","skills":[{"id":"s1","name":"S","description":"d","tags":["t"]},{"id":"s2","name":"S","description":"d","tags":["t"]}]}`
	kindCardSpaced = "{ \"skills\": [{\"id\":\"s1\",\"name\":\"S\",\"description\":\"d\",\"tags\":[\"t\"]},{\"id\":\"s2\",\"name\":\"S\",\"description\":\"d\",\"tags\":[\"t\"]}],\n \"url\":\"https://a.example/a2a\", \"version\":\"1.2.0\", \"description\":\"d\", \"name\":\"A\", \"protocolVersion\":\"0.3.0\" }"
	kindTools      = `{"tools":[{"name":"get","inputSchema":{"type":"object"}},{"name":"put","inputSchema":{"type":"object"}}]}`
)

func kindInterfaces(urls ...string) types.List {
	var models []interfaceModel
	for _, u := range urls {
		models = append(models, interfaceModel{URL: types.StringValue(u), ProtocolBinding: types.StringValue("JSONRPC")})
	}
	if models == nil {
		return types.ListNull(interfaceObjectType)
	}
	l, _ := types.ListValueFrom(context.Background(), interfaceObjectType, models)
	return l
}

func kindBase(displayName string, interfaces types.List) serviceModel {
	return serviceModel{DisplayName: types.StringValue(displayName), Description: types.StringNull(), Interfaces: interfaces}
}

func listStrings(t *testing.T, l types.List) []string {
	t.Helper()
	var out []string
	for _, e := range l.Elements() {
		out = append(out, as[basetypes.StringValue](t, e).ValueString())
	}
	return out
}

func TestServiceKinds_updateMask(t *testing.T) {
	ctx := context.Background()
	agent := func(name, card string, version int64) *agentModel {
		m := &agentModel{serviceModel: kindBase(name, kindInterfaces()), AgentCard: jsondoc.NewValue(card),
			SigningKeyWOVersion: types.Int64Null()}
		if version > 0 {
			m.SigningKeyWOVersion = types.Int64Value(version)
		}
		return m
	}
	mcp := func(ifaces types.List, tools string) *mcpServerModel {
		return &mcpServerModel{serviceModel: kindBase("M", ifaces), ToolSpec: jsondoc.NewValue(tools)}
	}
	r := as[*serviceResource[agentModel, *agentModel]](t, NewAgentResource())
	m := as[*serviceResource[mcpServerModel, *mcpServerModel]](t, NewMcpServerResource())
	for _, c := range []struct {
		name string
		got  []string
		want []string
	}{
		{"agent: nothing", r.updateMask(ctx, agent("A", kindCard, 0), agent("A", kindCard, 0)), nil},
		{"agent: the card reformatted", r.updateMask(ctx, agent("A", kindCardSpaced, 0), agent("A", kindCard, 0)), nil},
		{"agent: the card changed", r.updateMask(ctx, agent("A", kindTools, 0), agent("A", kindCard, 0)), []string{"agentSpec.content"}},
		{"agent: a new signing key version", r.updateMask(ctx, agent("A", kindCard, 2), agent("A", kindCard, 1)), []string{"agentSpec.content"}},
		{"agent: a signing key added", r.updateMask(ctx, agent("A", kindCard, 1), agent("A", kindCard, 0)), []string{"agentSpec.content"}},
		{"agent: the display name", r.updateMask(ctx, agent("B", kindCard, 0), agent("A", kindCard, 0)), []string{"displayName"}},
		{"mcp: interfaces", m.updateMask(ctx, mcp(kindInterfaces("https://x"), kindTools), mcp(kindInterfaces("https://y"), kindTools)), []string{"interfaces"}},
		{"mcp: null and empty interfaces are the same", m.updateMask(ctx, mcp(types.ListValueMust(interfaceObjectType, nil), kindTools), mcp(kindInterfaces(), kindTools)), nil},
		{"mcp: tool spec", m.updateMask(ctx, mcp(kindInterfaces(), kindCard), mcp(kindInterfaces(), kindTools)), []string{"mcpServerSpec"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: mask %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestServiceKinds_derived(t *testing.T) {
	a := &agentModel{serviceModel: kindBase("A", kindInterfaces()), AgentCard: jsondoc.NewValue(kindCard)}
	a.setDerived()
	if a.A2AVersion.ValueString() != "0.3" || a.Version.ValueString() != "1.2.0" ||
		!slices.Equal(listStrings(t, a.SkillIDs), []string{"s1", "s2"}) || !slices.Equal(listStrings(t, a.URLs), []string{"https://a.example/a2a"}) {
		t.Errorf("agent with a card: %v %v %v %v", a.A2AVersion, a.Version, a.SkillIDs, a.URLs)
	}
	cardless := &agentModel{serviceModel: kindBase("A", kindInterfaces("https://x", "https://x", "https://y")), AgentCard: jsondoc.NewNull()}
	cardless.setDerived()
	if !cardless.A2AVersion.IsNull() || len(cardless.SkillIDs.Elements()) != 0 ||
		!slices.Equal(listStrings(t, cardless.URLs), []string{"https://x", "https://y"}) {
		t.Errorf("agent without a card: %v %v %v", cardless.A2AVersion, cardless.SkillIDs, cardless.URLs)
	}
	unknown := &agentModel{serviceModel: kindBase("A", kindInterfaces()), AgentCard: jsondoc.Value{StringValue: types.StringUnknown()}}
	unknown.setDerived()
	if !unknown.SkillIDs.IsUnknown() || !unknown.A2AVersion.IsUnknown() {
		t.Errorf("agent with an unknown card: derived values %v %v, want unknown", unknown.SkillIDs, unknown.A2AVersion)
	}
	m := &mcpServerModel{ToolSpec: jsondoc.NewValue(kindTools)}
	m.setDerived()
	if !slices.Equal(listStrings(t, m.ToolNames), []string{"get", "put"}) {
		t.Errorf("tool names %v", m.ToolNames)
	}
}

// A refresh keeps the card in state when the registry holds the same card
// (re-encoded), or holds what was sent in its place (a signed card); any
// other card is drift.
func TestServiceKinds_agentRefresh(t *testing.T) {
	signed := `{"name":"A","description":"d","version":"1.2.0","url":"https://a.example/a2a","protocolVersion":"0.3.0","skills":[],"signatures":[{"protected":"e30","signature":"c2ln"}]}`
	for _, c := range []struct {
		name, registry, sent string
		keep                 bool
	}{
		{"the same card, keys re-ordered", kindCardSpaced, "", true},
		{"the card as signed and sent", signed, signed, true},
		{"the signed card, sent re-encoded by the registry", `{"signatures":[{"signature":"c2ln","protected":"e30"}],"skills":[],"protocolVersion":"0.3.0","url":"https://a.example/a2a","version":"1.2.0","description":"d","name":"A"}`, signed, true},
		{"a signed card the provider did not send", signed, "", false},
		{"another card", kindTools, signed, false},
	} {
		m := &agentModel{serviceModel: kindBase("A", kindInterfaces()), AgentCard: jsondoc.NewValue(kindCard)}
		m.setDerived()
		var digest string
		if c.sent != "" {
			digest = canonicalize([]byte(c.sent)).digest()
		}
		held, diags := m.refresh(&agentregistry.Service{AgentSpec: &agentregistry.AgentSpec{Type: agentSpecTypeCard, Content: []byte(c.registry)}}, false, digest)
		if diags.HasError() {
			t.Errorf("%s: %v", c.name, diags)
		}
		if kept := m.AgentCard.ValueString() == kindCard; kept != c.keep {
			t.Errorf("%s: card kept %v, want %v (state card %s)", c.name, kept, c.keep, m.AgentCard.ValueString())
		}
		if sent := c.keep && c.sent != ""; sent != (held.doc != nil) || sent && string(held.doc) != c.registry {
			t.Errorf("%s: the card as sent is %q, want the registry's copy (%v)", c.name, held.doc, sent)
		}
		// The registry's card, canonicalised once, is what verify checks on
		// read: its form is the state card's, kept or taken as drift.
		if want := canonicalize([]byte(c.registry)).canonical; string(held.canonical) != string(want) {
			t.Errorf("%s: the canonical form handed to verify is %q, want %q", c.name, held.canonical, want)
		}
	}
	// An import takes the card in the form generated configuration evaluates
	// to, whose canonical form may differ: verify makes its own.
	imported := &agentModel{serviceModel: kindBase("A", kindInterfaces()), AgentCard: jsondoc.NewNull()}
	if held, _ := imported.refresh(&agentregistry.Service{AgentSpec: &agentregistry.AgentSpec{Type: agentSpecTypeCard, Content: []byte(kindCard)}}, false, ""); held.canonical != nil || held.doc != nil {
		t.Errorf("import: handed %+v to verify, want nothing", held)
	}
}
