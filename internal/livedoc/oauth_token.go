package livedoc

// Step 3 of the OAuth flow (oauth.go): the token request of the client
// credentials grant, through golang.org/x/oauth2/clientcredentials, and the
// one place where a client assertion (private_key_jwt, RFC 7523) is made,
// which neither the SDK nor x/oauth2 does: a JWT signed with go-jose.

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/cardsig"
)

// Token endpoint authentication methods (RFC 8414 §2, RFC 7523 §2.2).
const (
	methodSecretBasic   = "client_secret_basic"
	methodSecretPost    = "client_secret_post"
	methodPrivateKeyJWT = "private_key_jwt"
	// assertionType is the client_assertion_type of a JWT (RFC 7523 §2.2).
	assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
	// assertionLifetime is how long a client assertion is valid: long
	// enough for a clock a little off, short enough to be of no use later.
	assertionLifetime = 5 * time.Minute
	// minRSABits is the smallest RSA key that signs an assertion (NIST SP 800-131A).
	minRSABits = 2048
)

// authMethod picks how the client authenticates at the token endpoint from
// the methods the metadata offers (client_secret_basic when it names none,
// RFC 8414 §2). With a secret, client_secret_basic, which every server must
// support (RFC 6749 §2.3.1), before client_secret_post. With a key,
// private_key_jwt; a server that names no method is asked with it too, and
// says so with an OAuth error if it does not take it.
func authMethod(offered []string, withKey bool) (string, error) {
	switch {
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

// requestToken asks the token endpoint for a token for scopes and the
// server's resource, authenticated by the method discovered.
func (f *oauthFlow) requestToken(ctx context.Context, scopes []string) (*oauth2.Token, error) {
	d := f.found
	cfg := &clientcredentials.Config{ClientID: f.creds.ClientID, TokenURL: d.meta.TokenEndpoint, Scopes: scopes,
		EndpointParams: url.Values{"resource": {d.resource}}}
	if f.creds.Audience != "" {
		cfg.EndpointParams.Set("audience", f.creds.Audience)
	}
	switch d.method {
	case methodSecretBasic:
		cfg.ClientSecret, cfg.AuthStyle = f.creds.ClientSecret, oauth2.AuthStyleInHeader
	case methodSecretPost:
		cfg.ClientSecret, cfg.AuthStyle = f.creds.ClientSecret, oauth2.AuthStyleInParams
	default:
		assertion, err := f.key.assertion(f.creds.ClientID, d.meta.Issuer, d.meta.TokenEndpointAuthSigningAlgValuesSupported)
		if err != nil {
			return nil, stepError(stepToken, "%v", err)
		}
		f.secrets.Add(labelAssertion, assertion)
		cfg.EndpointParams.Set("client_assertion_type", assertionType)
		cfg.EndpointParams.Set("client_assertion", assertion)
		cfg.AuthStyle = oauth2.AuthStyleInParams
	}
	client := &http.Client{Transport: f.client.Transport, CheckRedirect: f.refuseTokenRedirect}
	tok, err := cfg.Token(context.WithValue(ctx, oauth2.HTTPClient, client))
	if err != nil {
		return nil, f.tokenError(err)
	}
	f.secrets.Add(labelAccessToken, tok.AccessToken)
	if tok.TokenType != "" && !strings.EqualFold(tok.TokenType, "bearer") {
		return nil, stepError(stepToken, "the token endpoint %s issued a token of type %q: only Bearer tokens (RFC 6750) are used",
			quoteURL(f, d.meta.TokenEndpoint), excerpt(f.secrets, tok.TokenType, maxArgRunes))
	}
	return tok, nil
}

// refuseTokenRedirect is the redirect policy of a token request: none is
// followed, since the request carries the client's credentials (a
// client_secret_post body or an assertion would be sent again to wherever the
// redirect leads).
func (f *oauthFlow) refuseTokenRedirect(req *http.Request, via []*http.Request) error {
	status := "a redirect"
	if req.Response != nil {
		status = req.Response.Status
	}
	return &refusal{fmt.Sprintf("the token endpoint %s answered %s to %s: refused, token requests follow no redirect (they "+
		"carry the client's credentials); check the token_endpoint of the authorization server %s",
		quoteURL(f, via[0].URL.String()), status, quoteURL(f, req.URL.String()), quoteURL(f, f.found.issuer))}
}

// tokenError explains a failed token request: the OAuth error the endpoint
// answered (RFC 6749 §5.2), with what to check, or why there was none.
func (f *oauthFlow) tokenError(err error) error {
	endpoint := quoteURL(f, f.found.meta.TokenEndpoint)
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) {
		return stepError(stepToken, "%v", transportError(f.parent, err, endpoint, f.timeout))
	}
	if re.ErrorCode == "" {
		return stepError(stepToken, "the token endpoint %s answered %s with no OAuth error, and a body starting %q; check the "+
			"token_endpoint of the authorization server %s", endpoint, re.Response.Status, start(f.secrets, re.Body),
			quoteURL(f, f.found.issuer))
	}
	msg := fmt.Sprintf("the token endpoint %s answered %s with OAuth error %q", endpoint, re.Response.Status,
		excerpt(f.secrets, re.ErrorCode, maxArgRunes))
	if re.ErrorDescription != "" {
		msg += fmt.Sprintf(": %q", excerpt(f.secrets, re.ErrorDescription, maxQuotedRunes))
	}
	return stepError(stepToken, "%s; %s", msg, f.tokenHint(re.ErrorCode))
}

// tokenHint says what to check for an OAuth error of the token endpoint.
func (f *oauthFlow) tokenHint(code string) string {
	switch code {
	case "invalid_client":
		if f.key != nil {
			return "check client_id and private_key: the authorization server must hold the public key of this client " +
				"(sent as private_key_jwt, which it offers)"
		}
		return "check client_id and client_secret (sent as " + f.found.method + ", which the authorization server offers)"
	case "invalid_scope":
		return "check scopes: the authorization server does not grant the client these scopes"
	case "unauthorized_client", "unsupported_grant_type":
		return "the client may not use the client credentials grant: allow it for the client at the authorization server"
	case "invalid_target":
		return "the authorization server does not issue tokens for the resource " + excerpt(f.secrets, f.found.resource, maxArgRunes) +
			" (RFC 8707), which the MCP server's protected resource metadata names"
	}
	return "check the client's registration at the authorization server"
}

// CheckPrivateKey says why a private key cannot sign client assertions
// (nil when it can), for a validator at plan time; it never quotes the key.
func CheckPrivateKey(text string) error {
	_, err := parseClientKey(text)
	return err
}

// clientKey is the private key of private_key_jwt, with the algorithms it
// can sign with, the preferred first.
type clientKey struct {
	signer crypto.Signer
	kid    string // the JWK's kid: the authorization server may look the key up by it
	kind   string // "an EC P-256 key", for messages
	algs   []jose.SignatureAlgorithm
}

// parseClientKey reads a PEM or JWK private key: EC P-256, P-384 or P-521,
// RSA of 2048 bits or more, or Ed25519. Messages never show key material.
func parseClientKey(text string) (*clientKey, error) {
	pk, err := cardsig.ReadPrivateKey([]byte(text))
	if err != nil {
		return nil, err
	}
	k := &clientKey{signer: pk.Signer, kid: pk.KeyID}
	switch key := pk.Signer.(type) {
	case *ecdsa.PrivateKey:
		alg, ok := map[elliptic.Curve]jose.SignatureAlgorithm{elliptic.P256(): jose.ES256, elliptic.P384(): jose.ES384,
			elliptic.P521(): jose.ES512}[key.Curve]
		if !ok {
			return nil, fmt.Errorf("the EC key is on %s: expected P-256, P-384 or P-521", key.Curve.Params().Name)
		}
		k.kind, k.algs = "an EC "+key.Curve.Params().Name+" key", []jose.SignatureAlgorithm{alg}
	case ed25519.PrivateKey:
		k.kind, k.algs = "an Ed25519 key", []jose.SignatureAlgorithm{jose.EdDSA}
	case *rsa.PrivateKey:
		if key.N.BitLen() < minRSABits {
			return nil, fmt.Errorf("the RSA key has %d bits: at least %d bits are required", key.N.BitLen(), minRSABits)
		}
		k.kind, k.algs = "an RSA key", []jose.SignatureAlgorithm{jose.RS256, jose.PS256}
	default:
		return nil, fmt.Errorf("a %T key cannot sign a client assertion: expected EC, RSA or Ed25519", pk.Signer)
	}
	if pk.Algorithm != "" {
		alg := jose.SignatureAlgorithm(pk.Algorithm)
		if !slices.Contains(k.algs, alg) {
			return nil, fmt.Errorf("the JWK says \"alg\": %q, but %s signs with %s", pk.Algorithm, k.kind, joinAlgs(k.algs))
		}
		k.algs = []jose.SignatureAlgorithm{alg}
	}
	return k, nil
}

func joinAlgs(algs []jose.SignatureAlgorithm) string {
	s := make([]string, len(algs))
	for i, a := range algs {
		s[i] = string(a)
	}
	return strings.Join(s, " or ")
}

// algorithm is the first of the key's algorithms the server accepts (any,
// when its metadata names none).
func (k *clientKey) algorithm(accepted []string) (jose.SignatureAlgorithm, error) {
	for _, a := range k.algs {
		if len(accepted) == 0 || slices.Contains(accepted, string(a)) {
			return a, nil
		}
	}
	return "", fmt.Errorf("the authorization server accepts client assertions signed with %s; %s signs with %s: give a "+
		"key of a type it accepts", strings.Join(accepted, ", "), k.kind, joinAlgs(k.algs))
}

// assertion is a client assertion for the authorization server audience
// (its issuer, as RFC 7523bis asks): iss and sub the client, a jti never
// used again, valid for assertionLifetime.
func (k *clientKey) assertion(clientID, audience string, accepted []string) (string, error) {
	alg, err := k.algorithm(accepted)
	if err != nil {
		return "", err
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: jose.JSONWebKey{Key: k.signer, KeyID: k.kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", fmt.Errorf("cannot sign a client assertion with %s: %v", k.kind, err)
	}
	jti := make([]byte, 16)
	if _, err := rand.Read(jti); err != nil {
		return "", err
	}
	now := time.Now()
	return jwt.Signed(signer).Claims(jwt.Claims{Issuer: clientID, Subject: clientID, Audience: jwt.Audience{audience},
		ID: base64.RawURLEncoding.EncodeToString(jti), IssuedAt: jwt.NewNumericDate(now),
		Expiry: jwt.NewNumericDate(now.Add(assertionLifetime))}).Serialize()
}

// keyParts are the parts of a private key an error could quote alone: each
// line of a PEM body, each private member of a JWK.
func keyParts(text string) []string {
	var parts []string
	if strings.Contains(text, "-----BEGIN") { // PEM, read or not
		for _, line := range strings.Split(text, "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "-----") && !strings.Contains(line, ":") {
				parts = append(parts, line)
			}
		}
		return parts
	}
	var jwk map[string]any
	if json.Unmarshal([]byte(text), &jwk) == nil {
		for _, member := range []string{"d", "p", "q", "dp", "dq", "qi", "k"} {
			if v, ok := jwk[member].(string); ok {
				parts = append(parts, v)
			}
		}
	}
	return parts
}
