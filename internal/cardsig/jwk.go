package cardsig

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
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

// signingKeyOf makes a private key an agent-card signing key: its kid is the
// JWK's, else its RFC 7638 thumbprint (the same as the key's PEM form and
// public_jwks give it), and a JWK's "alg" must be the one it signs cards with.
func signingKeyOf(pk *PrivateKey) (*SigningKey, error) {
	kid := pk.KeyID
	if kid == "" {
		var err error
		if kid, err = Thumbprint(pk.Signer); err != nil {
			return nil, err
		}
	}
	if _, err := newSigner(pk.Signer, kid); err != nil {
		return nil, err
	}
	alg := algorithmOf(pk.Signer)
	if pk.Algorithm != "" && pk.Algorithm != alg {
		return nil, fmt.Errorf("the JWK says \"alg\": %q, but this key signs with %s: remove \"alg\" or set it to %s",
			pk.Algorithm, alg, alg)
	}
	return &SigningKey{key: pk.Signer, KeyID: kid, Algorithm: alg}, nil
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
