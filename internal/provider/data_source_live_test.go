package provider

import "testing"

func TestTerraformSafe(t *testing.T) {
	for in, want := range map[string]string{
		// NFC text stays as RFC 8785 writes it.
		`{"a":"Météo €","b":1}`: `{"a":"Météo €","b":1}`,
		// A decomposed é, U+FB33 and an emoji: all non-ASCII becomes \u escapes.
		"{\"a\":\"Me\u0301te\u0301o\",\"b\":\"\uFB33\U0001F600\"}": `{"a":"Me\u0301te\u0301o","b":"\ufb33\ud83d\ude00"}`,
	} {
		if got := terraformSafe([]byte(in)); got != want {
			t.Errorf("terraformSafe(%q) = %q, want %q", in, got, want)
		}
	}
}
