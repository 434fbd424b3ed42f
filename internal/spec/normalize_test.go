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
		{`"caf\u00e9 <&> \u2028 \/"`, `"café <&> \u2028 /"`},
		{`"tab\tnl\nq\"bs\\ctl\u0001"`, `"tab\tnl\nq\"bs\\ctl\u0001"`},
		{`[]`, `[]`},
		{`{}`, `{}`},
		{`{"a":1,"a":2}`, `{"a":2}`},
		{"\"\xff\"", "\"\ufffd\""}, // invalid UTF-8 becomes U+FFFD, as in encoding/json
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

// TestParseMatchesEncodingJSON compares the parser with encoding/json on
// tricky inputs (FuzzParseMatchesEncodingJSON explores further).
func TestParseMatchesEncodingJSON(t *testing.T) {
	for _, doc := range []string{
		`"\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`, `"\ude00\ud83d"`, `"\ud83d\u0041"`, `"\ud83d\ud83d\ude00"`,
		"\"a\xffb\xc3\"", `"\b\f\n\r\t\/\\\""`, `-0`, `0.5e-3`, `1E+2`, `[1,[2,{"a":[]}]]`,
		`01`, `1.`, `-`, `1e`, `.5`, `+1`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `"\x"`, "\"\x01\"", `nul`, `[`, `{"a":`,
		`"\u00e9\u0000"`, ` {"b":1,"a":2,"b":3} `, `tru`, `[1 2]`,
	} {
		checkParseMatches(t, []byte(doc))
	}
}

func checkParseMatches(t *testing.T, doc []byte) {
	t.Helper()
	got, err := parseJSON(doc)
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var want any
	if !json.Valid(doc) {
		if err == nil {
			t.Fatalf("parseJSON accepted invalid JSON %q", doc)
		}
		return
	}
	if err != nil {
		t.Fatalf("parseJSON rejected valid JSON %q: %v", doc, err)
	}
	if err := dec.Decode(&want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parseJSON(%q) = %#v, encoding/json gives %#v", doc, got, want)
	}
}

func FuzzParseMatchesEncodingJSON(f *testing.F) {
	seed(f, "card", "tools", "properties")
	f.Add([]byte(`"\ud83d\ude00 \ud800 \xff"`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		checkParseMatches(t, doc)
	})
}
