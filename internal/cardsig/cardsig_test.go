package cardsig

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/go-jose/go-jose/v4"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

const card = `{
  "protocolVersion": "0.3.0", "name": "weather", "description": "Forecasts <daily> & weekly",
  "url": "https://agent.example/a2a", "version": "1.0.0",
  "skills": [{"id": "forecast", "name": "Forecast", "description": "d", "tags": ["weather"]}]
}`

// testKey is a private key in one PEM form, with its kid.
type testKey struct {
	kid, alg string
	key      crypto.Signer
	pem      []byte
}

func pemOf(typ string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// as is v as a T, or the test fails: the values a test decodes have the
// types it expects, and a wrong one is the test's own bug.
func as[T any](t testing.TB, v any) T {
	t.Helper()
	x, ok := v.(T)
	if !ok {
		t.Fatalf("%T is not a %T", v, x)
	}
	return x
}

// keys are made once: RSA generation is slow under -race.
var keys = sync.OnceValue(func() []testKey {
	ec := must(ecdsa.GenerateKey(elliptic.P256(), rand.Reader))
	_, ed, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	rs := must(rsa.GenerateKey(rand.Reader, 2048))
	pkcs8 := func(k any) []byte { return pemOf("PRIVATE KEY", must(x509.MarshalPKCS8PrivateKey(k))) }
	return []testKey{
		{"ec-pkcs8", "ES256", ec, pkcs8(ec)},
		{"ec-sec1", "ES256", ec, pemOf("EC PRIVATE KEY", must(x509.MarshalECPrivateKey(ec)))},
		{"ed-pkcs8", "EdDSA", ed, pkcs8(ed)},
		{"rsa-pkcs8", "RS256", rs, pkcs8(rs)},
		{"rsa-pkcs1", "RS256", rs, pemOf("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rs))},
	}
})

// jwksOf is the JWKS of the given public keys by kid.
func jwksOf(t *testing.T, pubs map[string]crypto.PublicKey) []byte {
	t.Helper()
	var set jose.JSONWebKeySet
	for kid, pub := range pubs {
		set.Keys = append(set.Keys, jose.JSONWebKey{Key: pub, KeyID: kid})
	}
	return must(json.Marshal(set))
}

func allKeysJWKS(t *testing.T) []byte {
	pubs := map[string]crypto.PublicKey{}
	for _, k := range keys() {
		pubs[k.kid] = k.key.Public()
	}
	return jwksOf(t, pubs)
}

func sign(t *testing.T, doc []byte, k testKey) []byte {
	t.Helper()
	signed, err := Sign(doc, k.pem, k.kid)
	if err != nil {
		t.Fatalf("Sign with %s: %v", k.kid, err)
	}
	return signed
}

func verifyErr(t *testing.T, doc, jwks []byte, policy Policy) string {
	t.Helper()
	kids, err := Verify(doc, jwks, policy)
	if err == nil {
		t.Fatalf("Verify = %v, want an error", kids)
	}
	return err.Error()
}

func wantContains(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("message %q\ndoes not contain %q", got, w)
		}
	}
}

// protectedHeader decodes the protected header of the card's signature i.
func protectedHeader(t *testing.T, doc []byte, i int) map[string]any {
	t.Helper()
	var c struct{ Signatures []signature }
	must(0, json.Unmarshal(doc, &c))
	var h map[string]any
	must(0, json.Unmarshal(must(base64.RawURLEncoding.DecodeString(c.Signatures[i].Protected)), &h))
	return h
}

func TestSignAndVerifyEachKeyForm(t *testing.T) {
	jwks := allKeysJWKS(t)
	for _, k := range keys() {
		t.Run(k.kid, func(t *testing.T) {
			signed := sign(t, []byte(card), k)
			kids, err := Verify(signed, jwks, PolicyRequire)
			if err != nil || !slices.Equal(kids, []string{k.kid}) {
				t.Fatalf("Verify = %v, %v", kids, err)
			}
			h := protectedHeader(t, signed, 0)
			if h["alg"] != k.alg || h["kid"] != k.kid || h["typ"] != "JOSE" {
				t.Errorf("protected header %v", h)
			}
			// Deterministic, as a Terraform function must be (ECDSA too).
			if again := sign(t, []byte(card), k); !bytes.Equal(again, signed) {
				t.Errorf("a second Sign gave other bytes:\n%s\n%s", signed, again)
			}
		})
	}
}

func TestSignKeepsEarlierSignatures(t *testing.T) {
	ks := keys()
	signed := sign(t, sign(t, []byte(card), ks[0]), ks[2])
	// Reformatting the card (here: pretty-printing it) keeps both valid.
	var pretty bytes.Buffer
	must(0, json.Indent(&pretty, signed, "", "    "))
	kids, err := Verify(pretty.Bytes(), allKeysJWKS(t), PolicyVerifyIfPresent)
	if err != nil || !slices.Equal(kids, []string{ks[0].kid, ks[2].kid}) {
		t.Fatalf("Verify = %v, %v", kids, err)
	}
}

func TestVerifyRefusesATamperedCard(t *testing.T) {
	signed := sign(t, []byte(card), keys()[0])
	tampered := bytes.Replace(signed, []byte(`"name":"weather"`), []byte(`"name":"weathr"`), 1)
	wantContains(t, verifyErr(t, tampered, allKeysJWKS(t), PolicyRequire),
		`signature 1 (kid "ec-pkcs8", alg ES256): bad signature: it does not match the card`)
}

func TestVerifyRefusesATamperedSignature(t *testing.T) {
	for _, k := range []testKey{keys()[0], keys()[2], keys()[3]} {
		signed := sign(t, []byte(card), k)
		var c map[string]any
		must(0, json.Unmarshal(signed, &c))
		sig := as[map[string]any](t, as[[]any](t, c["signatures"])[0])
		raw := must(base64.RawURLEncoding.DecodeString(as[string](t, sig["signature"])))
		raw[len(raw)/2] ^= 1
		sig["signature"] = base64.RawURLEncoding.EncodeToString(raw)
		wantContains(t, verifyErr(t, must(json.Marshal(c)), allKeysJWKS(t), PolicyRequire),
			`signature 1 (kid "`+k.kid+`", alg `+k.alg+`): bad signature`)
	}
}

// Sign writes the card in its RFC 8785 form, and VerifyCanonical, given
// that form, decides as Verify does on any spelling of the card: the same
// kids, the same refusals.
func TestVerifyCanonical(t *testing.T) {
	jwks := allKeysJWKS(t)
	signed := sign(t, []byte(card), keys()[0])
	if canon := must(jsoncanon.Canonical(signed)); !bytes.Equal(canon, signed) {
		t.Fatalf("Sign did not write the canonical form:\n%s\n%s", signed, canon)
	}
	tampered := bytes.Replace(signed, []byte(`"name":"weather"`), []byte(`"name":"weathr"`), 1)
	unsigned := must(jsoncanon.Canonical([]byte(card)))
	for _, c := range []struct {
		name   string
		card   []byte
		policy Policy
	}{
		{"signed", signed, PolicyRequire},
		{"tampered", tampered, PolicyVerifyIfPresent},
		{"unsigned under require", unsigned, PolicyRequire},
		{"unsigned", unsigned, PolicyVerifyIfPresent},
	} {
		kids, err := VerifyCanonical(c.card, jwks, c.policy)
		wantKids, wantErr := Verify(c.card, jwks, c.policy)
		if !slices.Equal(kids, wantKids) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("%s: VerifyCanonical = %v, %v; Verify = %v, %v", c.name, kids, err, wantKids, wantErr)
		}
	}
	if kids, err := VerifyCanonical(signed, jwks, PolicyRequire); err != nil || !slices.Equal(kids, []string{keys()[0].kid}) {
		t.Errorf("the signed card: %v, %v", kids, err)
	}
}

