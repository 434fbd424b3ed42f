//go:build unix

package livedoc_test

// The authenticated extended card of an A2A 1.0 agent served by the
// official A2A JS SDK (livedoctest.ServeA2AAgent), read with a token from
// the authorization server its card's scheme names, or with the caller's
// Authorization header.

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
)

const (
	readerID     = "registry-reader"
	readerSecret = "registry-reader-secret-0123"
)

// cardAuthServer is an authorization server that issues one fixed token to
// the reader, which the agent is given.
func cardAuthServer(t *testing.T) *livedoctest.AuthServer {
	t.Helper()
	return livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: readerID, Secret: readerSecret,
		Methods: []string{livedoctest.SecretBasic}, Token: "at-agent-card-token-0123"})
}

func reader() *mcpauth.Client {
	return &mcpauth.Client{Grant: &mcpauth.ClientCredentials{ClientID: readerID, ClientSecret: readerSecret}}
}

func readExtended(t *testing.T, url string, opts livedoc.ExtendedCardOptions) *livedoc.ExtendedCard {
	t.Helper()
	card, err := livedoc.FetchExtendedAgentCard(context.Background(), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	return card
}

func extendedErr(t *testing.T, url string, opts livedoc.ExtendedCardOptions) string {
	t.Helper()
	card, err := livedoc.FetchExtendedAgentCard(context.Background(), url, opts)
	if err == nil {
		t.Fatalf("FetchExtendedAgentCard(%s) = %s, want an error", url, card.Body)
	}
	return err.Error()
}

func wantCard(t *testing.T, got, want []byte) {
	t.Helper()
	if eq, err := jsoncanon.Equal(got, want); err != nil || !eq {
		t.Errorf("read %s (%v), want %s", got, err, want)
	}
}

// The card names an authorization server (its metadata, and its token URL):
// the client's token from there reads the extended card, asked for the
// scopes the card's requirement lists and the interface as resource.
func TestFetchExtendedAgentCard_oauthFromTheCardsScheme(t *testing.T) {
	as := cardAuthServer(t)
	agent := livedoctest.ServeA2AAgentWith(t, livedoctest.A2AOptions{AuthServer: as})
	card := readExtended(t, agent.URL, livedoc.ExtendedCardOptions{OAuth: reader()})
	wantCard(t, card.Body, agent.ExtendedCard)
	wantCard(t, card.Public.Body, agent.PublicCard)
	if card.URL != agent.RESTURL+"/extendedAgentCard" || card.SameAsPublic {
		t.Errorf("read from %s (the public card: %v), want %s/extendedAgentCard", card.URL, card.SameAsPublic, agent.RESTURL)
	}
	reqs := as.Requests()
	if len(reqs) != 1 || !slices.Equal(reqs[0].Scopes, []string{"agent.card"}) || !slices.Equal(reqs[0].Resource, []string{agent.RESTURL}) {
		t.Errorf("token requests %+v, want one for agent.card and the resource %s", reqs, agent.RESTURL)
	}
}

// Without an OAuth client, the caller's Authorization header reads it.
func TestFetchExtendedAgentCard_headers(t *testing.T) {
	agent := livedoctest.ServeA2AAgent(t, livedoctest.A2AExtendedCard)
	card := readExtended(t, agent.URL, livedoc.ExtendedCardOptions{Options: livedoc.Options{
		Headers: map[string]string{"Authorization": "Bearer " + agent.Token}}})
	wantCard(t, card.Body, agent.ExtendedCard)
}

// Each way an agent has no extended card for the caller is named: none
// declared (before any request for it), none configured, no credentials,
// a token refused; and a token the SDK alone does not check, answered with
// the public card, is told.
func TestFetchExtendedAgentCard_refusals(t *testing.T) {
	undeclared := livedoctest.ServeA2AAgent(t, livedoctest.A2AUndeclared)
	livedoctest.WantContains(t, extendedErr(t, undeclared.URL, livedoc.ExtendedCardOptions{}),
		"the agent card at "+undeclared.URL+"/.well-known/agent-card.json declares no extended card (capabilities.extendedAgentCard is false or absent")

	unconfigured := livedoctest.ServeA2AAgent(t, livedoctest.A2AUnconfigured)
	livedoctest.WantContains(t, extendedErr(t, unconfigured.URL, livedoc.ExtendedCardOptions{Options: livedoc.Options{
		Headers: map[string]string{"Authorization": "Bearer " + unconfigured.Token}}}),
		"GET "+unconfigured.RESTURL+"/extendedAgentCard answered 400 Bad Request, EXTENDED_AGENT_CARD_NOT_CONFIGURED "+
			`("Extended Agent Card not configured"): the agent declares an extended card but has none configured`)

	gated := livedoctest.ServeA2AAgent(t, livedoctest.A2AExtendedCard)
	livedoctest.WantContains(t, extendedErr(t, gated.URL, livedoc.ExtendedCardOptions{}),
		"GET "+gated.RESTURL+"/extendedAgentCard answered 401 Unauthorized (WWW-Authenticate: Bearer realm=\"ledger-agent\")",
		"the extended card needs credentials the agent accepts: an OAuth client (oauth_client, or oauth), or headers with its Authorization")

	as := cardAuthServer(t)
	agent := livedoctest.ServeA2AAgentWith(t, livedoctest.A2AOptions{AuthServer: as})
	as.Token = "at-another-token-0123" // what the agent does not take
	msg := extendedErr(t, agent.URL, livedoc.ExtendedCardOptions{OAuth: reader()})
	livedoctest.WantContains(t, msg, "GET "+agent.RESTURL+"/extendedAgentCard answered 401 Unauthorized",
		"the agent refused the token of the authorization server its card names ("+as.Issuer+"/.well-known/oauth-authorization-server)")
	if strings.Contains(msg, "at-another-token-0123") {
		t.Errorf("the message shows the token: %s", msg)
	}

	sdkOnly := livedoctest.ServeA2AAgent(t, livedoctest.A2ASDKAuthOnly)
	card := readExtended(t, sdkOnly.URL, livedoc.ExtendedCardOptions{Options: livedoc.Options{
		Headers: map[string]string{"Authorization": "Bearer a2a-not-the-token"}}})
	if !card.SameAsPublic {
		t.Errorf("the SDK answered with the public card, not told: %s", card.Body)
	}
}

// What the card names is checked before any credential goes anywhere: an
// interface on another origin, no HTTP+JSON interface, no scheme naming an
// authorization server for an OAuth client, or one the client is not
// pinned to.
func TestFetchExtendedAgentCard_refusedBeforeSending(t *testing.T) {
	as := cardAuthServer(t)
	oauthScheme := `{"oauth":{"oauth2SecurityScheme":{"flows":{"clientCredentials":{"tokenUrl":"` + as.Issuer + `/token"}}}}}`
	other := livedoctest.Serve(t, nil).URL // another origin
	for _, tc := range []struct {
		name, iface, binding, schemes string
		oauth                         *mcpauth.Client
		want                          string
	}{
		{"another origin", other + "/a2a", "HTTP+JSON", oauthScheme, reader(), "names its HTTP+JSON interface on " + other +
			", not on the origin of url"},
		{"JSON-RPC only", "SELF/a2a", "JSONRPC", oauthScheme, reader(), "names no HTTP+JSON interface (supportedInterfaces: JSONRPC at "},
		{"a bearer scheme", "SELF/a2a", "HTTP+JSON", `{"b":{"httpAuthSecurityScheme":{"scheme":"Bearer"}}}`, reader(),
			"declares no scheme that names an authorization server (an OAuth 2.0 scheme with oauth2MetadataUrl or a client " +
				"credentials tokenUrl, or an OpenID Connect scheme): its schemes are b; give the agent's token in headers"},
		{"pinned elsewhere", "SELF/a2a", "HTTP+JSON", oauthScheme, &mcpauth.Client{Issuer: "https://as.example.com", Grant: reader().Grant},
			"the client is pinned to the issuer https://as.example.com, and the scheme names only a token URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var url string
			url = livedoctest.Serve(t, map[string]http.HandlerFunc{"/.well-known/agent-card.json": func(w http.ResponseWriter, r *http.Request) {
				iface := strings.Replace(tc.iface, "SELF", url, 1)
				livedoctest.JSON(`{"name":"a","description":"d","version":"1","capabilities":{"extendedAgentCard":true},`+
					`"supportedInterfaces":[{"url":"`+iface+`","protocolBinding":"`+tc.binding+`","protocolVersion":"1.0"}],`+
					`"securitySchemes":`+tc.schemes+`,"skills":[]}`)(w, r)
			}}).URL
			livedoctest.WantContains(t, extendedErr(t, url, livedoc.ExtendedCardOptions{OAuth: tc.oauth}), tc.want)
		})
	}
	if n := len(as.Requests()); n != 0 {
		t.Errorf("%d token requests, want none", n)
	}
}

