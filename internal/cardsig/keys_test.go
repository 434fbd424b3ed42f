package cardsig

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"
)

// Every form of the same key signs alike and gets the same kid (its RFC 7638
// thumbprint) when it has none; public_jwks of any form verifies the card; so
// do the key's PEM public forms given as trusted keys.
func TestKeysInEveryForm(t *testing.T) {
	ec := must(ecdsa.GenerateKey(elliptic.P256(), rand.Reader))
	rsaKey := must(rsa.GenerateKey(rand.Reader, 2048))
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	const card = `{"name":"weather","description":"d","version":"1.0.0","url":"https://a.example/a2a","protocolVersion":"0.3.0","skills":[]}`
	for name, c := range map[string]struct {
		key     crypto.Signer
		private [][]byte // PEM forms
		public  [][]byte
	}{
		"EC": {ec,
			[][]byte{pemOf("PRIVATE KEY", must(x509.MarshalPKCS8PrivateKey(ec))), pemOf("EC PRIVATE KEY", must(x509.MarshalECPrivateKey(ec)))},
			[][]byte{pemOf("PUBLIC KEY", must(x509.MarshalPKIXPublicKey(ec.Public())))}},
		"RSA": {rsaKey,
			[][]byte{pemOf("PRIVATE KEY", must(x509.MarshalPKCS8PrivateKey(rsaKey))), pemOf("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey))},
			[][]byte{pemOf("PUBLIC KEY", must(x509.MarshalPKIXPublicKey(rsaKey.Public()))), pemOf("RSA PUBLIC KEY", x509.MarshalPKCS1PublicKey(&rsaKey.PublicKey))}},
		"Ed25519": {ed,
			[][]byte{pemOf("PRIVATE KEY", must(x509.MarshalPKCS8PrivateKey(ed)))},
			[][]byte{pemOf("PUBLIC KEY", must(x509.MarshalPKIXPublicKey(ed.Public())))}},
	} {
		t.Run(name, func(t *testing.T) {
			tp := must(Thumbprint(c.key))
			if tp != must(Thumbprint(c.key.Public())) {
				t.Fatal("a private key and its public half have different thumbprints")
			}
			forms := append(append([][]byte{}, c.private...), jwkOf(t, c.key, "", nil))
			for i, form := range forms {
				sk, err := ParseSigningKey(form)
				if err != nil {
					t.Fatalf("form %d: %v", i, err)
				}
				if sk.KeyID != tp {
					t.Errorf("form %d: kid %q, want the thumbprint %q", i, sk.KeyID, tp)
				}
				signed, err := Sign([]byte(card), form, "")
				if err != nil {
					t.Fatalf("form %d: Sign: %v", i, err)
				}
				jwks, err := PublicJWKS(form)
				if err != nil {
					t.Fatalf("form %d: PublicJWKS: %v", i, err)
				}
				var set jose.JSONWebKeySet
				if err := json.Unmarshal(jwks, &set); err != nil || len(set.Keys) != 1 || !set.Keys[0].IsPublic() || set.Keys[0].KeyID != tp {
					t.Fatalf("form %d: PublicJWKS = %s (%v), want one public key with kid %q", i, jwks, err, tp)
				}
				if strings.Contains(string(jwks), `"d"`) {
					t.Fatalf("form %d: PublicJWKS holds private material: %s", i, jwks)
				}
				for j, trusted := range append([][]byte{jwks}, c.public...) {
					kids, err := Verify(signed, trusted, PolicyRequire)
					if err != nil || len(kids) != 1 || kids[0] != tp {
						t.Errorf("form %d, trusted keys %d: Verify = %v, %v; want [%s]", i, j, kids, err, tp)
					}
				}
			}
			// A kid given in a JWK is kept everywhere.
			named := jwkOf(t, c.key, "release-2026", nil)
			if sk := must(ParseSigningKey(named)); sk.KeyID != "release-2026" {
				t.Errorf("the JWK's kid is %q, want release-2026", sk.KeyID)
			}
			if jwks := string(must(PublicJWKS(named))); !strings.Contains(jwks, `"kid":"release-2026"`) {
				t.Errorf("PublicJWKS dropped the kid: %s", jwks)
			}
		})
	}
	// Several PEM public keys make one key set.
	both := append(pemOf("PUBLIC KEY", must(x509.MarshalPKIXPublicKey(ec.Public()))), pemOf("PUBLIC KEY", must(x509.MarshalPKIXPublicKey(ed.Public())))...)
	set, err := TrustedKeys(both)
	if err != nil || len(set.Keys) != 2 {
		t.Fatalf("TrustedKeys of two PEM blocks = %v, %v", set, err)
	}
	if _, err := PublicJWKS([]byte("not a key")); err == nil || !strings.Contains(err.Error(), "neither PEM") {
		t.Errorf("PublicJWKS of garbage: %v", err)
	}
}