func TestVerifyUnknownKid(t *testing.T) {
	signed := sign(t, []byte(card), keys()[2])
	jwks := jwksOf(t, map[string]crypto.PublicKey{"other": keys()[2].key.Public()})
	wantContains(t, verifyErr(t, signed, jwks, PolicyVerifyIfPresent),
		`signature 1 (kid "ed-pkcs8", alg EdDSA): unknown kid: no trusted key has this kid`)
	wantContains(t, verifyErr(t, signed, nil, PolicyVerifyIfPresent), "unknown kid")
}

// withSignature adds a hand-made signature entry to the card.
func withSignature(t *testing.T, doc []byte, header map[string]any, sig string) []byte {
	t.Helper()
	var c map[string]any
	must(0, json.Unmarshal(doc, &c))
	prot := base64.RawURLEncoding.EncodeToString(must(json.Marshal(header)))
	c["signatures"] = append(as[[]any](t, c["signatures"]), map[string]any{"protected": prot, "signature": sig})
	return must(json.Marshal(c))
}

func unsignedWithSignatures() []byte {
	var c map[string]any
	must(0, json.Unmarshal([]byte(card), &c))
	c["signatures"] = []any{}
	return must(json.Marshal(c))
}

func TestVerifyRefusesNoneAndHMAC(t *testing.T) {
	none := withSignature(t, unsignedWithSignatures(), map[string]any{"alg": "none", "kid": "ec-pkcs8"}, "")
	wantContains(t, verifyErr(t, none, allKeysJWKS(t), PolicyRequire),
		`signature 1 (kid "ec-pkcs8", alg none): alg not allowed: an unsecured JWS (none) proves nothing`)

	// A real HS256 signature over the right payload, with the secret in the JWKS.
	secret := bytes.Repeat([]byte("k"), 32)
	p, _, err := splitCard([]byte(card))
	if err != nil {
		t.Fatal(err)
	}
	hs := must(jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: secret},
		(&jose.SignerOptions{}).WithHeader("kid", "shared")))
	compact := must(must(hs.Sign(p)).DetachedCompactSerialize())
	parts := strings.Split(compact, ".")
	var c map[string]any
	must(0, json.Unmarshal(unsignedWithSignatures(), &c))
	c["signatures"] = []any{map[string]any{"protected": parts[0], "signature": parts[2]}}
	jwks := must(json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: secret, KeyID: "shared"}}}))
	wantContains(t, verifyErr(t, must(json.Marshal(c)), jwks, PolicyRequire),
		`signature 1 (kid "shared", alg HS256): alg not allowed: HMAC needs a shared secret`)
}

