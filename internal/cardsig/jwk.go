package cardsig

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"errors"
	"fmt"

	"github.com/go-jose/go-jose/v4"
)

// SigningKey is a private key read from a JWK, ready to sign agent cards.
type SigningKey struct {
	key crypto.Signer
	// KeyID is the JWK's kid, put in each signature's protected header.
	KeyID string
	// Algorithm is the JWS algorithm the key signs with: ES256, EdDSA or RS256.
	Algorithm string
}

// ParseSigningJWK reads a private JWK (RFC 7517) that can sign agent cards:
// an EC P-256, Ed25519 (OKP) or RSA (2048 bits or more) private key; without
// a kid, its kid is the key's RFC 7638 thumbprint. A public key, a symmetric ("oct", HMAC) key, an "alg" other than the
// one the key signs with ("none" included) and a malformed JWK are errors;
// messages never include key material.
func ParseSigningJWK(jwk []byte) (*SigningKey, error) {
	var k jose.JSONWebKey
	if err := k.UnmarshalJSON(jwk); err != nil {
		return nil, fmt.Errorf("the key is not a valid JWK (RFC 7517): %v", err)
	}
	if _, symmetric := k.Key.([]byte); symmetric {
		return nil, errors.New(`a symmetric ("oct") key cannot sign agent cards: an HMAC key verifies and forges alike; ` +
			"expected an EC P-256, Ed25519 or RSA private key")
	}
	if k.IsPublic() {
		return nil, errors.New(`the JWK is a public key: signing needs the private key (a JWK with "d")`)
	}
	if !k.Valid() {
		return nil, errors.New("the JWK is not a valid key: its parameters do not make a usable private key")
	}
	signer, ok := k.Key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("a %T key cannot sign agent cards: expected an EC P-256, Ed25519 or RSA private key", k.Key)
	}
	if k.KeyID == "" {
		// The same kid as the key's PEM form and public_jwks give it.
		kid, err := Thumbprint(signer)
		if err != nil {
			return nil, err
		}
		k.KeyID = kid
	}
	if _, err := newSigner(signer, k.KeyID); err != nil {
		return nil, err
	}
	alg := algorithmOf(signer)
	if k.Algorithm != "" && k.Algorithm != alg {
		return nil, fmt.Errorf("the JWK says \"alg\": %q, but this key signs with %s: remove \"alg\" or set it to %s",
			k.Algorithm, alg, alg)
	}
	return &SigningKey{key: signer, KeyID: k.KeyID, Algorithm: alg}, nil
}

// Sign returns the card with one more signature, made with the key; see
// the package's Sign for the signature's form and determinism.
func (k *SigningKey) Sign(card []byte) ([]byte, error) {
	return signWith(card, k.key, k.KeyID)
}

// algorithmOf is the JWS algorithm newSigner uses for the key.
func algorithmOf(key crypto.Signer) string {
	switch key.(type) {
	case *ecdsa.PrivateKey:
		return string(jose.ES256)
	case ed25519.PrivateKey:
		return string(jose.EdDSA)
	case *rsa.PrivateKey:
		return string(jose.RS256)
	}
	return ""
}
