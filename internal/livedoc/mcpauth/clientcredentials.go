package mcpauth

// The client credentials grant (RFC 6749 §4.4) of a confidential client, as
// SEP-1046 describes it for MCP: the client authenticates with its secret
// (client_secret_basic, client_secret_post) or with an assertion signed by its
// private key (private_key_jwt, RFC 7523, clientkey.go). The request is
// golang.org/x/oauth2/clientcredentials'.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// ClientCredentials are the credentials of a confidential client registered
// with the authorization server of a protected MCP server. Exactly one of
// ClientSecret and PrivateKey is set.
type ClientCredentials struct {
	ClientID string
	// ClientSecret authenticates the client with client_secret_basic or
	// client_secret_post, as the server's metadata offers.
	ClientSecret string
	// PrivateKey (PEM or a private JWK; EC, RSA or Ed25519) signs a client
	// assertion: private_key_jwt (RFC 7523).
	PrivateKey string
}

var _ Grant = (*ClientCredentials)(nil)

// Token endpoint authentication methods (RFC 8414 §2, RFC 7523 §2.2).
const (
	methodSecretBasic   = "client_secret_basic"
	methodSecretPost    = "client_secret_post"
	methodPrivateKeyJWT = "private_key_jwt"
	methodNone          = "none"
	// assertionType is the client_assertion_type of a JWT (RFC 7523 §2.2).
	assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
	// assertionLifetime is how long a client assertion is valid: long
	// enough for a clock a little off, short enough to be of no use later.
	assertionLifetime = 5 * time.Minute
	// minRSABits is the smallest RSA key that signs an assertion (NIST SP 800-131A).
	minRSABits = 2048
)

// Labels of the client's secrets in blanked text.
const (
	labelClientSecret = "the client secret"
	labelPrivateKey   = "the private key"
	labelAssertion    = "the client assertion"
)

// Check refuses credentials that cannot authenticate.
func (c *ClientCredentials) Check() error {
	switch {
	case strings.TrimSpace(c.ClientID) == "":
		return errors.New("the OAuth client_id is empty: give the client's identifier at the authorization server")
	case (c.ClientSecret == "") == (c.PrivateKey == ""):
		return errors.New("the OAuth credentials need exactly one of client_secret and private_key")
	case c.PrivateKey == "":
		return nil
	}
	if _, err := parseClientKey(c.PrivateKey); err != nil {
		return fmt.Errorf("the OAuth private_key: %v", err)
	}
	return nil
}

// AddSecrets registers the client secret, and the private key whole and in
// parts (each line of a PEM body, each private member of a JWK), as an error
// may quote a part. An assertion is registered when it is made.
func (c *ClientCredentials) AddSecrets(s *redact.Secrets) {
	s.Add(labelClientSecret, c.ClientSecret)
	s.Add(labelPrivateKey, c.PrivateKey)
	for _, part := range keyParts(c.PrivateKey) {
		s.Add(labelPrivateKey, part)
	}
}

// Authentication picks how the client authenticates at the token endpoint
// (clientAuth.method).
func (c *ClientCredentials) Authentication(meta *oauthex.AuthServerMeta) (string, error) {
	return c.auth().method(meta)
}

// Token asks for a token with the client credentials grant, authenticated by
// r.Method.
func (c *ClientCredentials) Token(ctx context.Context, r *TokenRequest) (*oauth2.Token, error) {
	cfg := &clientcredentials.Config{TokenURL: r.Meta.TokenEndpoint, Scopes: r.Scopes, EndpointParams: r.Params}
	setResource(cfg.EndpointParams, r.Resource)
	if err := c.auth().configure(cfg, r); err != nil {
		return nil, err
	}
	return cfg.Token(context.WithValue(ctx, oauth2.HTTPClient, r.HTTP))
}

func (c *ClientCredentials) auth() clientAuth {
	return clientAuth{id: c.ClientID, secret: c.ClientSecret, key: c.PrivateKey}
}

// clientAuth is how a client authenticates at a token endpoint, whatever
// grant it asks with: by its secret, by an assertion signed with its key,
// or by nothing more than its client_id (a public client).
type clientAuth struct{ id, secret, key string }

