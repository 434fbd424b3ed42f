package jsondoc

import (
	"context"
	"testing"
)

func TestSemanticallyEqual(t *testing.T) {
	cases := []struct {
		name string
		a, b string
		want bool
	}{
		{"identical", `{"a":1}`, `{"a":1}`, true},
		{"whitespace", `{"a": 1, "b": [1, 2]}`, "{\n  \"a\":1,\"b\":[1,2]\n}", true},
		{"key order", `{"a":1,"b":2}`, `{"b":2,"a":1}`, true},
		{"number spelling", `{"a":1.0,"b":1e2}`, `{"a":1,"b":100}`, true},
		{"nested key order", `{"x":{"a":true,"b":null}}`, `{"x":{"b":null,"a":true}}`, true},
		{"different value", `{"a":1}`, `{"a":2}`, false},
		{"array order matters", `[1,2]`, `[2,1]`, false},
		{"missing key", `{"a":1,"b":2}`, `{"a":1}`, false},
		{"extra key", `{"a":1}`, `{"a":1,"b":null}`, false},
		{"number vs string", `{"a":1}`, `{"a":"1"}`, false},
		{"invalid json differs", `{"a":`, `{"a":1}`, false},
		{"trailing data", `{"a":1} {}`, `{"a":1}`, false},
		{"registry re-encoding", `{"a":1.0,"b":1e21,"c":-0}`, `{"a":1,"b":1e+21,"c":0}`, true},
		{"integer beyond 2^53 rounded by a double", `{"a":9007199254740993}`, `{"a":9007199254740992}`, false},
		{"duplicate key is invalid", `{"a":1,"a":1}`, `{"a":1}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := SemanticallyEqual(tc.a, tc.b); got != tc.want {
				t.Errorf("SemanticallyEqual(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
			got, diags := NewValue(tc.a).StringSemanticEquals(context.Background(), NewValue(tc.b))
			if diags.HasError() || got != tc.want {
				t.Errorf("StringSemanticEquals = %v (%v), want %v", got, diags, tc.want)
			}
		})
	}
}

func TestEqualIsByteWise(t *testing.T) {
	if NewValue(`{"a":1}`).Equal(NewValue(`{"a": 1}`)) {
		t.Error("Equal must compare bytes, not semantics")
	}
	if !NewValue(`{"a":1}`).Equal(NewValue(`{"a":1}`)) {
		t.Error("Equal of identical strings must hold")
	}
}
