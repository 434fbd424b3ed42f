package cardsig

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-jose/go-jose/v4"
)

// allowedAlgs are the algorithms a signature may use, each with the key it
// needs (as keyKind names it).
var allowedAlgs = map[jose.SignatureAlgorithm]string{
	jose.ES256: "an EC P-256 key",
	jose.ES384: "an EC P-384 key",
	jose.RS256: "an RSA key",
	jose.PS256: "an RSA key",
	jose.EdDSA: "an Ed25519 key",
}

// allowedList is allowedAlgs in a fixed order, for go-jose and for messages.
var allowedList = []jose.SignatureAlgorithm{jose.ES256, jose.ES384, jose.RS256, jose.PS256, jose.EdDSA}

// Verify checks the signatures of an agent card against the trusted keys of a
// JWKS (keys are found by kid) and returns the kids that verified, in the
// order of the card's signatures[]. Every signature must verify: one that does
// not is an error naming its kid, its algorithm and why; all such errors are
// returned together. Under PolicyRequire an unsigned card is an error; under
// PolicyOff nothing is read.
func Verify(card, jwks []byte, policy Policy) ([]string, error) {
	return verify(card, jwks, policy, splitCard)
}

// VerifyCanonical is Verify for a card already in its RFC 8785 form (as
// jsoncanon.Canonical and Sign write it), which it does not canonicalise
// again: a caller that has made that form for another use (a digest, a
// comparison) passes it here rather than pay for it twice.
func VerifyCanonical(card, jwks []byte, policy Policy) ([]string, error) {
	return verify(card, jwks, policy, func(canon []byte) ([]byte, []signature, error) {
		if err := checkCardSize(canon); err != nil {
			return nil, nil, err
		}
		return splitCanonical(canon)
	})
}

