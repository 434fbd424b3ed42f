package spec

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// TestExcerpt: what an excerpt quotes of a document, by where the pointer
// leads.
func TestExcerpt(t *testing.T) {
	long := strings.Repeat("x", 70)
	doc := `{"name":"Invoice Helper","version":3,"provider":{"organization":"Acme"},"skills":[` +
		`{"id":"lookup","name":"Look up","description":"Finds an invoice by number or customer.","tags":"a,b","examples":["one",7]},` +
		`{"id":"pay","name":"Pay","descripton":"Pays.","tags":[]},` +
		`{"id":"sec","name":"Secure the long way round, with every scope","securityRequirements":[{"schemes":{"k":["read"]}}],"tags":[]},` +
		`{"tags":[],"big":{"a":"` + long + `"},"long":"` + long + `"}],` +
		`"interfaces":[{"url":"https://agents.example.com/invoices/a2a","protocolBinding":"JSON-RPC","tenant":"a tenant with a long name"}],` +
		`"list":[[1,2],[3,"x"]],"wrap":{"wide":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"z":"here"},"\u0001":5},` +
		`"many":[0,1,2,3,4,5,6,7,8,9,10,11,12]}`
	root, err := jsoncanon.Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ ptr, want string }{
		// The root and its members: the pointer says it all.
		{"", ""},
		{"/version", ""},
		{"/provider", ""},
		{"/nothing/here", ""},
		// A member of an object: the object, the member's value at length,
		// the others short.
		{"/provider/organization", `{"organization": "Acme"}`},
		{"/skills/0/tags", `{"description": "Finds an invoice by numb…", "examples": ["one", 7], "id": "lookup", "name": "Look up", "tags": "a,b"}`},
		// An object: its members are the neighbours.
		{"/skills/1", `{"descripton": "Pays.", "id": "pay", "name": "Pay", "tags": []}`},
		// An element of a list: the list, with the id and name of the skill
		// it belongs to.
		{"/skills/0/examples/1", `"examples": ["one", 7] in {"id": "lookup", "name": "Look up", …}`},
		// Deeper, inside an element with no landmark: the nearest one that has one.
		{"/skills/2/securityRequirements/0/schemes/k", `{"k": ["read"]} in {"id": "sec", "name": "Secure the long way round, with every scope", …}`},
		// Long values cut, long containers elided, the focus longer.
		{"/skills/3/long", `{"big": {…}, "long": "` + strings.Repeat("x", 60) + `…", "tags": []}`},
		{"/skills/3/big", `"big": {"a": "` + strings.Repeat("x", 24) + `…"}`},
		// Landmarks are quoted at length, as the focus.
		{"/interfaces/0/protocolBinding", `{"protocolBinding": "JSON-RPC", "tenant": "a tenant with a long nam…", "url": "https://agents.example.com/invoices/a2a"}`},
		// Names quoted as JSON quotes them.
		{"/wrap/\u0001", `{"\u0001": 5, "wide": {…}}`},
		// A list in a list: no member name to quote.
		{"/list/1/1", `[3, "x"]`},
		// At most 8 members, the focus always among them.
		{"/wrap/wide/z", `{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "z": "here", …}`},
		{"/wrap/wide", `"wide": {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, …}`},
		// At most 8 elements, around the focus.
		{"/many/10", `"many": […, 6, 7, 8, 9, 10, 11, 12]`},
		{"/many/1", `"many": [0, 1, 2, 3, 4, 5, 6, 7, …]`},
	} {
		if got := excerpt(root, tc.ptr); got != tc.want {
			t.Errorf("excerpt(%q)\n got %s\nwant %s", tc.ptr, got, tc.want)
		}
	}
}

// TestExcerptLandmarksFirst: a skill's id and name are among the members
// shown, however many come before them.
func TestExcerptLandmarksFirst(t *testing.T) {
	skill := map[string]any{"id": "s", "name": "S", "tags": "x"}
	for i := range 10 {
		skill[fmt.Sprintf("a%d", i)] = json.Number(fmt.Sprint(i))
	}
	root := map[string]any{"skills": []any{skill}}
	got := excerpt(root, "/skills/0/tags")
	if want := `{"a0": 0, "a1": 1, "a2": 2, "a3": 3, "a4": 4, "id": "s", "name": "S", "tags": "x", …}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestExcerptBoundedWork: a long container is elided without being written
// out in full.
func TestExcerptBoundedWork(t *testing.T) {
	big := make([]any, 100000)
	for i := range big {
		big[i] = json.Number("1")
	}
	var b strings.Builder
	if writeSpaced(&b, big, excerptValueLen) || b.Len() > excerptValueLen+3 {
		t.Errorf("wrote %d bytes of a long list, want to stop past %d", b.Len(), excerptValueLen)
	}
}

// TestExcerptInProblems: a document on one line, as jsonencode writes it,
// gets excerpts instead of positions, in Problem.String too; the same
// document indented keeps line and column and has none.
func TestExcerptInProblems(t *testing.T) {
	var card map[string]any
	if err := json.Unmarshal(fixture(t, "card/valid-1.0.json"), &card); err != nil {
		t.Fatal(err)
	}
	as[map[string]any](t, as[[]any](t, card["skills"])[0])["tags"] = "billing"
	oneLine, _ := json.Marshal(card)
	const msg = `/skills/0/tags: expected array, found string "billing"`
	r := ValidateAgentCard(oneLine)
	want := msg + `; look for {"description": "Finds an invoice by numb…", "examples": […], "id": "lookup-invoice", "name": "Look up an invoice", "tags": "billing"}`
	if len(r.Problems) != 1 || r.Problems[0].String() != want {
		t.Errorf("one line: got %v\nwant [%s]", r.Problems, want)
	}
	indented, _ := json.MarshalIndent(card, "", "  ")
	r = ValidateAgentCard(indented)
	if len(r.Problems) != 1 || r.Problems[0].Excerpt != "" || !strings.HasSuffix(r.Problems[0].String(), msg) || r.Problems[0].Line == 0 {
		t.Errorf("indented: got %v, want a position and no excerpt", r.Problems)
	}
}

// The pieces of an excerpt at their edges: a value of exactly the limit is
// quoted whole, a container written spaced fits when it takes exactly the
// limit, the focus of an array gets the longer limit, and a definition's own
// pointer is its definition.
func TestExcerptEdges(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{quoteShort("abcde", 5), `"abcde"`},
		{quoteShort("abcdef", 5), `"abcde…"`},
		{renderValue(map[string]any{"a": json.Number("1"), "b": json.Number("2")}, 16), `{"a": 1, "b": 2}`},
		{renderValue(map[string]any{"a": json.Number("1"), "b": json.Number("2")}, 15), `{…}`},
		{renderValue([]any{json.Number("1"), json.Number("2")}, 6), `[1, 2]`},
		{renderArray([]any{strings.Repeat("x", 30), strings.Repeat("y", 30)}, 1),
			`["` + strings.Repeat("x", 24) + `…", "` + strings.Repeat("y", 30) + `"]`},
		{definitionPointer("/definitions/AgentCard"), "/definitions/AgentCard"},
		{definitionPointer("/definitions"), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
}
