package jsoncanon

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"reflect"
	"strings"
	"testing"
)

// FuzzEqual checks the package against encoding/json, an independent reader:
//   - both accept the same documents, except that this package also refuses
//     duplicate keys, invalid Unicode and numbers beyond the double range,
//     and then decode to the same values;
//   - Equal agrees with comparing encoding/json's values after replacing each
//     number by its exact value (math/big);
//   - Equal(x, x) holds, Compact keeps the value, Canonical accepts every
//     document Decode accepts and is idempotent, and equal documents have
//     the same canonical bytes.
func FuzzEqual(f *testing.F) {
	for _, s := range [][2]string{
		{`{"a":1,"b":[true,null,"x"]}`, `{"b":[true,null,"x"],"a":1.0}`},
		{`[1e2,-0,0.5]`, `[100,0,5e-1]`},
		{`9007199254740993`, `9007199254740992`},
		{`"\ud83d\ude00\u00e9\/"`, `"😀é/"`},
		{`{"a":1,"a":1}`, `{"a":1}`},
		{"\"\xff\"", `"\ud800"`},
		{`{"\ufb33":1,"\ud83d\ude00":2}`, `[[[]]]`},
		{`1E400`, `10e399`},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		va, okA := checkDecode(t, a)
		vb, okB := checkDecode(t, b)
		if !okA || !okB {
			return
		}
		checkSelf(t, a)
		got, err := Equal(a, b)
		if err != nil {
			t.Fatalf("Equal: %v", err)
		}
		if bounded(a) && bounded(b) && got != reflect.DeepEqual(exactNumbers(va), exactNumbers(vb)) {
			t.Fatalf("Equal(%q, %q) = %v, encoding/json with exact numbers says %v", a, b, got, !got)
		}
		ca, _ := Canonical(a) // checkSelf checked that it has no error
		cb, _ := Canonical(b)
		if got && !bytes.Equal(ca, cb) {
			t.Fatalf("equal documents %q and %q canonicalise differently: %s, %s", a, b, ca, cb)
		}
	})
}

// checkDecode decodes doc with both readers and checks that they agree; it
// returns encoding/json's value and whether this package accepted doc.
func checkDecode(t *testing.T, doc []byte) (any, bool) {
	t.Helper()
	mine, err := Decode(doc)
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var std any
	stdErr := dec.Decode(&std)
	if !json.Valid(doc) {
		if err == nil {
			t.Fatalf("Decode accepted invalid JSON %q", doc)
		}
		return nil, false
	}
	if err != nil {
		if !errors.Is(err, ErrDuplicateKey) && !errors.Is(err, ErrInvalidUnicode) && !errors.Is(err, ErrNumber) {
			t.Fatalf("Decode refused valid JSON %q: %v", doc, err)
		}
		return nil, false
	}
	if stdErr != nil || !reflect.DeepEqual(mine, std) {
		t.Fatalf("Decode(%q) = %#v, encoding/json gives %#v (%v)", doc, mine, std, stdErr)
	}
	return std, true
}

// checkSelf checks the properties of one accepted document.
func checkSelf(t *testing.T, doc []byte) {
	t.Helper()
	if eq, err := Equal(doc, doc); !eq || err != nil {
		t.Fatalf("Equal(x, x) = %v, %v for %q", eq, err, doc)
	}
	compact, err := Compact(doc)
	if err != nil {
		t.Fatalf("Compact: %v", err)
	}
	if eq, err := Equal(doc, compact); !eq || err != nil {
		t.Fatalf("Compact changed the value of %q: %s", doc, compact)
	}
	c, err := Canonical(doc)
	if err != nil {
		t.Fatalf("Canonical refused a document Decode accepted: %v", err)
	}
	if again, err := Canonical(c); err != nil || !bytes.Equal(again, c) {
		t.Fatalf("Canonical is not idempotent: %s -> %s (%v)", c, again, err)
	}
}

// bounded reports whether every exponent in doc is small enough for math/big
// to compute the exact value quickly.
func bounded(doc []byte) bool {
	for _, field := range strings.FieldsFunc(string(doc), func(r rune) bool {
		return r != 'e' && r != 'E' && r != '+' && r != '-' && (r < '0' || r > '9') && r != '.'
	}) {
		if i := strings.IndexAny(field, "eE"); i >= 0 && len(strings.TrimLeft(strings.TrimLeft(field[i+1:], "+-"), "0")) > 4 {
			return false
		}
	}
	return true
}

// exactNumbers replaces every json.Number by its exact value as a fraction.
func exactNumbers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = exactNumbers(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = exactNumbers(e)
		}
		return out
	case json.Number:
		r, _ := new(big.Rat).SetString(string(v))
		return "number " + r.RatString()
	}
	return v
}