// method picks how the client authenticates from the methods the metadata
// offers (client_secret_basic when it names none, RFC 8414 §2). With a
// secret, client_secret_basic, which every server must support (RFC 6749
// §2.3.1), before client_secret_post. With a key, private_key_jwt; a server
// that names no method is asked with it too, and says so with an OAuth
// error if it does not take it. With neither, none.
func (c clientAuth) method(meta *oauthex.AuthServerMeta) (string, error) {
	offered, withKey := meta.TokenEndpointAuthMethodsSupported, c.key != ""
	switch {
	case c.secret == "" && !withKey && (len(offered) == 0 || slices.Contains(offered, methodNone)):
		return methodNone, nil
	case c.secret == "" && !withKey:
		return "", fmt.Errorf("offers only %s at its token endpoint, not none (a client without a secret): give "+
			"client_secret or private_key", strings.Join(offered, ", "))
	case withKey && (len(offered) == 0 || slices.Contains(offered, methodPrivateKeyJWT)):
		return methodPrivateKeyJWT, nil
	case withKey:
		return "", fmt.Errorf("offers only %s at its token endpoint, not private_key_jwt: give client_secret instead of private_key",
			strings.Join(offered, ", "))
	case len(offered) == 0 || slices.Contains(offered, methodSecretBasic):
		return methodSecretBasic, nil
	case slices.Contains(offered, methodSecretPost):
		return methodSecretPost, nil
	}
	return "", fmt.Errorf("offers only %s at its token endpoint, not client_secret_basic or client_secret_post: "+
		"give private_key instead of client_secret", strings.Join(offered, ", "))
}

// configure makes cfg authenticate as the client by r.Method. The style is
// always set: x/oauth2's default tries the header, then the body, which
// would send a refused request a second time.
func (c clientAuth) configure(cfg *clientcredentials.Config, r *TokenRequest) error {
	cfg.ClientID = c.id
	switch r.Method {
	case methodSecretBasic:
		cfg.ClientSecret, cfg.AuthStyle = c.secret, oauth2.AuthStyleInHeader
	case methodSecretPost:
		cfg.ClientSecret, cfg.AuthStyle = c.secret, oauth2.AuthStyleInParams
	case methodNone:
		cfg.AuthStyle = oauth2.AuthStyleInParams // client_id alone, when there is one
	default:
		assertion, err := c.assertion(r.Meta)
		if err != nil {
			return NotSent(err)
		}
		r.Secrets.Add(labelAssertion, assertion)
		cfg.EndpointParams.Set("client_assertion_type", assertionType)
		cfg.EndpointParams.Set("client_assertion", assertion)
		cfg.AuthStyle = oauth2.AuthStyleInParams
	}
	return nil
}

// setResource sets the resource parameter (RFC 8707), when there is one.
func setResource(params url.Values, resource string) {
	if resource != "" {
		params.Set("resource", resource)
	}
}

// assertion is a new client assertion for the authorization server meta
// describes, signed with the private key.
func (c clientAuth) assertion(meta *oauthex.AuthServerMeta) (string, error) {
	k, err := parseClientKey(c.key)
	if err != nil {
		return "", err
	}
	// Its audience is the issuer (RFC 7523bis), or the token endpoint when
	// the server is known by that alone (RFC 7523 §3).
	return k.assertion(c.id, cmp.Or(meta.Issuer, meta.TokenEndpoint), meta.TokenEndpointAuthSigningAlgValuesSupported)
}

// Hint says what to check for the OAuth errors of the client credentials
// grant.
func (c *ClientCredentials) Hint(code string, r *TokenRequest) string {
	switch code {
	case "invalid_client":
		if c.PrivateKey != "" {
			return "check client_id and private_key: the authorization server must hold the public key of this client " +
				"(sent as private_key_jwt, which it offers)"
		}
		return "check client_id and client_secret (sent as " + r.Method + ", which the authorization server offers)"
	case "unauthorized_client", "unsupported_grant_type":
		return "the client may not use the client credentials grant: allow it for the client at the authorization server"
	}
	return ""
}