// verify is Verify with the way the card is split into payload and signatures.
func verify(card, jwks []byte, policy Policy, split func([]byte) ([]byte, []signature, error)) ([]string, error) {
	switch policy {
	case PolicyOff:
		return nil, nil
	case PolicyVerifyIfPresent, PolicyRequire:
	default:
		return nil, fmt.Errorf("unknown signature policy %q; expected %s, %s or %s", policy, PolicyOff, PolicyVerifyIfPresent, PolicyRequire)
	}
	// The keys are read first so that a broken JWKS shows even on an
	// unsigned card, not only once a signed one arrives.
	keys, err := parseJWKS(jwks)
	if err != nil {
		return nil, err
	}
	payload, sigs, err := split(card)
	if err != nil {
		return nil, err
	}
	if len(sigs) > MaxSignatures {
		return nil, fmt.Errorf("the agent card has %d signatures; the limit is %d", len(sigs), MaxSignatures)
	}
	if len(sigs) == 0 {
		if policy == PolicyRequire {
			return nil, errors.New("the agent card is not signed and the signature policy is require: add a signature made with one of the trusted keys")
		}
		return nil, nil
	}
	var kids []string
	var errs []error
	for i, s := range sigs {
		kid, err := verifyOne(payload, s, keys)
		if err != nil {
			errs = append(errs, fmt.Errorf("signature %d %w", i+1, err))
		} else if !slices.Contains(kids, kid) {
			kids = append(kids, kid)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return kids, nil
}

func parseJWKS(jwks []byte) (*jose.JSONWebKeySet, error) {
	if len(jwks) > MaxJWKSBytes {
		return nil, fmt.Errorf("the trusted keys are %d bytes; the limit is %d (1 MiB)", len(jwks), MaxJWKSBytes)
	}
	return TrustedKeys(jwks)
}

// sigError says why one signature failed; Verify prefixes its position.
type sigError struct {
	kid, alg, why string
}

func (e *sigError) Error() string {
	return fmt.Sprintf("(kid %q, alg %s): %s", e.kid, e.alg, e.why)
}

// verifyOne checks one signature and returns its kid. The header is read here,
// before go-jose, so that every refusal can name the kid and the algorithm.
func verifyOne(payload []byte, s signature, keys *jose.JSONWebKeySet) (string, error) {
	var hdr struct {
		Alg string `json:"alg"`
		Kid string `json:"kid"`
	}
	raw, err := base64.RawURLEncoding.DecodeString(s.Protected)
	if err == nil {
		err = json.Unmarshal(raw, &hdr)
	}
	e := &sigError{kid: hdr.Kid, alg: hdr.Alg}
	switch {
	case err != nil:
		e.why = "malformed: the protected header is not base64url-encoded JSON"
	case hdr.Alg == "":
		e.why = "malformed: the protected header has no alg"
	case refusal(hdr.Alg) != "":
		e.why = "alg not allowed: " + refusal(hdr.Alg)
	case hdr.Kid == "":
		e.why = "malformed: the protected header has no kid, so no trusted key can be chosen"
	}
	if e.why != "" {
		return "", e
	}
	e.why = verifyWithKeys(payload, s, jose.SignatureAlgorithm(hdr.Alg), keys.Key(hdr.Kid))
	if e.why != "" {
		return "", e
	}
	return hdr.Kid, nil
}

// refusal says why an algorithm is not allowed, or "" when it is.
func refusal(alg string) string {
	switch {
	case allowedAlgs[jose.SignatureAlgorithm(alg)] != "":
		return ""
	case alg == "none":
		return "an unsecured JWS (none) proves nothing"
	case strings.HasPrefix(alg, "HS"):
		return "HMAC needs a shared secret, so anyone able to verify could also sign"
	}
	return fmt.Sprintf("expected one of %v", allowedList)
}

// verifyWithKeys checks the signature with each trusted key of its kid that
// fits its algorithm, and returns "" when one verifies, else why none did.
func verifyWithKeys(payload []byte, s signature, alg jose.SignatureAlgorithm, candidates []jose.JSONWebKey) string {
	if len(candidates) == 0 {
		return "unknown kid: no trusted key has this kid"
	}
	var fitting []any
	why := ""
	for _, k := range candidates {
		pub := k.Public().Key
		switch {
		case k.Use != "" && k.Use != "sig":
			why = fmt.Sprintf("wrong key: the trusted key is for use %q, not signatures", k.Use)
		case k.Algorithm != "" && k.Algorithm != string(alg):
			why = fmt.Sprintf("wrong key: the trusted key is for alg %s", k.Algorithm)
		case keyKind(pub) != allowedAlgs[alg]:
			why = fmt.Sprintf("wrong key type: %s needs %s, the trusted key is %s", alg, allowedAlgs[alg], keyKind(pub))
		default:
			fitting = append(fitting, pub)
		}
	}
	if len(fitting) == 0 {
		return why
	}
	obj, err := jose.ParseSignedJSON(string(detached(s)), allowedList)
	if err != nil {
		return "malformed: " + err.Error()
	}
	for _, pub := range fitting {
		if err := obj.DetachedVerify(payload, pub); err == nil {
			return ""
		}
	}
	return "bad signature: it does not match the card (the card changed after signing, or another key signed it)"
}

// keyKind names a public key the way allowedAlgs names what an alg needs.
func keyKind(k any) string {
	switch k := k.(type) {
	case *ecdsa.PublicKey:
		return "an EC " + k.Curve.Params().Name + " key"
	case *rsa.PublicKey:
		return "an RSA key"
	case ed25519.PublicKey:
		return "an Ed25519 key"
	case nil:
		return "a symmetric key" // JSONWebKey.Public has no public half to give
	}
	return fmt.Sprintf("a %T key", k)
}

// detached is the JWS JSON serialization (RFC 7515 §7.2.2) of a signature
// with an empty payload: the payload, the same for every signature, is given
// to go-jose at verification (DetachedVerify), never encoded into each
// signature's JSON and parsed again. Marshal cannot fail: every field is a
// string or a RawMessage read from valid JSON.
func detached(s signature) []byte {
	b, _ := json.Marshal(struct {
		Payload   string          `json:"payload"`
		Protected string          `json:"protected"`
		Header    json.RawMessage `json:"header,omitempty"`
		Signature string          `json:"signature"`
	}{"", s.Protected, s.Header, s.Signature})
	return b
}
