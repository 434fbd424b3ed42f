package provider

// Card signatures through agentregistry_agent: checked at plan against the
// provider's trusted_keys, under the provider's or the resource's policy.

import (
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
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/go-jose/go-jose/v4"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/cardsig"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

// sigKey is a signing key of the tests, by kid.
type sigKey struct {
	signer crypto.Signer
	pem    string
}

// sigKeys are made once: RSA generation is slow.
var sigKeys = sync.OnceValue(func() map[string]sigKey {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	_, ed, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	rs, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	keys := map[string]sigKey{}
	for kid, k := range map[string]crypto.Signer{"ec-1": ec, "ed-1": ed, "rsa-1": rs} {
		der, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			panic(err)
		}
		keys[kid] = sigKey{signer: k, pem: string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))}
	}
	return keys
})

// sigJWKS is the public JWKS of the test keys, plus the independent
// fixture's keys when withIndependent, minus the kids in without.
func sigJWKS(t *testing.T, withIndependent bool, without ...string) string {
	t.Helper()
	var set jose.JSONWebKeySet
	if withIndependent {
		if err := json.Unmarshal(readSigFixture(t, "independent-jwks.json"), &set); err != nil {
			t.Fatal(err)
		}
	}
	for _, kid := range []string{"ec-1", "ed-1", "rsa-1"} {
		if !strings.Contains(strings.Join(without, " "), kid) {
			set.Keys = append(set.Keys, jose.JSONWebKey{Key: sigKeys()[kid].signer.Public(), KeyID: kid, Use: "sig"})
		}
	}
	b, err := json.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sigFixturePath is a file of cardsig's independent fixture (signed by npm
// jose over canonicalize's bytes, not by this code).
func sigFixturePath(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "cardsig", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func readSigFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(sigFixturePath(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// signWith signs card with each kid's key in turn, under signAs when given.
func signWith(t *testing.T, card string, kids ...string) string {
	t.Helper()
	for _, kid := range kids {
		keyKid, signAs, _ := strings.Cut(kid, "=") // "ec-1=rsa-1": ec-1's key, kid rsa-1
		if signAs == "" {
			signAs = keyKid
		}
		signed, err := cardsig.Sign([]byte(card), []byte(sigKeys()[keyKid].pem), signAs)
		if err != nil {
			t.Fatalf("sign with %s: %v", kid, err)
		}
		card = string(signed)
	}
	return card
}

// editSignatures decodes a card, lets edit change its signatures, and encodes it.
func editSignatures(t *testing.T, card string, edit func(sigs []any) []any) string {
	t.Helper()
	var c map[string]any
	if err := json.Unmarshal([]byte(card), &c); err != nil {
		t.Fatal(err)
	}
	sigs, _ := c["signatures"].([]any)
	c["signatures"] = edit(sigs)
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// withHandMadeSignature adds to liveCardCanonical a signature whose
// protected header is header.
func withHandMadeSignature(t *testing.T, header map[string]any, sig string) string {
	h, _ := json.Marshal(header)
	return editSignatures(t, liveCardCanonical, func(sigs []any) []any {
		return append(sigs, map[string]any{"protected": base64.RawURLEncoding.EncodeToString(h), "signature": sig})
	})
}

// flipSignatureByte corrupts signature i.
func flipSignatureByte(t *testing.T, card string, i int) string {
	return editSignatures(t, card, func(sigs []any) []any {
		s := as[map[string]any](t, sigs[i])
		raw, err := base64.RawURLEncoding.DecodeString(as[string](t, s["signature"]))
		if err != nil {
			t.Fatal(err)
		}
		raw[len(raw)/2] ^= 1
		s["signature"] = base64.RawURLEncoding.EncodeToString(raw)
		return sigs
	})
}

// sigProvider is a provider block with signature settings.
func sigProvider(endpoint, jwks, policy string) string {
	return fmt.Sprintf(`
provider "agentregistry" {
  endpoint         = %q
  project          = "test-project"
  trusted_keys     = %q
  signature_policy = %q
}
`, endpoint, jwks, policy)
}

func sigAgent(name, serviceID, cardExpr, extra string) string {
	return fmt.Sprintf("resource \"agentregistry_agent\" %q {\n  service_id = %q\n  agent_card = %s\n  %s\n}\n", name, serviceID, cardExpr, extra)
}

func TestAccAgentResource_signatures(t *testing.T) {
	r := startRegistry(t)
	var keyFetches atomic.Int32
	keyServer := livedoctest.Serve(t, map[string]http.HandlerFunc{"/": func(w http.ResponseWriter, _ *http.Request) {
		keyFetches.Add(1)
		_, _ = w.Write([]byte(sigJWKS(t, false)))
	}})
	jwks := sigJWKS(t, true)
	signed := signWith(t, liveCardCanonical, "ec-1", "ed-1", "rsa-1")
	// The independent card reaches the resource through the live card data
	// source: its text is not all NFC (U+FB33), which Terraform would
	// normalise in a file() or a literal, breaking its signatures.
	fixture := livedoctest.Serve(t, map[string]http.HandlerFunc{
		"/.well-known/agent-card.json": livedoctest.JSON(string(readSigFixture(t, "independent-signed-card.json"))),
	})
	independent := cardDS("independent", fmt.Sprintf("url = %q", fixture.URL)) +
		sigAgent("independent", "independent-agent", "data.agentregistry_agent_card.independent.json", "")
	withCard := func(policy, card, extra string) string {
		return sigProvider(r.URL, jwks, policy) + sigAgent("signed", "signed-agent", card, extra) + independent
	}
	const addr = "agentregistry_agent.signed"
	ok := withCard("require", fmt.Sprintf("%q", signed), "")
	refused := func(card string, want ...string) resource.TestStep {
		return resource.TestStep{
			Config:      withCard("require", fmt.Sprintf("%q", card), ""),
			ExpectError: relWords(append([]string{"Agent Card Signature Not Verified"}, want...)...),
		}
	}
	tampered := strings.Replace(signed, `"name":"Weather Agent"`, `"name":"Weather Agent 2"`, 1)
	if tampered == signed {
		t.Fatal("the tampering did not change the card")
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{ // valid signatures, ours and the independent fixture's: kids known at plan
				Config: ok,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("verified_key_ids"), resStrings("ec-1", "ed-1", "rsa-1")),
					plancheck.ExpectKnownValue("agentregistry_agent.independent", tfjsonpath.New("verified_key_ids"),
						resStrings("independent-es256", "independent-es384", "independent-ed25519", "independent-ps256")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("verified_key_ids"), resStrings("ec-1", "ed-1", "rsa-1")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("signature_policy"), knownvalue.Null()),
					dsValue("independent", "verified_key_ids", knownvalue.ListSizeExact(4)),
					// U+FB33 escaped, so that Terraform keeps it as jose signed it
					dsValue("independent", "json", knownvalue.StringRegexp(regexp.MustCompile(`\\ufb33`))),
				},
			},
			// Import reads verified_key_ids back under the provider's policy.
			// The card comes back in the form generated configuration evaluates to
			// (common_generated_documents.go: & as \u0026), the same document.
			{ResourceName: addr, ImportState: true, ImportStateId: "signed-agent", ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"agent_card"}, ImportStateCheck: importedDocumentIs("agent_card", signed)},
			refused(tampered, `signature 1 (kid "ec-1", alg ES256): bad signature: it does not match the card`,
				`signature 2 (kid "ed-1", alg EdDSA): bad signature`, `signature 3 (kid "rsa-1", alg RS256): bad signature`,
				"Nothing was sent to the registry"),
			refused(flipSignatureByte(t, signed, 1), `signature 2 (kid "ed-1", alg EdDSA): bad signature`),
			refused(signWith(t, liveCardCanonical, "ec-1=nobody"), `signature 1 (kid "nobody", alg ES256): unknown kid: no trusted key has this kid`),
			refused(withHandMadeSignature(t, map[string]any{"alg": "none", "kid": "ec-1"}, ""),
				`signature 1 (kid "ec-1", alg none): alg not allowed: an unsecured JWS (none) proves nothing`),
			refused(withHandMadeSignature(t, map[string]any{"alg": "HS256", "kid": "ec-1"}, "AAAA"),
				`(kid "ec-1", alg HS256): alg not allowed: HMAC needs a shared secret`),
			refused(signWith(t, liveCardCanonical, "ec-1=rsa-1"),
				`signature 1 (kid "rsa-1", alg ES256): wrong key type: ES256 needs an EC P-256 key, the trusted key is an RSA key`),
			// A jku naming a JWKS that would verify the signature is never fetched.
			refused(withHandMadeSignature(t, map[string]any{"alg": "ES256", "kid": "remote", "jku": keyServer.URL}, "AAAA"),
				`(kid "remote", alg ES256): unknown kid`),
			refused(liveCardCanonical, `signature_policy "require" (the provider's signature_policy)`,
				"the agent card is not signed and the signature policy is require"),
			{ // a key taken out of trusted_keys fails the next plan, with no change to the card
				Config: sigProvider(r.URL, sigJWKS(t, true, "ed-1"), "require") + sigAgent("signed", "signed-agent", fmt.Sprintf("%q", signed), "") +
					independent,
				PlanOnly:    true,
				ExpectError: relWords("Agent Card Signature Not Verified", `signature 2 (kid "ed-1", alg EdDSA): unknown kid`),
			},
			{ // the resource's override: an unsigned card passes verify_if_present
				Config: withCard("require", fmt.Sprintf("%q", liveCardCanonical), `signature_policy = "verify_if_present"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("verified_key_ids"), knownvalue.ListSizeExact(0)),
				}},
			},
			{ // off checks nothing, not even a tampered card
				Config: withCard("require", fmt.Sprintf("%q", tampered), `signature_policy = "off"`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("verified_key_ids"), knownvalue.ListSizeExact(0)),
				},
			},
			{ // the override also tightens: require on the resource, off on the provider
				Config: sigProvider(r.URL, jwks, "off") + sigAgent("signed", "signed-agent", fmt.Sprintf("%q", liveCardCanonical), `signature_policy = "require"`),
				ExpectError: relWords("Agent Card Signature Not Verified", `(signature_policy of this resource)`,
					"the agent card is not signed"),
			},
			{ // back to signed: the policy change alone is an update without an API call
				Config: ok,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("verified_key_ids"), resStrings("ec-1", "ed-1", "rsa-1")),
				},
			},
		},
	})
	if n := keyFetches.Load(); n != 0 {
		t.Errorf("the jku URL was fetched %d times", n)
	}
}

func TestAccProvider_trustedKeysRefused(t *testing.T) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	private, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: ec, KeyID: "oops"}}})
	noKid, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: ec.Public()}}})
	der, err := x509.MarshalPKCS8PrivateKey(ec)
	if err != nil {
		t.Fatal(err)
	}
	privatePEM := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	cfg := func(jwks string) string {
		return sigProvider("http://127.0.0.1:1", jwks, "require") + sigAgent("x", "x-agent", fmt.Sprintf("%q", liveCardCanonical), "")
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg(string(private)), ExpectError: relWords("Invalid Trusted Keys", `key 1 (kid "oops") is not a public key`)},
			// A key without a kid is trusted under its RFC 7638 thumbprint: the unsigned card is then
			// what require refuses, not the keys.
			{Config: cfg(string(noKid)), ExpectError: relWords("the agent card is not signed and the signature policy is require")},
			{Config: cfg(privatePEM), ExpectError: relWords("Invalid Trusted Keys", "is not a public key")},
			{Config: cfg(`{"keys": 1}`), ExpectError: relWords("Invalid Trusted Keys", "expected a JWKS")},
			{Config: sigProvider("http://127.0.0.1:1", "", "strict") + sigAgent("x", "x-agent", fmt.Sprintf("%q", liveCardCanonical), ""),
				ExpectError: relWords("signature_policy", "value must be one of")},
		},
	})
}

// The environment variables feed the same settings; a bad value is reported
// by what checks a signature. t.Setenv forbids a parallel test.
func TestAccProvider_signatureSettingsFromEnvironment(t *testing.T) {
	card := livedoctest.Serve(t, map[string]http.HandlerFunc{
		"/.well-known/agent-card.json": livedoctest.JSON(signWith(t, liveCardCanonical, "ed-1")),
	})
	t.Setenv("AGENTREGISTRY_TRUSTED_KEYS", sigJWKS(t, false))
	t.Setenv("AGENTREGISTRY_SIGNATURE_POLICY", "require")
	config := cardDS("live", fmt.Sprintf("url = %q", card.URL))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:            config,
				ConfigStateChecks: []statecheck.StateCheck{dsValue("live", "verified_key_ids", resStrings("ed-1"))},
			},
			{
				PreConfig:   func() { t.Setenv("AGENTREGISTRY_SIGNATURE_POLICY", "strict") },
				Config:      config,
				ExpectError: relWords("Invalid Signature Policy", "AGENTREGISTRY_SIGNATURE_POLICY", `"strict" is not a signature policy`),
			},
			{
				PreConfig: func() {
					t.Setenv("AGENTREGISTRY_SIGNATURE_POLICY", "require")
					t.Setenv("AGENTREGISTRY_TRUSTED_KEYS", `{"keys":[{"kty":"oct","k":"c2VjcmV0","kid":"shared"}]}`)
				},
				Config:      config,
				ExpectError: relWords("Invalid Trusted Keys", "AGENTREGISTRY_TRUSTED_KEYS", `key 1 (kid "shared") is not a public key`),
			},
		},
	})
}