// Options an extended read does not take are refused before any request;
// an answer that is no A2A error is named with its status, a refusal
// without a challenge quotes none.
func TestFetchExtendedAgentCard_refusedOptionsAndAnswers(t *testing.T) {
	for _, tc := range []struct {
		opts livedoc.ExtendedCardOptions
		want string
	}{
		{livedoc.ExtendedCardOptions{Options: livedoc.Options{Timeout: livedoc.MaxTimeout + 1}}, "the timeout 2m0.000000001s is over the limit of 2m0s"},
		{livedoc.ExtendedCardOptions{OAuth: reader()}, "oauth needs an https url, or http on loopback"},
		{livedoc.ExtendedCardOptions{OAuth: reader(), Options: livedoc.Options{Headers: map[string]string{"authorization": "Bearer t"}}},
			"the headers set Authorization while an OAuth client is given"},
	} {
		livedoctest.WantContains(t, extendedErr(t, "http://agent.example.com", tc.opts), tc.want)
	}
	var status int
	var body, url string
	url = livedoctest.Serve(t, map[string]http.HandlerFunc{
		"/.well-known/agent-card.json": func(w http.ResponseWriter, r *http.Request) {
			livedoctest.JSON(`{"capabilities":{"extendedAgentCard":true},"supportedInterfaces":[{"url":"`+url+
				`/a2a","protocolBinding":"HTTP+JSON"}]}`)(w, r)
		},
		"/a2a/extendedAgentCard": func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = w.Write([]byte(body))
		},
	}).URL
	for _, answer := range []struct {
		code       int
		body, want string
	}{
		{http.StatusInternalServerError, "", "GET " + url + "/a2a/extendedAgentCard answered 500 Internal Server Error; expected a 2xx status with the extended agent card"},
		{http.StatusUnauthorized, "", "GET " + url + "/a2a/extendedAgentCard answered 401 Unauthorized: the extended card needs credentials"},
		{http.StatusBadRequest, `{"error":{"status":"UNIMPLEMENTED","message":"no","details":[{"reason":"UNSUPPORTED_OPERATION"}]}}`,
			"GET " + url + `/a2a/extendedAgentCard answered 400 Bad Request, UNSUPPORTED_OPERATION ("no"): the agent does not serve an extended card, though its card declares capabilities.extendedAgentCard`},
	} {
		status, body = answer.code, answer.body
		livedoctest.WantContains(t, extendedErr(t, url, livedoc.ExtendedCardOptions{}), answer.want)
	}
}

