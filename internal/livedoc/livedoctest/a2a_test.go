//go:build unix

package livedoctest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/cardsig"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// get is a GET of url with A2A-Version 1.0 (the SDK takes a request without
// it for A2A 0.3, which it refuses) and the Authorization given, if any.
func get(t *testing.T, url, authorization string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("A2A-Version", "1.0")
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, body
}

func sameJSON(t *testing.T, got, want []byte) bool {
	t.Helper()
	eq, err := jsoncanon.Equal(got, want)
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, got)
	}
	return eq
}

// The agent serves its public card, which declares an extended card, and
// answers GET /extendedAgentCard of its HTTP+JSON interface with the extended
// card to the bearer of its token, and 401 with WWW-Authenticate: Bearer
// without the token or with another.
func TestServeA2AAgent_extendedCardBehindToken(t *testing.T) {
	agent := ServeA2AAgent(t, A2AExtendedCard)
	status, _, body := get(t, agent.URL+"/.well-known/agent-card.json", "")
	if status != http.StatusOK || !sameJSON(t, body, agent.PublicCard) {
		t.Fatalf("the public card: %d %s; want 200 and %s", status, body, agent.PublicCard)
	}
	var card struct {
		Capabilities struct{ ExtendedAgentCard bool }
		Skills       []struct{ ID string }
	}
	if err := json.Unmarshal(body, &card); err != nil || !card.Capabilities.ExtendedAgentCard {
		t.Errorf("the public card does not declare an extended card (%v): %s", err, body)
	}
	status, header, body := get(t, agent.RESTURL+"/extendedAgentCard", "Bearer "+agent.Token)
	if status != http.StatusOK || !sameJSON(t, body, agent.ExtendedCard) {
		t.Fatalf("the extended card with the token: %d %s; want 200 and %s", status, body, agent.ExtendedCard)
	}
	if ct := header.Get("Content-Type"); !strings.HasPrefix(ct, "application/a2a+json") {
		t.Errorf("the extended card comes as %q, want application/a2a+json", ct)
	}
	if bytes.Equal(agent.PublicCard, agent.ExtendedCard) {
		t.Error("the extended card is the public card: a test could not tell which was read")
	}
	for name, authorization := range map[string]string{"no token": "", "another token": "Bearer a2a-not-the-token"} {
		status, header, body := get(t, agent.RESTURL+"/extendedAgentCard", authorization)
		if status != http.StatusUnauthorized || !strings.HasPrefix(header.Get("WWW-Authenticate"), "Bearer") ||
			bytes.Contains(body, []byte("reconcile")) {
			t.Errorf("%s: %d (WWW-Authenticate %q) %s; want 401 with a Bearer challenge and no card", name, status,
				header.Get("WWW-Authenticate"), body)
		}
	}
}

// What the SDK answers the bearer of the token when no extended card is
// declared, or none is configured, and, without the fixture's 401, what it
// answers a caller without the token: the answers a reader of extended
// cards must tell apart.
func TestServeA2AAgent_sdkAnswers(t *testing.T) {
	for _, c := range []struct {
		mode          A2AMode
		authorization func(*A2AAgent) string
		status        int
		want          string
	}{
		{A2AUndeclared, bearer, http.StatusBadRequest, `"reason":"UNSUPPORTED_OPERATION"`},
		{A2AUnconfigured, bearer, http.StatusBadRequest, `"reason":"EXTENDED_AGENT_CARD_NOT_CONFIGURED"`},
		{A2ASDKAuthOnly, func(*A2AAgent) string { return "Bearer a2a-not-the-token" }, http.StatusOK, "public card"},
	} {
		t.Run(string(c.mode), func(t *testing.T) {
			agent := ServeA2AAgent(t, c.mode)
			status, _, body := get(t, agent.RESTURL+"/extendedAgentCard", c.authorization(agent))
			switch {
			case status != c.status:
				t.Errorf("%d %s; want %d", status, body, c.status)
			case c.want == "public card" && !sameJSON(t, body, agent.PublicCard):
				t.Errorf("%s; want the public card %s", body, agent.PublicCard)
			case c.want != "public card" && !bytes.Contains(body, []byte(c.want)):
				t.Errorf("%s; want %s", body, c.want)
			}
		})
	}
}

func bearer(a *A2AAgent) string { return "Bearer " + a.Token }

// signingJWK is a new EC P-256 key as a private JWK with its kid, and the
// JWKS of its public half.
func signingJWK(t *testing.T, kid string) (private, jwks string) {
	t.Helper()
	key, _ := NewECKey(t)
	priv, err := json.Marshal(jose.JSONWebKey{Key: key, KeyID: kid, Algorithm: "ES256"})
	if err != nil {
		t.Fatal(err)
	}
	pub, err := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: key.Public(), KeyID: kid, Use: "sig"}}})
	if err != nil {
		t.Fatal(err)
	}
	return string(priv), string(pub)
}

// Cards the SDK signed (its generateAgentCardSignature, over its own
// canonical form) verify with cardsig, as served, publicly and behind the
// authorization server's token; changed after signing, neither does. The
// card declares an OAuth 2.0 scheme naming the authorization server.
func TestServeA2AAgent_signedCardsVerify(t *testing.T) {
	private, jwks := signingJWK(t, "agent-key")
	as := NewAuthServer(t, AuthServerConfig{ClientID: "reader", Secret: "reader-secret-0123", Methods: []string{SecretBasic},
		Token: "at-fixed-" + random()})
	for _, tamper := range []bool{false, true} {
		agent := ServeA2AAgentWith(t, A2AOptions{AuthServer: as, SigningKey: private, Tamper: tamper})
		_, _, public := get(t, agent.URL+"/.well-known/agent-card.json", "")
		status, _, extended := get(t, agent.RESTURL+"/extendedAgentCard", "Bearer "+as.Token)
		if status != http.StatusOK || !sameJSON(t, extended, agent.ExtendedCard) {
			t.Fatalf("the extended card with the authorization server's token: %d %s", status, extended)
		}
		if !bytes.Contains(public, []byte(`"oauth2MetadataUrl":"`+as.Issuer+`/.well-known/oauth-authorization-server"`)) ||
			!bytes.Contains(public, []byte(`"tokenUrl":"`+as.Issuer+`/token"`)) {
			t.Errorf("the card does not name the authorization server: %s", public)
		}
		for name, card := range map[string][]byte{"public": public, "extended": extended} {
			kids, err := cardsig.Verify(card, []byte(jwks), cardsig.PolicyRequire)
			switch {
			case !tamper && (err != nil || len(kids) != 1 || kids[0] != "agent-key"):
				t.Errorf("the %s card: verified %v, %v; want agent-key", name, kids, err)
			case tamper && err == nil:
				t.Errorf("the %s card changed after signing verified: %v", name, kids)
			}
		}
	}
}