func TestVerifyWrongKeyTypeForTheAlg(t *testing.T) {
	signed := sign(t, []byte(card), keys()[0]) // ES256
	jwks := jwksOf(t, map[string]crypto.PublicKey{"ec-pkcs8": keys()[3].key.Public()})
	wantContains(t, verifyErr(t, signed, jwks, PolicyRequire),
		`signature 1 (kid "ec-pkcs8", alg ES256): wrong key type: ES256 needs an EC P-256 key, the trusted key is an RSA key`)
	p384 := must(ecdsa.GenerateKey(elliptic.P384(), rand.Reader))
	jwks = jwksOf(t, map[string]crypto.PublicKey{"ec-pkcs8": p384.Public()})
	wantContains(t, verifyErr(t, signed, jwks, PolicyRequire), "the trusted key is an EC P-384 key")
	for key, want := range map[*jose.JSONWebKey]string{
		{Key: bytes.Repeat([]byte("k"), 32)}:                     "wrong key type: ES256 needs an EC P-256 key, the trusted key is a symmetric key",
		{Key: keys()[0].key.Public(), Algorithm: "ES384"}:        "wrong key: the trusted key is for alg ES384",
		{Key: keys()[0].key.Public(), Use: "enc", Algorithm: ""}: `wrong key: the trusted key is for use "enc", not signatures`,
	} {
		key.KeyID = "ec-pkcs8"
		jwks := must(json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{*key}}))
		wantContains(t, verifyErr(t, signed, jwks, PolicyRequire), `signature 1 (kid "ec-pkcs8", alg ES256): `+want)
	}
}

