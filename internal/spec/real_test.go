package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// TestRealCards validates the cards of testdata/card/real, written by others
// (see its README): what the official SDKs serve and what A2A's own samples
// and tests publish.
func TestRealCards(t *testing.T) {
	cases := map[string]struct {
		version string
		wants   []want
	}{
		// What @a2a-js/sdk serves a client that sends no A2A-Version: a 1.0
		// card that keeps the 0.3 endpoint, accepted with one warning.
		"a2a-js-1.3.0_legacy-compat_no-version-header.json": {"1.0", []want{
			w("", 0, 0, "", "the card is A2A 1.0 (it lists supportedInterfaces) and keeps A2A 0.3 fields for 0.3 clients, as SDKs with A2A 0.3 compatibility serve it: url, protocolVersion, preferredTransport; accepted as A2A 1.0"),
		}},
		"a2a-js-1.3.0_legacy-compat_version-1.0.json": {"1.0", nil},
		// a2a-go's union card: its 0.3 fields are named once; its security
		// schemes are in the 0.3 form and its scopes bare lists, which A2A
		// 1.0 writes otherwise, and each message says how.
		"a2a-go-2.4.0_a2av0-compat-producer.json": {"1.0", []want{
			w("", 1, 1, "{", "keeps A2A 0.3 fields for 0.3 clients, as SDKs with A2A 0.3 compatibility serve it: url, protocolVersion, preferredTransport, additionalInterfaces, security, supportsAuthenticatedExtendedCard, /skills/0/security; accepted as A2A 1.0"),
			e("/skills/0/securityRequirements/0/schemes/example", 46, 24, "[]", `expected object, found array; A2A 1.0 writes the scopes of a security requirement as {"list": [...]}, here {"list": []}`),
			e("/skills/0/securityRequirements/1/schemes/google", 51, 23, "[", `here {"list": ["openid","profile","email"]}`),
			e("/securitySchemes/google", 105, 15, "{", `found none; this is the A2A 0.3 form ("type": "openIdConnect"), and A2A 1.0 writes it as {"openIdConnectSecurityScheme": {...}} holding "openIdConnectUrl"`),
			e("/securityRequirements/0/schemes/google", 139, 19, "[", `{"list": [...]}, here {"list": ["openid","profile","email"]}`),
		}},
		"a2a-go-2.4.0_static-card-handler.json": {"1.0", []want{
			e("/securityRequirements/0/schemes/google", 0, 0, "", `expected object, found array; A2A 1.0 writes the scopes of a security requirement as {"list": [...]}`),
			e("/skills/0/securityRequirements/0/schemes/example", 0, 0, "", `{"list": [...]}, here {"list": []}`),
			e("/skills/0/securityRequirements/1/schemes/google", 0, 0, "", `{"list": [...]}, here {"list": ["openid","profile","email"]}`),
		}},
		"a2a-python_signing-interop_S0-001.json": {"1.0", nil},
		// A 1.0 card with a top-level protocolVersion "1.0" is told about 1.0,
		// not that it has a 0.3 field; its interface lacks protocolVersion.
		"a2a-samples_weather_agent_card.json": {"1.0", []want{
			w("/protocolVersion", 2, 22, `"1.0"`, `top-level protocolVersion "1.0": an A2A 1.0 card declares the protocol version of each interface (supportedInterfaces[].protocolVersion)`),
			e("/supportedInterfaces/0", 11, 5, "{", `missing required property "protocolVersion" (also accepted as "protocol_version")`),
			w("/capabilities/stateTransitionHistory", 19, 5, `"stateTransitionHistory"`, "it is an A2A 0.3 field that A2A 1.0 dropped"),
		}},
		"a2a-samples_adk_facts_agent.json": {"0.3", []want{
			e("", 1, 1, "{", `missing required property "protocolVersion"`),
		}},
	}
	files, err := filepath.Glob(filepath.Join("testdata", "card", "real", "*.json"))
	if err != nil || len(files) != len(cases) {
		t.Fatalf("%d files in testdata/card/real, %d cases: every card there needs its case (%v)", len(files), len(cases), err)
	}
	readme, err := os.ReadFile(filepath.Join("testdata", "card", "real", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			tc, ok := cases[name]
			if !ok {
				t.Fatal("no case for this card")
			}
			if !strings.Contains(string(readme), "`"+name+"`") {
				t.Error("the README does not say where this card comes from")
			}
			doc := fixture(t, filepath.Join("card", "real", name))
			checkResult(t, doc, ValidateAgentCard(doc), tc.version, tc.wants)
		})
	}
}

