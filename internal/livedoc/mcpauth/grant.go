package mcpauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/httpclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/quote"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// Grant is how a client gets its token at the authorization server: what it
// proves (a client secret, an assertion it signs; a workload's token, an
// identity assertion exchanged at an enterprise's identity provider) and the
// grant type it asks with. The flow finds the server and decides the
// scopes and the resource; a Grant asks. ClientCredentials (SEP-1046),
// WorkloadIdentity (SEP-1933) and EnterpriseManaged (SEP-990) are the grants
// of this package.
type Grant interface {
	// Check refuses credentials that cannot work, before any request.
	Check() error
	// AddSecrets registers the values the grant holds that no message may
	// show.
	AddSecrets(*redact.Secrets)
	// Authentication chooses, from the authorization server's metadata, how
	// the client authenticates at its token endpoint. Its error refuses the
	// server before any token request: it completes "the authorization
	// server <issuer> ...", saying what the server offers and what to give
	// instead.
	Authentication(meta *oauthex.AuthServerMeta) (string, error)
	// Token asks the token endpoint for a token. Its error is what the
	// endpoint answered (*oauth2.RetrieveError), an error of the exchange,
	// or NotSent's when it sent nothing.
	Token(ctx context.Context, r *TokenRequest) (*oauth2.Token, error)
	// Hint says what to check when the token endpoint answers the OAuth error
	// code, "" when the grant has nothing to say of it.
	Hint(code string, r *TokenRequest) string
}

// TokenRequest is what a grant asks for, and how.
type TokenRequest struct {
	// Meta is the authorization server's metadata: its issuer, its token
	// endpoint, the algorithms it accepts.
	Meta *oauthex.AuthServerMeta
	// Method is the client's authentication, as the grant's Authentication
	// chose it.
	Method string
	// Resource is the protected resource metadata's resource (RFC 8707).
	Resource string
	Scopes   []string
	// Params are sent too (audience).
	Params url.Values
	// HTTP is the client of the token request: the read's, following no
	// redirect (a token request carries the client's credentials).
	HTTP *http.Client
	// Secrets registers what the grant makes and sends (an assertion) before
	// it is sent.
	Secrets *redact.Secrets
	// ServerMetadata reads the metadata of another server a grant asks (an
	// identity provider), as the flow reads the authorization server's:
	// checked, guarded and bounded; its error is the flow's own.
	ServerMetadata func(ctx context.Context, issuer string) (*oauthex.AuthServerMeta, error)
}

// idpError is the failure of a request to an identity provider's token
// endpoint (EnterpriseManaged's token exchange), told from the
// authorization server's in messages.
type idpError struct {
	endpoint string
	err      error
}

func (e *idpError) Error() string { return e.err.Error() }
func (e *idpError) Unwrap() error { return e.err }

// notSent is an error of a grant that sent no request.
type notSent struct{ error }

func (e notSent) Unwrap() error { return e.error }

// NotSent marks err as the reason a grant sent no token request (it could
// not sign an assertion, say): the flow shows it as it is.
func NotSent(err error) error { return notSent{err} }

// Labels of the secrets of the flow in blanked text.
const labelAccessToken = "the access token"

// requestToken asks the grant for a token for scopes and the server's
// resource, authenticated as discovered.
func (f *Flow) requestToken(ctx context.Context, scopes []string) (*oauth2.Token, error) {
	d := f.found
	r := &TokenRequest{Meta: d.meta, Method: d.method, Resource: d.resource, Scopes: scopes, Params: url.Values{},
		HTTP: &http.Client{Transport: f.HTTP.Transport, CheckRedirect: f.refuseTokenRedirect}, Secrets: f.Secrets,
		ServerMetadata: f.serverMetadata}
	if f.Client.Audience != "" {
		r.Params.Set("audience", f.Client.Audience)
	}
	tok, err := f.Client.Grant.Token(ctx, r)
	if err != nil {
		return nil, f.tokenError(err, r)
	}
	f.Secrets.Add(labelAccessToken, tok.AccessToken)
	if tok.TokenType != "" && !strings.EqualFold(tok.TokenType, "bearer") {
		return nil, failed(stepToken, "the token endpoint %s issued a token of type %q: only Bearer tokens (RFC 6750) are used",
			quote.URL(f.Secrets, d.meta.TokenEndpoint), quote.Excerpt(f.Secrets, tok.TokenType, quote.MaxArgRunes))
	}
	return tok, nil
}

