package livedoctest

// The parties of the two grants in which a client proves itself with a token
// someone else issued, for the tests of the flow (mcpauth) and the
// provider's: a workload's identity provider (a CI runner's or a
// cluster's), whose tokens an authorization server takes as jwt-bearer
// grants (SEP-1933), and an enterprise's identity provider, which exchanges
// a user's ID token for an identity assertion (ID-JAG, RFC 8693) that an
// authorization server takes as a jwt-bearer grant (SEP-990).

import (
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// Token types and the token exchange grant (RFC 8693, SEP-990).
const (
	GrantTokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
	TokenTypeIDToken   = "urn:ietf:params:oauth:token-type:id_token"
	TokenTypeIDJAG     = "urn:ietf:params:oauth:token-type:id-jag"
	// typIDJAG is the JOSE type of an identity assertion.
	typIDJAG = "oauth-id-jag+jwt"
)

// Issuer signs JWTs (ES256) as an identity provider does.
type Issuer struct {
	// URL is its iss.
	URL string
	key *ecdsa.PrivateKey
}

// NewIssuer is an issuer named url.
func NewIssuer(t testing.TB, url string) *Issuer {
	t.Helper()
	key, _ := NewECKey(t)
	return &Issuer{URL: url, key: key}
}

// Sign is a JWT of the issuer with the JOSE type typ, the claims given and
// iss, iat and, unless claims set it, exp an hour from now.
func (i *Issuer) Sign(t testing.TB, typ string, claims map[string]any) string {
	t.Helper()
	tok, err := i.sign(typ, claims)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func (i *Issuer) sign(typ string, claims map[string]any) (string, error) {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: i.key}, (&jose.SignerOptions{}).WithType(jose.ContentType(typ)))
	if err != nil {
		return "", err
	}
	all := map[string]any{"iss": i.URL, "iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix(), "jti": random()}
	for k, v := range claims {
		all[k] = v
	}
	return jwt.Signed(signer).Claims(all).Serialize()
}

// WorkloadToken is a workload's token for the audience aud, valid for
// lifetime (negative: expired that long ago), as a CI runner or a cluster
// writes it for the workload.
func (i *Issuer) WorkloadToken(t testing.TB, aud string, lifetime time.Duration) string {
	t.Helper()
	return i.Sign(t, "JWT", map[string]any{"sub": "repo:example/fleet:ref:refs/heads/main", "aud": aud,
		"exp": time.Now().Add(lifetime).Unix()})
}

// verify checks token's signature and type, and decodes its claims.
func (i *Issuer) verify(token, typ string) (map[string]any, error) {
	tok, err := jwt.ParseSigned(token, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		return nil, err
	}
	if got, _ := tok.Headers[0].ExtraHeaders["typ"].(string); !strings.EqualFold(got, typ) {
		return nil, fmt.Errorf("typ %q, want %q", got, typ)
	}
	var claims map[string]any
	if err := tok.Claims(&i.key.PublicKey, &claims); err != nil {
		return nil, err
	}
	return claims, nil
}

// checkClaims checks iss, aud and exp as RFC 7523 §3 asks.
func (i *Issuer) checkClaims(claims map[string]any, aud string) error {
	var c jwt.Claims
	raw, _ := json.Marshal(claims) // claims decoded from JSON encode again
	if err := json.Unmarshal(raw, &c); err != nil {
		return err
	}
	return c.ValidateWithLeeway(jwt.Expected{Issuer: i.URL, AnyAudience: jwt.Audience{aud, aud + "/"}}, 5*time.Second)
}

// TrustWorkloads is an AuthServerConfig.CheckAssertion that takes the
// workload tokens of i whose aud is the authorization server, and refuses
// others with invalid_grant.
func (i *Issuer) TrustWorkloads(a *AuthServer, assertion string, _ *TokenRequest) (code, description string) {
	claims, err := i.verify(assertion, "JWT")
	if err == nil {
		err = i.checkClaims(claims, a.Issuer)
	}
	if err != nil {
		return "invalid_grant", "the assertion is refused: " + err.Error()
	}
	return "", ""
}

// IdentityProvider is an enterprise's identity provider that exchanges the
// ID tokens it issued for identity assertions (ID-JAG) by RFC 8693, as
// SEP-990 describes: its token endpoint is /token, its OpenID metadata at
// the well-known URL of its issuer.
type IdentityProvider struct {
	*httptest.Server
	// Tokens signs its ID tokens and assertions; its URL is the server's.
	Tokens *Issuer
	// ClientID is the client the enterprise registered at it (its ID
	// tokens are for it); Secret, when set, must authenticate it
	// (client_secret_post).
	ClientID, Secret string
	// ResourceClientID is the client_id the identity assertions name: the
	// client's id at the authorization server.
	ResourceClientID string

	mu        sync.Mutex
	exchanges []url.Values
}

// NewIdentityProvider starts an identity provider for the client clientID
// that names resourceClientID in its assertions; it stops when the test ends.
func NewIdentityProvider(t testing.TB, clientID, resourceClientID string) *IdentityProvider {
	t.Helper()
	p := &IdentityProvider{ClientID: clientID, ResourceClientID: resourceClientID}
	mux := http.NewServeMux()
	p.Server = httptest.NewServer(mux)
	t.Cleanup(p.Close)
	p.Tokens = NewIssuer(t, p.URL)
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": p.URL, "token_endpoint": p.URL + "/token",
			"grant_types_supported": []string{GrantTokenExchange}})
	})
	mux.HandleFunc("POST /token", p.exchange)
	return p
}

