package cardsig

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// bigCard is the test card, compact, padded with a description to size bytes.
func bigCard(size int) []byte {
	var c map[string]any
	must(0, json.Unmarshal([]byte(card), &c))
	c["description"] = ""
	c["description"] = strings.Repeat("d", size-len(must(json.Marshal(c))))
	return must(json.Marshal(c))
}

// withBogusSignatures adds n copies of one signature of the card, made with
// ec-pkcs8 over another card: each reaches go-jose and fails there.
func withBogusSignatures(t *testing.T, doc []byte, n int) []byte {
	t.Helper()
	other := sign(t, []byte(strings.Replace(card, "weather", "not-this-card", 1)), keys()[0])
	var o struct{ Signatures []json.RawMessage }
	must(0, json.Unmarshal(other, &o))
	var c map[string]any
	must(0, json.Unmarshal(doc, &c))
	sigs := make([]json.RawMessage, n)
	for i := range sigs {
		sigs[i] = o.Signatures[0]
	}
	c["signatures"] = sigs
	return must(json.Marshal(c))
}

// A card is bounded in size and in signatures before any is checked (a
// 1 MB card with thousands of bogus signatures would cost minutes of CPU),
// and so are the trusted keys.
func TestVerifyBounds(t *testing.T) {
	jwks := allKeysJWKS(t)
	wantContains(t, verifyErr(t, append(bigCard(MaxCardBytes), ' '), jwks, PolicyVerifyIfPresent),
		fmt.Sprintf("the agent card is %d bytes; the limit is %d (1 MiB)", MaxCardBytes+1, MaxCardBytes))
	if _, err := Verify(bigCard(MaxCardBytes), jwks, PolicyRequire); err == nil || strings.Contains(err.Error(), "limit") {
		t.Errorf("a card of exactly %d bytes: %v, want only the missing signature", MaxCardBytes, err)
	}
	wantContains(t, verifyErr(t, withBogusSignatures(t, []byte(card), MaxSignatures+1), jwks, PolicyVerifyIfPresent),
		"the agent card has 17 signatures; the limit is 16")
	// 16 signatures are each checked (and here each fails).
	msg := verifyErr(t, withBogusSignatures(t, []byte(card), MaxSignatures), jwks, PolicyVerifyIfPresent)
	wantContains(t, msg, "signature 16 (kid \"ec-pkcs8\", alg ES256): bad signature")
	// Sixteen good ones verify.
	doc := []byte(card)
	for range MaxSignatures {
		doc = sign(t, doc, keys()[0])
	}
	if kids, err := Verify(doc, jwks, PolicyRequire); err != nil || len(kids) != 1 {
		t.Errorf("%d signatures: %v %v", MaxSignatures, kids, err)
	}
	// Sign adds none past the limit: the card could not be verified.
	if _, err := Sign(doc, keys()[0].pem, keys()[0].kid); err == nil || !strings.Contains(err.Error(), "already has 16 signatures") {
		t.Errorf("a 17th signature: %v", err)
	}
	bigJWKS := append(jwks[:len(jwks)-2:len(jwks)-2], []byte(`],"pad":"`+strings.Repeat("x", MaxJWKSBytes)+`"}`)...)
	wantContains(t, verifyErr(t, []byte(card), bigJWKS, PolicyVerifyIfPresent), "the trusted keys are", "the limit is 1048576 (1 MiB)")
}

// The payload is encoded once, not once per signature: each more signature
// over a 1 MiB card costs what go-jose needs to check it (the signing input,
// built in a growing buffer: about 4 MB), not a re-encoding of the payload
// into that signature's JSON parsed again (15 MB).
func TestVerifyPayloadParsedOnce(t *testing.T) {
	jwks := allKeysJWKS(t)
	big := bigCard(MaxCardBytes - 64<<10)
	alloc := func(n int) uint64 {
		doc := withBogusSignatures(t, big, n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, _ = Verify(doc, jwks, PolicyVerifyIfPresent)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	one, many := alloc(1), alloc(MaxSignatures)
	perSignature := (many - one) / (MaxSignatures - 1)
	if limit := uint64(5 * len(big)); perSignature > limit {
		t.Errorf("each signature over a %d-byte card allocated %d bytes; want at most %d (the payload encoded once)", len(big), perSignature, limit)
	}
}
