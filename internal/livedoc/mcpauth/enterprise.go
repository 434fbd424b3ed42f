package mcpauth

// Enterprise-managed authorization (SEP-990): the enterprise's identity
// provider, where the user signed in, exchanges the user's ID token for an
// identity assertion for the MCP server's authorization server (an ID-JAG,
// by an RFC 8693 token exchange), which the client presents there as a
// jwt-bearer grant (RFC 7523), authenticated as itself.
//
// The exchange is the MCP Go SDK's oauthex.ExchangeToken: x/oauth2 has no
// token exchange (RFC 8693) request, and the SDK's is x/oauth2's request
// with the exchange's parameters. Its extauth.EnterpriseHandler is not used:
// it reads both servers' metadata with the SDK's discovery (which the flow
// replaces, discovery.go), sends no resource to the authorization server,
// and authenticates the client in the request body only, where SEP-990's
// servers may ask for client_secret_basic.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/quote"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// IdentityProvider is the enterprise's identity provider, and the client
// registered there.
type IdentityProvider struct {
	// Issuer is its issuer identifier: its token endpoint is read from its
	// metadata (RFC 8414, else OpenID Connect discovery) when TokenEndpoint
	// is not given.
	Issuer        string
	TokenEndpoint string
	// ClientID and ClientSecret are the client's at the identity provider
	// (the secret, when there is one, sent in the request body).
	ClientID     string
	ClientSecret string
	// IDToken is the user's ID token, issued by it to ClientID.
	IDToken string
}

// EnterpriseManaged is a client whose tokens an enterprise's identity
// provider vouches for.
type EnterpriseManaged struct {
	// Client is the client at the authorization server: its ClientID, and
	// its ClientSecret or PrivateKey when it has either (without, it is a
	// public client).
	Client ClientCredentials
	IdP    IdentityProvider
}

var _ Grant = (*EnterpriseManaged)(nil)

// Labels of the enterprise client's secrets in blanked text.
const (
	labelIDToken   = "the ID token"
	labelIDJAG     = "the identity assertion (ID-JAG)"
	labelIdPSecret = "the identity provider's client secret"
)

// Check refuses an enterprise client that cannot ask.
func (e *EnterpriseManaged) Check() error {
	c, idp := e.Client, e.IdP
	switch {
	case strings.TrimSpace(c.ClientID) == "":
		return errors.New("the OAuth client_id is empty: give the client's identifier at the authorization server")
	case c.ClientSecret != "" && c.PrivateKey != "":
		return errors.New("the OAuth credentials take at most one of client_secret and private_key beside identity_provider")
	case strings.TrimSpace(idp.ClientID) == "":
		return errors.New("the OAuth identity_provider's client_id is empty: give the client's identifier at the identity provider")
	case idp.IDToken == "":
		return errors.New("the OAuth identity_provider's id_token is empty: give the user's ID token")
	case idp.Issuer == "" && idp.TokenEndpoint == "":
		return errors.New("the OAuth identity_provider needs its issuer or its token_endpoint")
	case idp.TokenEndpoint != "":
		if err := secureURL(idp.TokenEndpoint); err != nil {
			return fmt.Errorf("the OAuth identity_provider's token_endpoint %s", err)
		}
	}
	if c.PrivateKey != "" {
		if _, err := parseClientKey(c.PrivateKey); err != nil {
			return fmt.Errorf("the OAuth private_key: %v", err)
		}
	}
	return nil
}

// AddSecrets registers the client's secrets at both servers and the ID
// token (the identity assertion is registered when issued).
func (e *EnterpriseManaged) AddSecrets(s *redact.Secrets) {
	e.Client.AddSecrets(s)
	s.Add(labelIdPSecret, e.IdP.ClientSecret)
	addJWT(s, labelIDToken, e.IdP.IDToken)
}

// Authentication refuses an authorization server that does not take the
// jwt-bearer grant, and picks how the client authenticates there.
func (e *EnterpriseManaged) Authentication(meta *oauthex.AuthServerMeta) (string, error) {
	if err := offersJWTBearer(meta); err != nil {
		return "", err
	}
	return e.Client.auth().method(meta)
}

// Token exchanges the ID token for an identity assertion for the
// authorization server and the resource, then presents it there.
func (e *EnterpriseManaged) Token(ctx context.Context, r *TokenRequest) (*oauth2.Token, error) {
	if r.Meta.Issuer == "" {
		return nil, NotSent(fmt.Errorf("the authorization server is known by its token endpoint %s alone, with no "+
			"issuer: an identity assertion is made for an issuer; the server's metadata must be named",
			quote.URL(r.Secrets, r.Meta.TokenEndpoint)))
	}
	endpoint, err := e.tokenEndpoint(ctx, r)
	if err != nil {
		return nil, err
	}
	var creds *oauthex.ClientCredentials
	if e.IdP.ClientSecret != "" {
		creds = &oauthex.ClientCredentials{ClientID: e.IdP.ClientID,
			ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: e.IdP.ClientSecret}}
	} else {
		creds = &oauthex.ClientCredentials{ClientID: e.IdP.ClientID}
	}
	jag, err := oauthex.ExchangeToken(ctx, endpoint, &oauthex.TokenExchangeRequest{
		RequestedTokenType: oauthex.TokenTypeIDJAG, Audience: r.Meta.Issuer, Resource: r.Resource, Scope: r.Scopes,
		SubjectToken: e.IdP.IDToken, SubjectTokenType: oauthex.TokenTypeIDToken}, creds, r.HTTP)
	if err != nil {
		return nil, &idpError{endpoint: endpoint, err: err}
	}
	addJWT(r.Secrets, labelIDJAG, jag.AccessToken)
	if issued, _ := jag.Extra("issued_token_type").(string); issued != oauthex.TokenTypeIDJAG {
		return nil, NotSent(fmt.Errorf("the identity provider's token endpoint %s issued a token of type %q, not an "+
			"identity assertion (%s)", quote.URL(r.Secrets, endpoint), quote.Excerpt(r.Secrets, issued, quote.MaxArgRunes),
			oauthex.TokenTypeIDJAG))
	}
	return jwtBearer(ctx, r, e.Client.auth(), jag.AccessToken)
}

// tokenEndpoint is the identity provider's token endpoint: the one given,
// else its metadata's.
func (e *EnterpriseManaged) tokenEndpoint(ctx context.Context, r *TokenRequest) (string, error) {
	if e.IdP.TokenEndpoint != "" {
		return e.IdP.TokenEndpoint, nil
	}
	meta, err := r.ServerMetadata(ctx, e.IdP.Issuer)
	if err != nil {
		return "", err
	}
	return meta.TokenEndpoint, nil
}

// Hint says what to check when the authorization server refuses the
// identity assertion, or the client.
func (e *EnterpriseManaged) Hint(code string, r *TokenRequest) string {
	switch code {
	case "invalid_grant":
		return "the authorization server refused the identity assertion the identity provider issued: check that it " +
			"trusts the identity provider " + cmp.Or(e.IdP.Issuer, e.IdP.TokenEndpoint) + " for the client " + e.Client.ClientID + " and the resource " + r.Resource
	case "invalid_client":
		return "check client_id and the client's secret or key at the authorization server (sent as " + r.Method + ")"
	case "unauthorized_client", "unsupported_grant_type":
		return "the authorization server does not let the client use identity assertions (the jwt-bearer grant): " +
			"allow it at the authorization server"
	}
	return ""
}