// TestHybridCardParsed: a hybrid card's exposed fields are its 1.0 ones.
func TestHybridCardParsed(t *testing.T) {
	c, err := ParseAgentCard(fixture(t, "card/real/a2a-js-1.3.0_legacy-compat_no-version-header.json"))
	if err != nil {
		t.Fatal(err)
	}
	if c.A2AVersion != "1.0" || !slices.Equal(c.URLs, []string{"https://api.example/v1", "https://api.example/legacy"}) {
		t.Errorf("got version %q, URLs %q; want 1.0 and the supportedInterfaces URLs", c.A2AVersion, c.URLs)
	}
}

// TestFields03AreTheOfficialDifference: the 0.3 fields a hybrid card may
// keep are exactly the members of the official A2A 0.3.0 schema that the
// official 1.0.1 schema lacks, at the top, in a skill and in capabilities;
// and the embedded schema of those fields types each of them.
func TestFields03AreTheOfficialDifference(t *testing.T) {
	dir := specDir(t)
	props := func(file, def string) []string {
		var doc struct {
			Definitions map[string]struct {
				Properties map[string]any `json:"properties"`
			} `json:"definitions"`
		}
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil || json.Unmarshal(b, &doc) != nil {
			t.Fatalf("%s: %v", file, err)
		}
		return sortedKeys(doc.Definitions[def].Properties)
	}
	only03 := func(def03, def10 string) []string {
		var out []string
		in10 := props("a2a-v1.0.1.json", def10)
		for _, p := range props("a2a-v0.3.0.json", def03) {
			if !slices.Contains(in10, p) {
				out = append(out, p)
			}
		}
		return out
	}
	if got, want := only03("AgentCard", "Agent Card"), slices.Sorted(slices.Values(cardFields03)); !slices.Equal(got, want) {
		t.Errorf("0.3-only card fields: official %q, cardFields03 %q", got, want)
	}
	if got := only03("AgentSkill", "Agent Skill"); !slices.Equal(got, []string{"security"}) {
		t.Errorf("0.3-only skill fields: %q, want [security]", got)
	}
	if got := only03("AgentCapabilities", "Agent Capabilities"); !slices.Equal(got, []string{"stateTransitionHistory"}) {
		t.Errorf("0.3-only capabilities: %q, want [stateTransitionHistory]", got)
	}
	fields, _ := schemas().raw[schemaBase+schemaCard03Fields].(map[string]any)
	typed, _ := fields["properties"].(map[string]any)
	for _, f := range cardFields03 {
		if _, ok := typed[f]; !ok {
			t.Errorf("%s: not typed by %s", f, schemaCard03Fields)
		}
	}
}