// With an OAuth client, the public card is read on the origin of url only: a
// card served after a redirect to another origin could name any
// authorization server (and the interface on url's origin), and the client's
// secret would go there.
func TestFetchExtendedAgentCard_oauthCardNotFollowedToAnotherOrigin(t *testing.T) {
	as := cardAuthServer(t)
	var url string
	other := livedoctest.Serve(t, map[string]http.HandlerFunc{"/card.json": func(w http.ResponseWriter, r *http.Request) {
		livedoctest.JSON(`{"name":"a","description":"d","version":"1","capabilities":{"extendedAgentCard":true},`+
			`"supportedInterfaces":[{"url":"`+url+`/a2a","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}],`+
			`"securitySchemes":{"oauth":{"oauth2SecurityScheme":{"flows":{"clientCredentials":{"tokenUrl":"`+as.Issuer+
			`/token"}}}}},"skills":[]}`)(w, r)
	}}).URL
	url = livedoctest.Serve(t, map[string]http.HandlerFunc{"/.well-known/agent-card.json": func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other+"/card.json", http.StatusTemporaryRedirect)
	}}).URL
	livedoctest.WantContains(t, extendedErr(t, url, livedoc.ExtendedCardOptions{OAuth: reader()}),
		"refusing a redirect to another origin with oauth", "was redirected from "+url+" to "+other)
	if n := len(as.Requests()); n != 0 {
		t.Errorf("%d token requests, want none: the card of another origin chose where the client's secret went", n)
	}
}
