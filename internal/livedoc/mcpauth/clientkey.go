package mcpauth

// The one place where a client assertion (private_key_jwt, RFC 7523) is
// made, which neither the SDK nor x/oauth2 does: a JWT signed with go-jose.

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/cardsig"
)

// CheckPrivateKey says why a private key cannot sign client assertions
// (nil when it can), for a validator at plan time; it never quotes the key.
func CheckPrivateKey(text string) error {
	_, err := parseClientKey(text)
	return err
}

// clientKey is the private key of private_key_jwt, with the algorithms it
// can sign with, the preferred first.
type clientKey struct {
	signer crypto.Signer
	kid    string // the JWK's kid: the authorization server may look the key up by it
	kind   string // "an EC P-256 key", for messages
	algs   []jose.SignatureAlgorithm
}

// parseClientKey reads a PEM or JWK private key: EC P-256, P-384 or P-521,
// RSA of 2048 bits or more, or Ed25519. Messages never show key material.
func parseClientKey(text string) (*clientKey, error) {
	pk, err := cardsig.ReadPrivateKey([]byte(text))
	if err != nil {
		return nil, err
	}
	k := &clientKey{signer: pk.Signer, kid: pk.KeyID}
	switch key := pk.Signer.(type) {
	case *ecdsa.PrivateKey:
		alg, ok := map[elliptic.Curve]jose.SignatureAlgorithm{elliptic.P256(): jose.ES256, elliptic.P384(): jose.ES384,
			elliptic.P521(): jose.ES512}[key.Curve]
		if !ok {
			return nil, fmt.Errorf("the EC key is on %s: expected P-256, P-384 or P-521", key.Curve.Params().Name)
		}
		k.kind, k.algs = "an EC "+key.Curve.Params().Name+" key", []jose.SignatureAlgorithm{alg}
	case ed25519.PrivateKey:
		k.kind, k.algs = "an Ed25519 key", []jose.SignatureAlgorithm{jose.EdDSA}
	case *rsa.PrivateKey:
		if key.N.BitLen() < minRSABits {
			return nil, fmt.Errorf("the RSA key has %d bits: at least %d bits are required", key.N.BitLen(), minRSABits)
		}
		k.kind, k.algs = "an RSA key", []jose.SignatureAlgorithm{jose.RS256, jose.PS256}
	default:
		return nil, fmt.Errorf("a %T key cannot sign a client assertion: expected EC, RSA or Ed25519", pk.Signer)
	}
	if pk.Algorithm != "" {
		alg := jose.SignatureAlgorithm(pk.Algorithm)
		if !slices.Contains(k.algs, alg) {
			return nil, fmt.Errorf("the JWK says \"alg\": %q, but %s signs with %s", pk.Algorithm, k.kind, joinAlgs(k.algs))
		}
		k.algs = []jose.SignatureAlgorithm{alg}
	}
	return k, nil
}

func joinAlgs(algs []jose.SignatureAlgorithm) string {
	s := make([]string, len(algs))
	for i, a := range algs {
		s[i] = string(a)
	}
	return strings.Join(s, " or ")
}

// algorithm is the first of the key's algorithms the server accepts (any,
// when its metadata names none).
func (k *clientKey) algorithm(accepted []string) (jose.SignatureAlgorithm, error) {
	for _, a := range k.algs {
		if len(accepted) == 0 || slices.Contains(accepted, string(a)) {
			return a, nil
		}
	}
	return "", fmt.Errorf("the authorization server accepts client assertions signed with %s; %s signs with %s: give a "+
		"key of a type it accepts", strings.Join(accepted, ", "), k.kind, joinAlgs(k.algs))
}

// assertion is a client assertion for the authorization server audience
// (its issuer, as RFC 7523bis asks): iss and sub the client, a jti never
// used again, valid for assertionLifetime.
func (k *clientKey) assertion(clientID, audience string, accepted []string) (string, error) {
	alg, err := k.algorithm(accepted)
	if err != nil {
		return "", err
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: jose.JSONWebKey{Key: k.signer, KeyID: k.kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", fmt.Errorf("cannot sign a client assertion with %s: %v", k.kind, err)
	}
	jti := make([]byte, 16)
	if _, err := rand.Read(jti); err != nil {
		return "", err
	}
	now := time.Now()
	return jwt.Signed(signer).Claims(jwt.Claims{Issuer: clientID, Subject: clientID, Audience: jwt.Audience{audience},
		ID: base64.RawURLEncoding.EncodeToString(jti), IssuedAt: jwt.NewNumericDate(now),
		Expiry: jwt.NewNumericDate(now.Add(assertionLifetime))}).Serialize()
}

// keyParts are the parts of a private key an error could quote alone: each
// line of a PEM body, each private member of a JWK.
func keyParts(text string) []string {
	var parts []string
	if strings.Contains(text, "-----BEGIN") { // PEM, read or not
		for _, line := range strings.Split(text, "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "-----") && !strings.Contains(line, ":") {
				parts = append(parts, line)
			}
		}
		return parts
	}
	var jwk map[string]any
	if json.Unmarshal([]byte(text), &jwk) == nil {
		for _, member := range []string{"d", "p", "q", "dp", "dq", "qi", "k"} {
			if v, ok := jwk[member].(string); ok {
				parts = append(parts, v)
			}
		}
	}
	return parts
}
