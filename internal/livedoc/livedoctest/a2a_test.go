//go:build unix

package livedoctest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

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
