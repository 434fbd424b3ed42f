package cardsig

import (
	"bytes"
	"crypto/ecdh"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Nothing, or only blanks, is no key: where keys may be none (PublicJWKS,
// TrustedKeys) an empty set, where one key is needed (a signing key) an
// error that says what was expected; never a panic.
func TestKeysFromNothing(t *testing.T) {
	for _, in := range []string{"", " \n\t"} {
		if got, err := PublicJWKS([]byte(in)); err != nil || string(got) != `{"keys":[]}` {
			t.Errorf("PublicJWKS(%q) = %s, %v; want an empty set", in, got, err)
		}
		if set, err := TrustedKeys([]byte(in)); err != nil || len(set.Keys) != 0 {
			t.Errorf("TrustedKeys(%q) = %v, %v; want an empty set", in, set, err)
		}
		if _, err := ParseSigningKey([]byte(in)); err == nil || !strings.Contains(err.Error(), "neither PEM") {
			t.Errorf("ParseSigningKey(%q): %v, want an error saying it is neither PEM nor a JWK", in, err)
		}
	}
}

// Trusted keys of exactly MaxJWKSBytes are read, by TrustedKeys and by
// Verify; one byte more is refused by both, naming the limit.
func TestTrustedKeysAtTheirLimit(t *testing.T) {
	jwks := allKeysJWKS(t)
	at := append(jwks, bytes.Repeat([]byte(" "), MaxJWKSBytes-len(jwks))...)
	signed := sign(t, []byte(card), keys()[0])
	if set, err := TrustedKeys(at); err != nil || len(set.Keys) != len(keys()) {
		t.Errorf("TrustedKeys of %d bytes: %v keys, %v", len(at), set, err)
	}
	if kids, err := Verify(signed, at, PolicyRequire); err != nil || len(kids) != 1 {
		t.Errorf("Verify with trusted keys of %d bytes: %v, %v", len(at), kids, err)
	}
	over := append(at, ' ')
	want := fmt.Sprintf("the trusted keys are %d bytes; the limit is %d (1 MiB)", MaxJWKSBytes+1, MaxJWKSBytes)
	if _, err := TrustedKeys(over); err == nil || err.Error() != want {
		t.Errorf("TrustedKeys of %d bytes: %v, want %q", len(over), err, want)
	}
	wantContains(t, verifyErr(t, signed, over, PolicyRequire), want)
}

// A key whose RFC 7638 thumbprint cannot be computed (an X25519 key, which
// encrypts) is refused, naming its position among the keys given.
func TestKeyWithoutAThumbprintIsNamedByPosition(t *testing.T) {
	x, err := ecdh.X25519().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	in := append(pemOf("PUBLIC KEY", must(x509.MarshalPKIXPublicKey(keys()[0].key.Public()))),
		pemOf("PUBLIC KEY", must(x509.MarshalPKIXPublicKey(x.PublicKey())))...)
	for name, read := range map[string]func([]byte) (any, error){
		"TrustedKeys": func(b []byte) (any, error) { return TrustedKeys(b) },
		"PublicJWKS":  func(b []byte) (any, error) { return PublicJWKS(b) },
	} {
		if _, err := read(in); err == nil || !strings.HasPrefix(err.Error(), "key 2: computing the key's RFC 7638 thumbprint") {
			t.Errorf("%s of an EC and an X25519 key: %v, want the second named", name, err)
		}
	}
}

// A signature whose value is not base64url is malformed, and says so.
func TestMalformedSignatureValue(t *testing.T) {
	var c map[string]any
	if err := json.Unmarshal(sign(t, []byte(card), keys()[0]), &c); err != nil {
		t.Fatal(err)
	}
	sigs := as[[]any](t, c["signatures"])
	as[map[string]any](t, sigs[0])["signature"] = "not*base64url"
	msg := verifyErr(t, must(json.Marshal(c)), allKeysJWKS(t), PolicyRequire)
	wantContains(t, msg, `signature 1 (kid "ec-pkcs8", alg ES256): malformed: `)
}
