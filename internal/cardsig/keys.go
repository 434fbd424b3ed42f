package cardsig

// Keys in either form users have: PEM (what openssl writes: PKCS #8 "PRIVATE
// KEY", SEC 1 "EC PRIVATE KEY", PKCS #1 "RSA PRIVATE KEY", and the public
// "PUBLIC KEY" and "RSA PUBLIC KEY") or JWK (RFC 7517: a key, or a JWKS). A
// key without a kid gets its RFC 7638 thumbprint, the same wherever the key
// is read, so that a card signed with a PEM key verifies against the JWKS
// public_jwks makes of the same key.

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"

	"github.com/go-jose/go-jose/v4"
)

// Thumbprint is the RFC 7638 JWK thumbprint of a key (SHA-256, base64url
// without padding): the kid of a key that has none.
func Thumbprint(key any) (string, error) {
	jwk := jose.JSONWebKey{Key: publicOf(key)}
	tp, err := jwk.Thumbprint(crypto.SHA256)
	if err != nil {
		return "", fmt.Errorf("computing the key's RFC 7638 thumbprint: %v", err)
	}
	return base64.RawURLEncoding.EncodeToString(tp), nil
}

// publicOf is the public half of a private key (a public key as it is).
func publicOf(key any) any {
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		return &k.PublicKey
	case *rsa.PrivateKey:
		return &k.PublicKey
	case ed25519.PrivateKey:
		return k.Public()
	}
	return key
}

// isJSON tells a JWK or JWKS from PEM.
func isJSON(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && b[0] == '{'
}

// ParseSigningKey reads a private key that can sign agent cards, as PEM or as
// a private JWK. Its kid is the JWK's, else the key's RFC 7638 thumbprint.
// Messages never include key material.
func ParseSigningKey(key []byte) (*SigningKey, error) {
	pk, err := ReadPrivateKey(key)
	if err != nil {
		return nil, err
	}
	return signingKeyOf(pk)
}

// PrivateKey is a private key as read from PEM or from a JWK, before a use
// decides how it signs: agent-card signatures (SigningKey) and OAuth client
// assertions (internal/livedoc) read keys through ReadPrivateKey.
type PrivateKey struct {
	Signer crypto.Signer
	// KeyID and Algorithm are the JWK's "kid" and "alg"; empty for PEM.
	KeyID, Algorithm string
}

// ReadPrivateKey reads a private key given as PEM (PKCS #8 "PRIVATE KEY",
// SEC 1 "EC PRIVATE KEY", PKCS #1 "RSA PRIVATE KEY") or as a private JWK.
// A public, symmetric, encrypted or malformed key is an error; messages never
// include key material.
func ReadPrivateKey(key []byte) (*PrivateKey, error) {
	if isJSON(key) {
		return readPrivateJWK(key)
	}
	signer, err := parsePrivateKey(key)
	if err != nil {
		if block, _ := pem.Decode(key); block == nil {
			return nil, errors.New(`the key is neither PEM ("PRIVATE KEY", "EC PRIVATE KEY" or "RSA PRIVATE KEY") nor a JWK (a JSON object)`)
		}
		return nil, err
	}
	return &PrivateKey{Signer: signer}, nil
}

// readPrivateJWK reads a private JWK: not a public nor a symmetric key, and
// with parameters that make a usable key.
func readPrivateJWK(jwk []byte) (*PrivateKey, error) {
	var k jose.JSONWebKey
	if err := k.UnmarshalJSON(jwk); err != nil {
		return nil, fmt.Errorf("the key is not a valid JWK (RFC 7517): %v", err)
	}
	if _, symmetric := k.Key.([]byte); symmetric {
		return nil, errors.New(`a symmetric ("oct") key cannot sign here: an HMAC key verifies and forges alike; ` +
			"expected an EC, Ed25519 or RSA private key")
	}
	if k.IsPublic() {
		return nil, errors.New(`the JWK is a public key: signing needs the private key (a JWK with "d")`)
	}
	if !k.Valid() {
		return nil, errors.New("the JWK is not a valid key: its parameters do not make a usable private key")
	}
	signer, ok := k.Key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("a %T key cannot sign: expected an EC, Ed25519 or RSA private key", k.Key)
	}
	return &PrivateKey{Signer: signer, KeyID: k.KeyID, Algorithm: k.Algorithm}, nil
}