// refuseTokenRedirect is the redirect policy of a token request: none is
// followed, since the request carries the client's credentials (a
// client_secret_post body or an assertion would be sent again to wherever the
// redirect leads).
func (f *Flow) refuseTokenRedirect(req *http.Request, via []*http.Request) error {
	status := "a redirect"
	if req.Response != nil {
		status = req.Response.Status
	}
	return httpclient.Refuse(fmt.Sprintf("the token endpoint %s answered %s to %s: refused, token requests follow no "+
		"redirect (they carry the client's credentials); check that token endpoint (the authorization server is %s)",
		quote.URL(f.Secrets, via[0].URL.String()), status, quote.URL(f.Secrets, req.URL.String()), quote.URL(f.Secrets, f.found.issuer)))
}

// tokenEndpoint is a token endpoint as messages name it.
type tokenEndpoint struct {
	step  step
	name  string // "the token endpoint"
	url   string
	check string // what to check when it answers no OAuth error
	hint  func(code string, r *TokenRequest) string
}

// tokenError explains a failed token request: the OAuth error the endpoint
// answered (RFC 6749 §5.2), with what to check, or why there was none. A
// grant's failure of another step (the metadata of an identity provider) is
// shown as it is.
func (f *Flow) tokenError(err error, r *TokenRequest) error {
	var se *stepError
	if errors.As(err, &se) {
		return se
	}
	var ns notSent
	if errors.As(err, &ns) {
		return failed(stepToken, "%v", ns.error)
	}
	at := tokenEndpoint{step: stepToken, name: "the token endpoint", url: f.found.meta.TokenEndpoint,
		check: "the token_endpoint of the authorization server " + quote.URL(f.Secrets, f.found.issuer), hint: f.tokenHint}
	var idp *idpError
	if errors.As(err, &idp) {
		at = tokenEndpoint{step: stepExchange, name: "the identity provider's token endpoint", url: idp.endpoint,
			check: "identity_provider's token_endpoint (or its issuer)", hint: f.exchangeHint}
	}
	endpoint := quote.URL(f.Secrets, at.url)
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) {
		return failed(at.step, "%v", httpclient.TransportError(f.Parent, err, endpoint, f.Timeout))
	}
	if re.ErrorCode == "" {
		return failed(at.step, "%s %s answered %s with no OAuth error, and a body starting %q; check %s", at.name, endpoint,
			re.Response.Status, quote.Start(f.Secrets, re.Body), at.check)
	}
	msg := fmt.Sprintf("%s %s answered %s with OAuth error %q", at.name, endpoint, re.Response.Status,
		quote.Excerpt(f.Secrets, re.ErrorCode, quote.MaxArgRunes))
	if re.ErrorDescription != "" {
		msg += fmt.Sprintf(": %q", quote.Excerpt(f.Secrets, re.ErrorDescription, quote.MaxRunes))
	}
	return failed(at.step, "%s; %s", msg, at.hint(re.ErrorCode, r))
}

// tokenHint says what to check for an OAuth error of the token endpoint:
// the grant's hint, else what holds for every grant.
func (f *Flow) tokenHint(code string, r *TokenRequest) string {
	if hint := f.Client.Grant.Hint(code, r); hint != "" {
		return hint
	}
	switch code {
	case "invalid_scope":
		return "check scopes: the authorization server does not grant the client these scopes"
	case "invalid_target":
		return "the authorization server does not issue tokens for the resource " + quote.Excerpt(f.Secrets, r.Resource, quote.MaxArgRunes) +
			" (RFC 8707), which the MCP server's protected resource metadata names"
	}
	return "check the client's registration at the authorization server"
}

// exchangeHint says what to check for an OAuth error of an identity
// provider's token endpoint, asked to exchange an ID token (RFC 8693).
func (f *Flow) exchangeHint(code string, r *TokenRequest) string {
	switch code {
	case "invalid_grant":
		return "the identity provider refused the ID token: give a fresh id_token, issued by it to identity_provider's client_id"
	case "invalid_client", "unauthorized_client":
		return "check identity_provider's client_id and client_secret: the identity provider must know the client and " +
			"allow it the token exchange"
	case "invalid_target", "invalid_request":
		return "the identity provider does not issue identity assertions (ID-JAG) for the authorization server " +
			quote.URL(f.Secrets, r.Meta.Issuer) + " and the resource " + quote.Excerpt(f.Secrets, r.Resource, quote.MaxArgRunes) +
			": check that the enterprise has connected them"
	}
	return "check the client's registration at the identity provider"
}
