package cardsig

// The A2A TCK's published card-signing vectors (testdata/a2a-tck, whose
// README says where they come from): each card's signing payload (the card
// without signatures, RFC 8785) is the vector's bytes; the key the vectors
// publish signs each signing case into the published protected header and
// signature (EdDSA is deterministic), which verify; and each protected-header
// case is refused for the reason the vector gives, or parsed into the alg and
// kid it names.

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tckCase is a vector's card with the fields a case may carry beside it.
type tckCase struct {
	ID              string          `json:"id"`
	Card            json.RawMessage `json:"agent_card"`
	Payload         string          `json:"expected_jcs_payload"`
	ProtectedB64    string          `json:"expected_protected_b64"`
	SigningInput    string          `json:"expected_signing_input"`
	Signature       string          `json:"signature"`
	Valid           *bool           `json:"expected_valid"`
	DecodedAlg      string          `json:"decoded_alg"`
	DecodedKid      string          `json:"decoded_kid"`
	ExpectedFailure string          `json:"expected_error"`
}

type tckVectors struct {
	PublicJWK      json.RawMessage `json:"public_jwk"`
	PrivateJWK     json.RawMessage `json:"private_jwk"`
	Canonicalize   []tckCase       `json:"canonicalization_cases"`
	Signing        []tckCase       `json:"signing_cases"`
	Cases          []tckCase       `json:"cases"`
	SigningKeyNote string          `json:"signing_key_note"`
}

func readTCK(t *testing.T, name string) tckVectors {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "a2a-tck", name))
	if err != nil {
		t.Fatal(err)
	}
	var v tckVectors
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// Every card of the three files has the signing payload its vector gives.
func TestTCKVectors_canonicalPayload(t *testing.T) {
	signing := readTCK(t, "card_signing_vectors.json")
	cases := slices.Concat(signing.Canonicalize, signing.Signing, readTCK(t, "card_signing_canonicalization_vectors.json").Cases)
	if len(cases) != 11 {
		t.Fatalf("%d cases with a payload, want the 11 the vectors publish", len(cases))
	}
	for _, c := range cases {
		payload, _, err := splitCard(c.Card)
		if err != nil {
			t.Errorf("%s: %v", c.ID, err)
			continue
		}
		if string(payload) != c.Payload {
			t.Errorf("%s: the signing payload is\n%s\nwant\n%s", c.ID, payload, c.Payload)
		}
	}
}

// The published key signs each signing case into the published protected
// header and signature, and both the published signature and ours verify
// with the published public key.
func TestTCKVectors_signAndVerify(t *testing.T) {
	v := readTCK(t, "card_signing_vectors.json")
	jwks := []byte(`{"keys":[` + string(v.PublicJWK) + `]}`)
	if len(v.Signing) != 2 {
		t.Fatalf("%d signing cases, want 2", len(v.Signing))
	}
	for _, c := range v.Signing {
		t.Run(c.ID, func(t *testing.T) {
			// The vector itself: its signing input is its header and payload.
			if want := c.ProtectedB64 + "." + base64.RawURLEncoding.EncodeToString([]byte(c.Payload)); c.SigningInput != want {
				t.Fatalf("the vector's signing input is not its protected header and payload: %s", c.SigningInput)
			}
			signed, err := Sign(c.Card, v.PrivateJWK, "")
			if err != nil {
				t.Fatal(err)
			}
			var got struct{ Signatures []signature }
			if err := json.Unmarshal(signed, &got); err != nil || len(got.Signatures) != 1 {
				t.Fatalf("the signed card has no one signature (%v): %s", err, signed)
			}
			if s := got.Signatures[0]; s.Protected != c.ProtectedB64 || s.Signature != c.Signature {
				t.Errorf("Sign made protected %s and signature %s; the vector publishes %s and %s",
					s.Protected, s.Signature, c.ProtectedB64, c.Signature)
			}
			published := withPublishedSignature(t, c.Card, c.ProtectedB64, c.Signature)
			for name, card := range map[string][]byte{"ours": signed, "the published one": published} {
				kids, err := Verify(card, jwks, PolicyRequire)
				if err != nil || !slices.Equal(kids, []string{"key-1"}) {
					t.Errorf("the card with %s signature: Verify = %v, %v; want [key-1]", name, kids, err)
				}
			}
			// And ed25519 alone agrees that the payload signed is the vector's.
			pub := ed25519.PublicKey(must(base64.RawURLEncoding.DecodeString(publicX(t, v.PublicJWK))))
			if !ed25519.Verify(pub, []byte(c.SigningInput), must(base64.RawURLEncoding.DecodeString(c.Signature))) {
				t.Error("the published signature does not verify over the published signing input")
			}
		})
	}
}

