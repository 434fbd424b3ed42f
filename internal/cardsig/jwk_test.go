package cardsig

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"
)

// jwkOf is the JSON of a JWK of key under kid, with extra members set.
func jwkOf(t *testing.T, key any, kid string, extra map[string]any) []byte {
	t.Helper()
	raw := must(json.Marshal(jose.JSONWebKey{Key: key, KeyID: kid}))
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range extra {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	return must(json.Marshal(m))
}

// Each key form cardsig signs with, as a private JWK read by
// ParseSigningKey: the signature verifies
// with the public key, names the JWK's kid, and is the same on each signing.
func TestSigningJWKSignsAndVerifies(t *testing.T) {
	for _, k := range keys() {
		if strings.HasSuffix(k.kid, "-sec1") || strings.HasSuffix(k.kid, "-pkcs1") {
			continue // the same keys as the pkcs8 ones
		}
		sk, err := ParseSigningKey(jwkOf(t, k.key, k.kid, nil))
		if err != nil {
			t.Fatalf("%s: %v", k.kid, err)
		}
		if sk.KeyID != k.kid || sk.Algorithm != k.alg {
			t.Errorf("%s: kid %q alg %q, want %q %q", k.kid, sk.KeyID, sk.Algorithm, k.kid, k.alg)
		}
		a, err := sk.Sign([]byte(card))
		if err != nil {
			t.Fatalf("%s: %v", k.kid, err)
		}
		b, _ := sk.Sign([]byte(card))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two signings of the same card differ: plans would never be empty", k.kid)
		}
		kids, err := Verify(a, allKeysJWKS(t), PolicyRequire)
		if err != nil || len(kids) != 1 || kids[0] != k.kid {
			t.Errorf("%s: Verify = %v, %v", k.kid, kids, err)
		}
		if h := protectedHeader(t, a, 0); h["alg"] != k.alg || h["kid"] != k.kid {
			t.Errorf("%s: protected header %v", k.kid, h)
		}
	}
}

// A JWK that cannot sign is refused with a message that says why and shows
// no key.
func TestSigningJWKRefusals(t *testing.T) {
	ec, ok := keys()[0].key.(*ecdsa.PrivateKey)
	if !ok {
		t.Fatalf("the first test key is a %T", keys()[0].key)
	}
	p384 := must(ecdsa.GenerateKey(elliptic.P384(), rand.Reader))
	small := must(rsa.GenerateKey(rand.Reader, 1024))
	private := string(jwkOf(t, ec, "k", nil))
	var d string
	{
		var m map[string]string
		_ = json.Unmarshal([]byte(private), &m)
		d = m["d"]
	}
	for name, c := range map[string]struct {
		jwk  []byte
		want string
	}{
		"public only":  {jwkOf(t, &ec.PublicKey, "k", nil), "is a public key"},
		"hmac":         {[]byte(`{"kty":"oct","k":"c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0","kid":"k","alg":"HS256"}`), `symmetric ("oct")`},
		"alg none":     {jwkOf(t, ec, "k", map[string]any{"alg": "none"}), `"alg": "none"`},
		"alg mismatch": {jwkOf(t, ec, "k", map[string]any{"alg": "RS256"}), "signs with ES256"},
		"p-384":        {jwkOf(t, p384, "k", nil), "needs P-256"},
		"small rsa":    {jwkOf(t, small, "k", nil), "at least 2048"},
		"malformed":    {[]byte(`{"kty":"EC","crv":"P-256","x":"?","d":"` + d + `"}`), "not a valid JWK"},
		"not json":     {[]byte(`{"kty":"EC",`), "not a valid JWK"},
		"off curve":    {jwkOf(t, ec, "k", map[string]any{"y": "AAAA" + strings.Repeat("A", 39)}), "JWK"},
	} {
		_, err := ParseSigningKey(c.jwk)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", name, err, c.want)
			continue
		}
		if strings.Contains(err.Error(), d) {
			t.Errorf("%s: the error shows the private key: %v", name, err)
		}
	}
}
