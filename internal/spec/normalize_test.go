package spec

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{ "b": 1, "a": [true, false, null] }`, `{"a":[true,false,null],"b":1}`},
		{"{\n  \"z\": {\"y\": 1.50, \"x\": 1e3},\n  \"a\": -0\n}", `{"a":-0,"z":{"x":1e3,"y":1.50}}`},
		{`"caf\u00e9 <&> \u2028 \/"`, "\"café <&> \u2028 /\""},
		{`"tab\tnl\nq\"bs\\ctl\u0001"`, `"tab\tnl\nq\"bs\\ctl\u0001"`},
		{`[]`, `[]`},
		{`{}`, `{}`},
	} {
		got, err := Normalize([]byte(tc.in))
		if err != nil {
			t.Fatalf("Normalize(%q): %v", tc.in, err)
		}
		if string(got) != tc.want {
			t.Errorf("Normalize(%q) = %s, want %s", tc.in, got, tc.want)
		}
		again, err := Normalize(got)
		if err != nil || !bytes.Equal(again, got) {
			t.Errorf("Normalize is not idempotent on %s: %s %v", got, again, err)
		}
	}
}

// TestNormalizeSemanticEquality: documents that differ only in key order,
// spacing and string escapes have the same normal form; a changed value or a
// number written differently does not.
func TestNormalizeSemanticEquality(t *testing.T) {
	a := fixture(t, "card/valid-0.3.json")
	var v any
	if err := json.Unmarshal(a, &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v) // keys sorted by encoding/json, compact, HTML escaped
	na, _ := Normalize(a)
	nb, _ := Normalize(b)
	if !bytes.Equal(na, nb) {
		t.Fatalf("semantically equal documents normalise differently:\n%s\n%s", na, nb)
	}
	for _, pair := range [][2]string{
		{`{"a":1}`, `{"a":1.0}`},
		{`{"a":"x"}`, `{"a":"y"}`},
		{`{"a":[1,2]}`, `{"a":[2,1]}`},
	} {
		x, _ := Normalize([]byte(pair[0]))
		y, _ := Normalize([]byte(pair[1]))
		if bytes.Equal(x, y) {
			t.Errorf("%s and %s must differ", pair[0], pair[1])
		}
	}
	// The normal form decodes to the same value as the input.
	var v2 any
	if err := json.Unmarshal(na, &v2); err != nil || !reflect.DeepEqual(v, v2) {
		t.Errorf("normal form changed the value: %v", err)
	}
	// Result.Compact is the normal form.
	if r := ValidateAgentCard(a); !bytes.Equal(r.Compact, na) {
		t.Error("Result.Compact differs from Normalize")
	}
}