// TestRealCardsAgainstTheOfficialSchema runs the A2A 1.0 cards of
// testdata/card/real and of the shared spec folder through an independent
// validator, the official A2A 1.0.1 JSON schema, and checks that the project's
// validator reports something wherever that schema refuses a value: at the
// same pointer, at an object above it (a oneof), or, for a hybrid card's
// 0.3 fields, in the warning that names them. The official schema requires
// nothing and lets a oneof hold several members (defects 2 and 3 of the
// folder's README), so the project's validator may report more, never less.
func TestRealCardsAgainstTheOfficialSchema(t *testing.T) {
	official, raw := officialSchema10(t)
	files, _ := filepath.Glob(filepath.Join("testdata", "card", "real", "*.json"))
	files = append(files, filepath.Join(specDir(t), "examples", "a2a", "a2a-spec-v1.0.1_sample_agent_card.json"),
		filepath.Join(specDir(t), "examples", "a2a", "a2a-samples_adk_skills_agent_card.json"))
	refused := 0
	for _, f := range files {
		doc, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := ValidateAgentCard(doc)
		if r.A2AVersion != A2AVersion10 {
			continue
		}
		v, _ := jsoncanon.Decode(doc)
		var ve *jsonschema.ValidationError
		if err := official.Validate(v); err != nil && !errors.As(err, &ve) {
			t.Fatalf("%s: %v", f, err)
		}
		for _, ptr := range officialFindings(ve, raw, v) {
			refused++
			if !covered(ptr, r.Problems) {
				t.Errorf("%s: the official schema refuses %s, about which the validator says nothing", filepath.Base(f), ptr)
			}
		}
	}
	if refused == 0 {
		t.Fatal("the official schema refused nothing: the comparison tested nothing")
	}
}

// officialSchema10 compiles the official A2A 1.0.1 JSON schema of the shared
// spec folder, its $refs to files that do not exist rewritten to its own
// definitions (defect 1 of the folder's README: lf.a2a.v1.AgentSkill.jsonschema.json
// is the definition titled "Agent Skill").
func officialSchema10(t *testing.T) (*jsonschema.Schema, any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(specDir(t), "a2a-v1.0.1.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsoncanon.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	defs, _ := lookup(doc, "/definitions")
	titles := map[string]string{}
	for title := range as[map[string]any](t, defs) {
		titles[strings.ReplaceAll(title, " ", "")] = title
	}
	ref := regexp.MustCompile(`"(?:lf\.a2a\.v1|google\.protobuf)\.([A-Za-z0-9]+)\.jsonschema\.json"`)
	fixed := ref.ReplaceAllFunc(b, func(m []byte) []byte {
		return []byte(`"#/definitions/` + titles[string(ref.FindSubmatch(m)[1])] + `"`)
	})
	raw, _ := jsoncanon.Decode(fixed)
	const url = "https://official.invalid/a2a-v1.0.1.json"
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, bytes.NewReader(fixed)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url + "#/definitions/Agent%20Card")
	if err != nil {
		t.Fatal(err)
	}
	return s, raw
}

// officialFindings lists the pointers of the values the official schema
// refuses in inst: each leaf of its error, and for additionalProperties each
// member it does not define.
func officialFindings(ve *jsonschema.ValidationError, raw, inst any) []string {
	if ve == nil {
		return nil
	}
	if len(ve.Causes) > 0 {
		var out []string
		for _, c := range ve.Causes {
			out = append(out, officialFindings(c, raw, inst)...)
		}
		return out
	}
	ptr := pointerOf(ve.InstanceLocation)
	_, frag := splitURL(ve.AbsoluteKeywordLocation)
	if lastToken(frag) != "additionalProperties" {
		return []string{ptr}
	}
	parent, _ := lookup(raw, parentPointer(frag))
	schema, _ := parent.(map[string]any)
	obj, _ := lookup(inst, ptr)
	members, _ := obj.(map[string]any) // additionalProperties fails only an object
	var out []string
	for _, k := range sortedKeys(members) {
		if !propertyAllowed(schema, k) {
			out = append(out, ptr+"/"+jsoncanon.EscapeToken(k))
		}
	}
	return out
}

// covered reports whether a problem is about the value at ptr: at ptr, at an
// object above it other than the card, or, for the card, a message that
// names it (the warning that lists a hybrid card's 0.3 fields).
func covered(ptr string, problems []Problem) bool {
	name := ptr // as the warning lists a 0.3 field: its name at the top, its pointer below
	if strings.Count(ptr, "/") == 1 {
		name = ptr[1:]
	}
	for _, p := range problems {
		switch {
		case p.Pointer == ptr, p.Pointer != "" && strings.HasPrefix(ptr, p.Pointer+"/"):
			return true
		case p.Pointer == "" && (strings.Contains(p.Message, " "+name+",") || strings.Contains(p.Message, " "+name+";")):
			return true
		}
	}
	return false
}