// IDToken is an ID token it issued to the client for a user.
func (p *IdentityProvider) IDToken(t testing.TB) string {
	t.Helper()
	return p.Tokens.Sign(t, "JWT", map[string]any{"sub": "ada@example.com", "aud": p.ClientID})
}

// Exchanges are the forms of the token exchange requests received, in order.
func (p *IdentityProvider) Exchanges() []url.Values {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.exchanges)
}

func (p *IdentityProvider) exchange(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	f := r.PostForm
	p.mu.Lock()
	p.exchanges = append(p.exchanges, f)
	p.mu.Unlock()
	if code, description := p.refusal(f); code != "" {
		oauthError(w, http.StatusBadRequest, code, description)
		return
	}
	claims, _ := p.Tokens.verify(f.Get("subject_token"), "JWT") // verified by refusal
	jag, err := p.Tokens.sign(typIDJAG, map[string]any{"sub": claims["sub"], "aud": f.Get("audience"),
		"resource": f.Get("resource"), "client_id": p.ResourceClientID, "scope": f.Get("scope"),
		"exp": time.Now().Add(5 * time.Minute).Unix()})
	if err != nil {
		oauthError(w, http.StatusInternalServerError, "server_error", err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"access_token": jag, "issued_token_type": TokenTypeIDJAG,
		"token_type": "N_A", "expires_in": 300})
}

// refusal is the OAuth error of a token exchange request, "" when it is
// granted.
func (p *IdentityProvider) refusal(f url.Values) (code, description string) {
	get := func(k string) string { // a parameter given twice is no parameter (RFC 6749 §3.2)
		if len(f[k]) != 1 {
			return ""
		}
		return f[k][0]
	}
	switch {
	case get("client_id") != p.ClientID || (p.Secret != "" && get("client_secret") != p.Secret):
		return "invalid_client", "unknown client or wrong secret"
	case get("grant_type") != GrantTokenExchange:
		return "unsupported_grant_type", "only token exchange"
	case get("subject_token_type") != TokenTypeIDToken || get("requested_token_type") != TokenTypeIDJAG:
		return "invalid_request", "an ID token is exchanged for an ID-JAG only"
	case get("audience") == "" || get("resource") == "":
		return "invalid_request", "audience and resource are required"
	}
	claims, err := p.Tokens.verify(get("subject_token"), "JWT")
	if err == nil {
		err = p.Tokens.checkClaims(claims, p.ClientID)
	}
	if err != nil {
		return "invalid_grant", "the ID token is refused: " + err.Error()
	}
	return "", ""
}

// TrustAssertions is an AuthServerConfig.CheckAssertion that takes the
// identity assertions of p for the authorization server, as SEP-990 asks:
// typ oauth-id-jag+jwt, signed by p, aud the server's issuer, client_id the
// client that authenticated, resource the one given.
func (p *IdentityProvider) TrustAssertions(resource string) func(*AuthServer, string, *TokenRequest) (string, string) {
	return func(a *AuthServer, assertion string, req *TokenRequest) (code, description string) {
		claims, err := p.Tokens.verify(assertion, typIDJAG)
		if err == nil {
			err = p.Tokens.checkClaims(claims, a.Issuer)
		}
		switch {
		case err != nil:
			return "invalid_grant", "the identity assertion is refused: " + err.Error()
		case claims["client_id"] != req.ClientID:
			return "invalid_grant", fmt.Sprintf("the identity assertion is for the client %v, not %s", claims["client_id"], req.ClientID)
		case claims["resource"] != resource:
			return "invalid_grant", fmt.Sprintf("the identity assertion is for the resource %v, not %s", claims["resource"], resource)
		}
		return "", ""
	}
}