// PublicJWKS returns the JWKS ({"keys":[...]}) of the public halves of keys
// given as PEM (one or more blocks, private or public), a JWK or a JWKS, each
// with its kid (given, else the RFC 7638 thumbprint) and its "use": "sig".
// It is what trusted_keys and verify_agent_card take.
func PublicJWKS(keys []byte) ([]byte, error) {
	set, err := readKeys(keys, "the keys")
	if err != nil {
		return nil, err
	}
	out := jose.JSONWebKeySet{Keys: []jose.JSONWebKey{}}
	for _, k := range set {
		pub := k.Public()
		if pub.Key == nil {
			return nil, fmt.Errorf("the key %q has no public half (a symmetric key cannot verify signatures)", k.KeyID)
		}
		pub.Use = "sig"
		out.Keys = append(out.Keys, pub)
	}
	return json.Marshal(out)
}

// readKeys reads PEM blocks, a JWK or a JWKS into JWKs, each with a kid.
func readKeys(in []byte, noun string) ([]jose.JSONWebKey, error) {
	if len(in) > MaxJWKSBytes {
		return nil, fmt.Errorf("%s are %d bytes; the limit is %d (1 MiB)", noun, len(in), MaxJWKSBytes)
	}
	read := readPEMKeys
	if isJSON(in) {
		read = readJSONKeys
	}
	keys, err := read(in, noun)
	if err != nil {
		return nil, err
	}
	for i := range keys {
		if keys[i].KeyID != "" {
			continue
		}
		if _, symmetric := keys[i].Key.([]byte); symmetric {
			continue // refused by the callers, with the key's position
		}
		kid, err := Thumbprint(keys[i].Key)
		if err != nil {
			return nil, fmt.Errorf("key %d: %v", i+1, err)
		}
		keys[i].KeyID = kid
	}
	return keys, nil
}

// readJSONKeys reads a JWKS ({"keys":[...]}) or a single JWK.
func readJSONKeys(in []byte, noun string) ([]jose.JSONWebKey, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(in, &probe); err != nil {
		return nil, fmt.Errorf("%s are not valid JSON: %v", noun, err)
	}
	if _, isSet := probe["keys"]; isSet {
		var set jose.JSONWebKeySet
		if err := json.Unmarshal(in, &set); err != nil {
			return nil, fmt.Errorf("%s are not a JWKS ({\"keys\":[...]}): %v", noun, err)
		}
		return set.Keys, nil
	}
	var k jose.JSONWebKey
	if err := k.UnmarshalJSON(in); err != nil {
		return nil, fmt.Errorf("the key is not a valid JWK (RFC 7517): %v", err)
	}
	return []jose.JSONWebKey{k}, nil
}

// readPEMKeys reads every PEM block of in; text that holds none is refused.
func readPEMKeys(in []byte, noun string) ([]jose.JSONWebKey, error) {
	var keys []jose.JSONWebKey
	rest := in
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		key, err := parsePEMBlock(block)
		if err != nil {
			return nil, err
		}
		keys = append(keys, jose.JSONWebKey{Key: key})
	}
	if len(keys) == 0 && len(bytes.TrimSpace(in)) > 0 {
		return nil, errors.New(noun + ` are neither PEM ("PUBLIC KEY", "RSA PUBLIC KEY", or a private key block) nor JSON (a JWK or a JWKS)`)
	}
	return keys, nil
}

// parsePEMBlock reads one PEM block: a private key (PKCS #8, SEC 1, PKCS #1)
// or a public key (PKIX "PUBLIC KEY", PKCS #1 "RSA PUBLIC KEY").
func parsePEMBlock(block *pem.Block) (any, error) {
	switch block.Type {
	case "PUBLIC KEY":
		k, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("the PUBLIC KEY PEM block cannot be read: %v", err)
		}
		return k, nil
	case "RSA PUBLIC KEY":
		k, err := x509.ParsePKCS1PublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("the RSA PUBLIC KEY PEM block cannot be read: %v", err)
		}
		return k, nil
	}
	return parsePrivateKey(pem.EncodeToMemory(block))
}

// TrustedKeys reads trusted keys given as a JWKS, a JWK or PEM public keys,
// each with its kid (the RFC 7638 thumbprint when it has none). Private and
// symmetric keys are refused: only public keys belong in a configuration.
func TrustedKeys(in []byte) (*jose.JSONWebKeySet, error) {
	if len(bytes.TrimSpace(in)) == 0 {
		return &jose.JSONWebKeySet{}, nil
	}
	keys, err := readKeys(in, "the trusted keys")
	if err != nil {
		return nil, err
	}
	return &jose.JSONWebKeySet{Keys: keys}, nil
}