func TestVerifyMalformed(t *testing.T) {
	bad := withSignature(t, unsignedWithSignatures(), nil, "x")
	var c map[string]any
	must(0, json.Unmarshal(bad, &c))
	as[map[string]any](t, as[[]any](t, c["signatures"])[0])["protected"] = "%%%"
	wantContains(t, verifyErr(t, must(json.Marshal(c)), allKeysJWKS(t), PolicyRequire),
		`signature 1 (kid "", alg ): malformed: the protected header is not base64url-encoded JSON`)
	noKid := withSignature(t, unsignedWithSignatures(), map[string]any{"alg": "ES256"}, "x")
	wantContains(t, verifyErr(t, noKid, allKeysJWKS(t), PolicyRequire), "malformed: the protected header has no kid")
	wantContains(t, verifyErr(t, []byte(`{"signatures": {"protected": "x"}}`), nil, PolicyRequire),
		"the agent card's signatures is not an array")
	wantContains(t, verifyErr(t, []byte(`[1]`), nil, PolicyRequire), "the agent card is not a JSON object")
	wantContains(t, verifyErr(t, []byte(card), []byte(`{"keys": 1}`), PolicyVerifyIfPresent),
		"the trusted keys are not a JWKS")
}

func TestVerifyReportsEveryBadSignature(t *testing.T) {
	signed := sign(t, sign(t, []byte(card), keys()[0]), keys()[2])
	jwks := jwksOf(t, map[string]crypto.PublicKey{"ed-pkcs8": keys()[2].key.Public()})
	signed = withSignature(t, signed, map[string]any{"alg": "HS512", "kid": "x"}, "x")
	msg := verifyErr(t, signed, jwks, PolicyRequire)
	wantContains(t, msg, `signature 1 (kid "ec-pkcs8", alg ES256): unknown kid`, `signature 3 (kid "x", alg HS512): alg not allowed`)
	if strings.Contains(msg, "signature 2") {
		t.Errorf("the valid signature is reported: %s", msg)
	}
}

func TestVerifyPolicies(t *testing.T) {
	wantContains(t, verifyErr(t, []byte(card), nil, PolicyRequire),
		"the agent card is not signed and the signature policy is require")
	wantContains(t, verifyErr(t, unsignedWithSignatures(), nil, PolicyRequire), "not signed")
	if kids, err := Verify([]byte(card), nil, PolicyVerifyIfPresent); err != nil || kids != nil {
		t.Errorf("verify_if_present, unsigned: %v, %v", kids, err)
	}
	if kids, err := Verify([]byte("not json"), nil, PolicyOff); err != nil || kids != nil {
		t.Errorf("off: %v, %v", kids, err)
	}
	wantContains(t, verifyErr(t, []byte(card), nil, "strict"),
		`unknown signature policy "strict"; expected off, verify_if_present or require`)
}

func TestVerifyNeverFetchesKeys(t *testing.T) {
	var hits atomic.Int32
	k := keys()[0]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		_, _ = w.Write(jwksOf(t, map[string]crypto.PublicKey{k.kid: k.key.Public()}))
	}))
	defer srv.Close()
	// A signature whose header points at a JWKS that would verify it.
	signer := must(jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: k.key, KeyID: k.kid}},
		(&jose.SignerOptions{}).WithHeader("jku", srv.URL).WithHeader("x5u", srv.URL)))
	p, _, _ := splitCard([]byte(card))
	parts := strings.Split(must(must(signer.Sign(p)).DetachedCompactSerialize()), ".")
	var c map[string]any
	must(0, json.Unmarshal([]byte(card), &c))
	c["signatures"] = []any{map[string]any{"protected": parts[0], "signature": parts[2], "header": map[string]any{"jku": srv.URL}}}
	wantContains(t, verifyErr(t, must(json.Marshal(c)), nil, PolicyRequire), "unknown kid")
	if hits.Load() != 0 {
		t.Errorf("the jku/x5u URL was fetched %d times", hits.Load())
	}
}

