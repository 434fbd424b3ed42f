// Package cardsig signs and verifies A2A agent cards (the card's signatures[]
// member). Each signature is a JWS (RFC 7515) with a detached payload: the
// card without its signatures member, in RFC 8785 (JCS) canonical form, so
// that any reformatting of the card keeps its signatures valid. JWS and JWK
// handling is go-jose's; canonical bytes are jsoncanon's, the project's one
// definition of them.
//
// Keys come only from the JWKS the caller passes. Nothing here fetches
// anything: a jku, x5u or any other URL in a card or a header is ignored.
package cardsig

import (
	"encoding/json"
	"fmt"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// Policy says what Verify demands of a card.
type Policy string

const (
	// PolicyOff checks nothing.
	PolicyOff Policy = "off"
	// PolicyVerifyIfPresent accepts an unsigned card, but every signature a
	// card carries must verify.
	PolicyVerifyIfPresent Policy = "verify_if_present"
	// PolicyRequire also refuses an unsigned card.
	PolicyRequire Policy = "require"
)

// Bounds of what Verify and Sign read, so that a card's cost is bounded
// whatever it holds: unbounded, a 1 MB card with thousands of bogus
// signatures costs minutes of CPU.
const (
	// MaxCardBytes is the largest card: the size at which the live card
	// fetcher stops, and far above a registered card's 10 KB.
	MaxCardBytes = 1 << 20
	// MaxSignatures is the most signatures a card may carry. A card is
	// signed by its provider and perhaps a registry or two.
	MaxSignatures = 16
	// MaxJWKSBytes is the largest JWKS of trusted keys.
	MaxJWKSBytes = 1 << 20
)

// signature is one entry of a card's signatures[]. Header stays raw so that
// signing again leaves the existing entries byte for byte as they were.
type signature struct {
	Protected string          `json:"protected"`
	Signature string          `json:"signature"`
	Header    json.RawMessage `json:"header,omitempty"`
}

// splitCard returns the JWS payload of a card (its canonical form without
// signatures) and the signatures it carries.
func splitCard(card []byte) ([]byte, []signature, error) {
	if err := checkCardSize(card); err != nil {
		return nil, nil, err
	}
	canon, err := jsoncanon.Canonical(card)
	if err != nil {
		return nil, nil, fmt.Errorf("the agent card is not valid JSON: %v", err)
	}
	return splitCanonical(canon)
}

func checkCardSize(card []byte) error {
	if len(card) > MaxCardBytes {
		return fmt.Errorf("the agent card is %d bytes; the limit is %d (1 MiB)", len(card), MaxCardBytes)
	}
	return nil
}

// splitCanonical is splitCard for a card already in canonical form.
func splitCanonical(canon []byte) ([]byte, []signature, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(canon, &members); err != nil {
		return nil, nil, fmt.Errorf("the agent card is not a JSON object")
	}
	var sigs []signature
	if raw, ok := members["signatures"]; ok {
		if err := json.Unmarshal(raw, &sigs); err != nil {
			return nil, nil, fmt.Errorf("the agent card's signatures is not an array of {protected, signature, header} objects: %v", err)
		}
		delete(members, "signatures")
	}
	payload, err := encodeCanonical(members)
	return payload, sigs, err
}

// encodeCanonical encodes members in canonical form. encoding/json orders map
// keys by UTF-8 bytes and JCS by UTF-16 code units, so the result goes through
// jsoncanon again rather than being trusted as is.
func encodeCanonical(members map[string]json.RawMessage) ([]byte, error) {
	b, err := json.Marshal(members)
	if err != nil {
		return nil, err
	}
	return jsoncanon.Canonical(b)
}
