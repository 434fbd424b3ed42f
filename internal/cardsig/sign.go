package cardsig

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/go-jose/go-jose/v4"
)

// minRSABits is the smallest RSA key Sign accepts (NIST SP 800-131A).
const minRSABits = 2048

// Sign returns the card with one more signature, made with a PEM private key
// (PKCS #8, or the SEC 1 "EC PRIVATE KEY" and PKCS #1 "RSA PRIVATE KEY" forms):
// ES256 for an EC P-256 key, EdDSA for Ed25519, RS256 for RSA. The protected
// header carries alg, kid and typ "JOSE". Signatures already on the card stay
// valid, as the payload never includes signatures.
//
// The result is the card in canonical form, and it is deterministic (ECDSA
// uses RFC 6979 nonces): the same card and key give the same bytes, as a
// Terraform function must. Errors never include key material.
//
// The key is PEM or a private JWK (see ParseSigningKey). An empty kid is the
// JWK's kid, else the key's RFC 7638 thumbprint.
func Sign(card, privateKey []byte, kid string) ([]byte, error) {
	key, err := ParseSigningKey(privateKey)
	if err != nil {
		return nil, err
	}
	if kid == "" {
		kid = key.KeyID
	}
	return signWith(card, key.key, kid)
}

// signWith adds one signature made with key under kid.
func signWith(card []byte, key crypto.Signer, kid string) ([]byte, error) {
	signer, err := newSigner(key, kid)
	if err != nil {
		return nil, err
	}
	payload, sigs, err := splitCard(card)
	if err != nil {
		return nil, err
	}
	if len(sigs) >= MaxSignatures {
		return nil, fmt.Errorf("the agent card already has %d signatures, the most Verify accepts", len(sigs))
	}
	obj, err := signer.Sign(payload)
	if err != nil {
		return nil, fmt.Errorf("signing the agent card: %v", err)
	}
	compact, err := obj.DetachedCompactSerialize()
	if err != nil {
		return nil, fmt.Errorf("signing the agent card: %v", err)
	}
	protected, rest, _ := strings.Cut(compact, ".")
	_, sig, _ := strings.Cut(rest, ".") // detached: the payload part is empty
	return withSignatures(payload, append(sigs, signature{Protected: protected, Signature: sig}))
}

// withSignatures puts signatures back into a canonical card without them.
func withSignatures(payload []byte, sigs []signature) ([]byte, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(payload, &members); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(sigs)
	if err != nil {
		return nil, err
	}
	members["signatures"] = raw
	return encodeCanonical(members)
}

// parsePrivateKey reads the first PEM block. Its messages name the PEM type
// and the parser's reason, never the bytes.
func parsePrivateKey(pemBytes []byte) (crypto.Signer, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return nil, errors.New(`the private key is not PEM: expected a "PRIVATE KEY", "EC PRIVATE KEY" or "RSA PRIVATE KEY" block`)
	}
	if block.Type == "ENCRYPTED PRIVATE KEY" || block.Headers["Proc-Type"] != "" {
		return nil, errors.New("the private key is encrypted: give it unencrypted (keep it in a secret store, not in the configuration)")
	}
	var key any
	var err error
	switch block.Type {
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		return nil, fmt.Errorf(`the PEM block is %q: expected "PRIVATE KEY", "EC PRIVATE KEY" or "RSA PRIVATE KEY"`, block.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("the %s PEM block cannot be read: %v", block.Type, err)
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("the private key is a %T, which cannot sign", key)
	}
	return signer, nil
}

// newSigner picks the algorithm for the key. go-jose's own ECDSA signing draws
// random nonces, so an EC key signs through ecdsaSigner instead.
func newSigner(key crypto.Signer, kid string) (jose.Signer, error) {
	var sk jose.SigningKey
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		if k.Curve != elliptic.P256() {
			return nil, fmt.Errorf("the EC key is on %s: Sign uses ES256, which needs P-256", k.Curve.Params().Name)
		}
		sk = jose.SigningKey{Algorithm: jose.ES256, Key: ecdsaSigner{key: k, kid: kid}}
	case ed25519.PrivateKey:
		sk = jose.SigningKey{Algorithm: jose.EdDSA, Key: jose.JSONWebKey{Key: k, KeyID: kid}}
	case *rsa.PrivateKey:
		if k.N.BitLen() < minRSABits {
			return nil, fmt.Errorf("the RSA key has %d bits: at least %d are required", k.N.BitLen(), minRSABits)
		}
		sk = jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: k, KeyID: kid}}
	default:
		return nil, fmt.Errorf("a %T key cannot sign agent cards: expected EC P-256, Ed25519 or RSA", key)
	}
	return jose.NewSigner(sk, (&jose.SignerOptions{}).WithType("JOSE"))
}

// ecdsaSigner signs ES256 with RFC 6979 deterministic nonces (Go's ecdsa with
// a nil random source), through go-jose's OpaqueSigner hook.
type ecdsaSigner struct {
	key *ecdsa.PrivateKey
	kid string
}

func (s ecdsaSigner) Public() *jose.JSONWebKey {
	return &jose.JSONWebKey{Key: &s.key.PublicKey, KeyID: s.kid, Algorithm: string(jose.ES256)}
}

func (s ecdsaSigner) Algs() []jose.SignatureAlgorithm { return []jose.SignatureAlgorithm{jose.ES256} }

// SignPayload returns the JWS form of an ECDSA signature: R and S as two
// 32-byte big-endian halves (RFC 7518 §3.4), not Go's ASN.1 DER.
func (s ecdsaSigner) SignPayload(payload []byte, _ jose.SignatureAlgorithm) ([]byte, error) {
	digest := sha256.Sum256(payload)
	der, err := s.key.Sign(nil, digest[:], crypto.SHA256)
	if err != nil {
		return nil, err
	}
	var rs struct{ R, S *big.Int }
	if _, err := asn1.Unmarshal(der, &rs); err != nil {
		return nil, err
	}
	out := make([]byte, 64)
	rs.R.FillBytes(out[:32])
	rs.S.FillBytes(out[32:])
	return out, nil
}