// A signature whose protected header lacks alg or kid is refused for that
// reason; one whose header is whole is judged by its signature (the vectors'
// are fake: bad, or not base64url), with the alg and kid the vector decodes
// named in the error.
func TestTCKVectors_protectedHeader(t *testing.T) {
	v := readTCK(t, "card_signing_protected_header_vectors.json")
	if len(v.Cases) != 6 {
		t.Fatalf("%d cases, want 6", len(v.Cases))
	}
	jwks := tckHeaderKeys(t)
	reasons := map[string]string{
		"kid missing or empty": "malformed: the protected header has no kid",
		"alg missing or empty": "malformed: the protected header has no alg",
	}
	for _, c := range v.Cases {
		t.Run(c.ID, func(t *testing.T) {
			_, err := Verify(c.Card, jwks, PolicyRequire)
			if err == nil {
				t.Fatal("Verify accepted fake signatures")
			}
			msg := err.Error()
			switch {
			case c.Valid == nil:
				t.Fatal("the case says nothing of validity")
			case !*c.Valid:
				if want, ok := reasons[c.ExpectedFailure]; !ok || !strings.Contains(msg, want) {
					t.Errorf("refused as %q, want the reason %q (%s)", msg, want, c.ExpectedFailure)
				}
			default:
				// The fake signature is refused as such: bad, or not even
				// base64url ("fake1"), never for its header.
				named := fmt.Sprintf("signature 1 (kid %q, alg %s): ", c.DecodedKid, c.DecodedAlg)
				if strings.Contains(msg, "the protected header") || !strings.Contains(msg, named) {
					t.Errorf("a whole header should be read as %s and only its fake signature refused, got: %s", named, msg)
				}
			}
		})
	}
}

// withPublishedSignature is card with one signature.
func withPublishedSignature(t *testing.T, card json.RawMessage, protected, sig string) []byte {
	t.Helper()
	var members map[string]json.RawMessage
	if err := json.Unmarshal(card, &members); err != nil {
		t.Fatal(err)
	}
	members["signatures"] = must(json.Marshal([]signature{{Protected: protected, Signature: sig}}))
	return must(json.Marshal(members))
}

func publicX(t *testing.T, jwk json.RawMessage) string {
	t.Helper()
	var k struct{ X string }
	if err := json.Unmarshal(jwk, &k); err != nil || k.X == "" {
		t.Fatalf("the public JWK has no x: %v", err)
	}
	return k.X
}

// tckHeaderKeys trusts a key of the right type for each kid the header
// vectors name, so that a whole header reaches the signature check.
func tckHeaderKeys(t *testing.T) []byte {
	t.Helper()
	byAlg := map[string]crypto.Signer{}
	for _, k := range keys() {
		byAlg[k.alg] = k.key
	}
	p384 := must(ecdsa.GenerateKey(elliptic.P384(), rand.Reader))
	return jwksOf(t, map[string]crypto.PublicKey{"key-1": byAlg["ES256"].Public(), "2025-04-01": byAlg["RS256"].Public(),
		"v2-key": p384.Public(), "agent-signing-key": byAlg["EdDSA"].Public()})
}