func TestSignRefusals(t *testing.T) {
	ec := keys()[0]
	p384 := must(ecdsa.GenerateKey(elliptic.P384(), rand.Reader))
	small := must(rsa.GenerateKey(rand.Reader, 1024))
	for name, c := range map[string]struct {
		pem  []byte
		kid  string
		want string
	}{
		"not PEM":   {[]byte("MIGHAgEAMBMGByqGSM49AgEGCCqGSM49"), "k", "the key is neither PEM"},
		"encrypted": {pemOf("ENCRYPTED PRIVATE KEY", []byte("MIGHAgEAMBMGByqGSM49AgEGCCqGSM49")), "k", "the private key is encrypted"},
		"public":    {pemOf("PUBLIC KEY", must(x509.MarshalPKIXPublicKey(ec.key.Public()))), "k", `the PEM block is "PUBLIC KEY"`},
		"garbled":   {pemOf("PRIVATE KEY", []byte("MIGHAgEAMBMGByqGSM49AgEGCCqGSM49")), "k", "the PRIVATE KEY PEM block cannot be read"},
		"P-384":     {pemOf("EC PRIVATE KEY", must(x509.MarshalECPrivateKey(p384))), "k", "the EC key is on P-384: Sign uses ES256, which needs P-256"},
		"RSA 1024":  {pemOf("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(small)), "k", "the RSA key has 1024 bits: at least 2048 are required"},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := Sign([]byte(card), c.pem, c.kid)
			if err == nil {
				t.Fatalf("Sign = %s, want an error", out)
			}
			wantContains(t, err.Error(), c.want)
			if strings.Contains(err.Error(), "MIGH") {
				t.Errorf("the message shows key bytes: %v", err)
			}
		})
	}
	_, err := Sign([]byte(`{"a":`), ec.pem, "k")
	wantContains(t, err.Error(), "the agent card is not valid JSON")
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The fixtures were made by jose and canonicalize (npm), not by this code:
// see testdata/make-independent-fixture.mjs.
func TestIndependentFixture(t *testing.T) {
	payload, sigs, err := splitCard(readFixture(t, "independent-card.json"))
	if err != nil || len(sigs) != 0 {
		t.Fatal(sigs, err)
	}
	want := readFixture(t, "independent-canonical.json")
	if !bytes.Equal(payload, want) {
		t.Errorf("canonical bytes differ from canonicalize's:\n got %s\nwant %s", payload, want)
	}
	signed := readFixture(t, "independent-signed-card.json")
	kids, err := Verify(signed, readFixture(t, "independent-jwks.json"), PolicyRequire)
	wantKids := []string{"independent-es256", "independent-es384", "independent-ed25519", "independent-ps256"}
	if err != nil || !slices.Equal(kids, wantKids) {
		t.Errorf("Verify = %v, %v; want %v", kids, err, wantKids)
	}
	// Our signature added to theirs leaves theirs valid.
	both := sign(t, signed, keys()[0])
	var jwks jose.JSONWebKeySet
	must(0, json.Unmarshal(readFixture(t, "independent-jwks.json"), &jwks))
	jwks.Keys = append(jwks.Keys, jose.JSONWebKey{Key: keys()[0].key.Public(), KeyID: keys()[0].kid})
	kids, err = Verify(both, must(json.Marshal(jwks)), PolicyRequire)
	if err != nil || len(kids) != 5 {
		t.Errorf("Verify after adding ours = %v, %v", kids, err)
	}
}
