package spec

// Edges the mutation run (make mutation) found untested.

import (
	"fmt"
	"strings"
	"testing"
)

func TestIsProtocolVersion(t *testing.T) {
	for _, tt := range []struct {
		v    string
		want bool
	}{
		{"0.3", true},
		{"0.3.0", true},
		{"0.3.12", true},
		{"0.3.9", true},
		{"0.3.0-rc1", true},
		{"0.3.1+build.5", true},
		{"0.3.", false},
		{"0.3.x", false},
		{"0.3.0x", false},
		{"0.3.0.1", false},
		{"0.30", false},
		{"0.3-rc1", false},
		{"0.2.0", false},
		{"", false},
	} {
		if got := isProtocolVersion(tt.v, "0.3"); got != tt.want {
			t.Errorf("isProtocolVersion(%q, 0.3) = %v, want %v", tt.v, got, tt.want)
		}
	}
}

// suggest offers the closest allowed name for a likely typo: at distance 1,
// or 2 when the key has at least five letters; on a tie, the first allowed
// name.
func TestSuggest(t *testing.T) {
	for _, c := range []struct {
		key     string
		allowed []string
		want    string
	}{
		{"abx", []string{"aby", "abz"}, "aby"},
		{"titel", []string{"title"}, "title"}, // distance 2 at five letters
		{"descriptoin", []string{"description"}, "description"},
		{"nmae", []string{"name"}, ""}, // distance 2 at four letters
		{"colour", []string{"name", "url"}, ""},
		{"URL", []string{"url"}, "url"},
	} {
		if got := suggest(c.key, c.allowed); got != c.want {
			t.Errorf("suggest(%q, %q) = %q, want %q", c.key, c.allowed, got, c.want)
		}
	}
}

// describe shows a scalar with its value up to 60 characters of JSON.
func TestDescribe(t *testing.T) {
	for v, want := range map[any]string{
		strings.Repeat("a", 58): `string "` + strings.Repeat("a", 58) + `"`,
		strings.Repeat("a", 59): "string",
		nil:                     "null",
	} {
		if got := describe(v); got != want {
			t.Errorf("describe(%.20v...) = %q, want %q", v, got, want)
		}
	}
}

// lookup resolves pointers into arrays only within their bounds.
func TestLookupArrayBounds(t *testing.T) {
	doc := map[string]any{"a": []any{"x", "y"}}
	for ptr, want := range map[string]bool{"/a/0": true, "/a/1": true, "/a/2": false, "/a/-1": false, "/a/b": false} {
		if _, ok := lookup(doc, ptr); ok != want {
			t.Errorf("lookup(%s) found %v, want %v", ptr, ok, want)
		}
	}
}

// A keyword location whose URL part is empty still splits at its '#'; a
// pointer's last token and parent are found from a slash at byte 0 too.
func TestPointerParts(t *testing.T) {
	if u, p := splitURL("#/properties/name"); u != "" || p != "/properties/name" {
		t.Errorf(`splitURL("#/properties/name") = %q, %q`, u, p)
	}
	if got := lastToken("/name"); got != "name" {
		t.Errorf(`lastToken("/name") = %q`, got)
	}
	if got := parentPointer("/name"); got != "" {
		t.Errorf(`parentPointer("/name") = %q`, got)
	}
}

// An empty list of interfaces makes a card A2A 0.3 only beside its 0.3
// fields: alone, it is still a (1.0) list of interfaces.
func TestEmptyInterfacesAlone(t *testing.T) {
	r := ValidateAgentCard([]byte(`{"name":"n","description":"d","version":"1","supportedInterfaces":[],"skills":[],` + officialFields + `}`))
	if r.A2AVersion != "1.0" || len(r.Problems) != 0 {
		t.Errorf("got version %q, %v; want a valid 1.0 card", r.A2AVersion, r.Problems)
	}
}

// A StringList written as a bare list is shown rewritten when the list is
// at most 60 characters of JSON.
func TestStringListRewrittenUpTo60(t *testing.T) {
	for _, tc := range []struct {
		scope string // 60 characters of JSON as ["<scope>"] when 56 long
		shown bool
	}{
		{strings.Repeat("s", 56), true},
		{strings.Repeat("s", 57), false},
	} {
		doc := `{"name":"n","description":"d","version":"1","skills":[],"supportedInterfaces":[{"url":"u","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],` + officialFields + `,` +
			`"securityRequirements":[{"schemes":{"k":["` + tc.scope + `"]}}]}`
		r := ValidateAgentCard([]byte(doc))
		shown := `here {"list": ["` + tc.scope + `"]}`
		if len(r.Problems) != 1 || strings.HasSuffix(r.Problems[0].Message, shown) != tc.shown ||
			!strings.Contains(r.Problems[0].Message, `writes the scopes of a security requirement as {"list": [...]}`) {
			t.Errorf("scope of %d characters: got %v, want the rewritten list shown: %v", len(tc.scope), r.Problems, tc.shown)
		}
	}
}

// A 0.3 security scheme with nothing but its type: the 1.0 form, holding nothing.
func TestSecurityScheme03TypeOnly(t *testing.T) {
	doc := `{"name":"n","description":"d","version":"1","skills":[],"supportedInterfaces":[{"url":"u","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],` + officialFields + `,` +
		`"securitySchemes":{"tls":{"type":"mutualTLS"}}}`
	r := ValidateAgentCard([]byte(doc))
	if len(r.Problems) != 1 || !strings.HasSuffix(r.Problems[0].Message, `this is the A2A 0.3 form ("type": "mutualTLS"), and A2A 1.0 writes it as {"mtlsSecurityScheme": {...}}`) {
		t.Errorf("got %v", r.Problems)
	}
}

// A message lists at most five URLs and counts the others.
func TestListSome(t *testing.T) {
	got := listSome([]string{"a", "b", "c", "d", "e", "f", "g"})
	if want := `"a", "b", "c", "d", "e", and 2 more`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := listSome([]string{"a", "b", "c", "d", "e"}); got != `"a", "b", "c", "d", "e"` {
		t.Errorf("five: got %s", got)
	}
	if got := listSome(nil); got != "none" {
		t.Errorf("none: got %s", got)
	}
}

// The translator reads minProperties and maxProperties as a protobuf oneof
// (both 1) and reports nothing else for them: every embedded schema object
// that has either must have both at 1, or a failure would go unreported.
func TestMinMaxPropertiesOnlyInOneofs(t *testing.T) {
	var walk func(at string, v any)
	found := 0
	walk = func(at string, v any) {
		switch n := v.(type) {
		case map[string]any:
			_, hasMin := n["minProperties"]
			_, hasMax := n["maxProperties"]
			if hasMin || hasMax {
				found++
				if !isOneOf(n) {
					t.Errorf("%s: minProperties/maxProperties other than a oneof (both 1)", at)
				}
			}
			for k, c := range n {
				walk(at+"/"+k, c)
			}
		case []any:
			for i, c := range n {
				walk(fmt.Sprintf("%s/%d", at, i), c)
			}
		}
	}
	for url, doc := range schemas().raw {
		walk(url+"#", doc)
	}
	if found == 0 {
		t.Fatal("no oneof found: the test looked at nothing")
	}
}
