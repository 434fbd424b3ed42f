package mcpauth

// Workload identity federation for MCP (SEP-1933): the client has no secret;
// it presents the token its platform issued to the workload (a GitHub
// Actions or GitLab OIDC token, a Kubernetes service account token, a SPIFFE
// JWT-SVID) as a jwt-bearer authorization grant (RFC 7523 §2.1), which the
// authorization server trusts by its issuer.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/secretfile"
)

// grantJWTBearer is the grant type of an assertion (RFC 7523 §2.1).
const grantJWTBearer = "urn:ietf:params:oauth:grant-type:jwt-bearer"

// Labels of a workload's token in blanked text.
const labelWorkloadToken = "the workload's token"

// WorkloadIdentity is a workload that proves who it is by a token its
// platform issued. Exactly one of Assertion and AssertionFile is set.
type WorkloadIdentity struct {
	// ClientID, when set, is sent as client_id: an authorization server
	// that maps workloads to registered clients asks for it.
	ClientID string
	// Assertion is the token.
	Assertion string
	// AssertionFile is the path of a file holding the token, read at each
	// token request: platforms rotate the token in place (a projected
	// Kubernetes token every hour, say).
	AssertionFile string
}

var _ Grant = (*WorkloadIdentity)(nil)

// Check refuses a workload with no token, or two, and a token file that
// cannot be read as one.
func (w *WorkloadIdentity) Check() error {
	switch {
	case (w.Assertion == "") == (w.AssertionFile == ""):
		return errors.New("the OAuth workload identity needs exactly one of assertion and assertion_file")
	case w.AssertionFile != "":
		if err := secretfile.Check(w.AssertionFile); err != nil {
			return fmt.Errorf("the OAuth assertion_file: %v", err)
		}
	}
	return nil
}

// AddSecrets registers the token given (one read from a file is registered
// when read).
func (w *WorkloadIdentity) AddSecrets(s *redact.Secrets) { addJWT(s, labelWorkloadToken, w.Assertion) }

// addJWT registers a JWT, and its signature alone (what follows its last
// dot; the whole token when it has none): with it the token can be used, and
// an error may quote it alone.
func addJWT(s *redact.Secrets, label, token string) {
	s.Add(label, token)
	s.Add(label, token[strings.LastIndexByte(token, '.')+1:])
}

// Authentication refuses an authorization server that lists its grant types
// without jwt-bearer (the token is not sent where it is not taken). The
// client authenticates by nothing more than the token (and its client_id,
// when given): the assertion is the grant, not a client secret.
func (w *WorkloadIdentity) Authentication(meta *oauthex.AuthServerMeta) (string, error) {
	if err := offersJWTBearer(meta); err != nil {
		return "", err
	}
	return methodNone, nil
}

// offersJWTBearer refuses metadata that lists grant types without jwt-bearer.
func offersJWTBearer(meta *oauthex.AuthServerMeta) error {
	if g := meta.GrantTypesSupported; len(g) > 0 && !slices.Contains(g, grantJWTBearer) {
		return fmt.Errorf("does not take the jwt-bearer grant (RFC 7523), which the client's assertion needs: its "+
			"grant_types_supported are %s", strings.Join(g, ", "))
	}
	return nil
}

// Token presents the workload's token, read now, as a jwt-bearer grant.
func (w *WorkloadIdentity) Token(ctx context.Context, r *TokenRequest) (*oauth2.Token, error) {
	assertion, err := w.assertion(ctx, r.Secrets)
	if err != nil {
		return nil, NotSent(err)
	}
	return jwtBearer(ctx, r, clientAuth{id: w.ClientID}, assertion)
}

// assertion is the token given, or read from AssertionFile within the
// read's deadline, registered as a secret before it goes anywhere.
func (w *WorkloadIdentity) assertion(ctx context.Context, s *redact.Secrets) (string, error) {
	if w.AssertionFile == "" {
		return w.Assertion, nil
	}
	limit := time.Minute
	if deadline, ok := ctx.Deadline(); ok {
		limit = max(time.Until(deadline), time.Millisecond)
	}
	content, err := secretfile.Read(w.AssertionFile, limit)
	if err != nil {
		return "", fmt.Errorf("the OAuth assertion_file: %v", err)
	}
	token := strings.TrimSpace(string(content)) // platforms end the file with a line break, or not
	addJWT(s, labelWorkloadToken, token)
	if token == "" {
		return "", fmt.Errorf("the OAuth assertion_file %s is empty: the platform has not written the workload's token (yet)",
			w.AssertionFile)
	}
	return token, nil
}

// jwtBearer asks for a token with assertion as the authorization grant (RFC
// 7523 §2.1), the client authenticated as c by r.Method. x/oauth2 has no
// request for a given assertion (its jwt package signs one of its own), but
// its client credentials request lets the grant type be replaced, for such
// grants: that request is used, so that the answer is parsed as x/oauth2
// parses every other.
func jwtBearer(ctx context.Context, r *TokenRequest, c clientAuth, assertion string) (*oauth2.Token, error) {
	cfg := &clientcredentials.Config{TokenURL: r.Meta.TokenEndpoint, Scopes: r.Scopes, EndpointParams: r.Params}
	cfg.EndpointParams.Set("grant_type", grantJWTBearer)
	cfg.EndpointParams.Set("assertion", assertion)
	setResource(cfg.EndpointParams, r.Resource)
	if err := c.configure(cfg, r); err != nil {
		return nil, err
	}
	return cfg.Token(context.WithValue(ctx, oauth2.HTTPClient, r.HTTP))
}

// Hint says what to check when the authorization server refuses the
// workload's token.
func (w *WorkloadIdentity) Hint(code string, r *TokenRequest) string {
	source := "assertion"
	if w.AssertionFile != "" {
		source = "the token in assertion_file (" + w.AssertionFile + ")"
	}
	switch code {
	case "invalid_grant":
		return "the authorization server refused the workload's token: check " + source + ": it must be unexpired, " +
			"issued for the audience " + r.Meta.Issuer + " (the authorization server), by an issuer the server trusts " +
			"for this workload"
	case "unauthorized_client", "unsupported_grant_type":
		return "the authorization server does not let this workload use the jwt-bearer grant: allow it, or the " +
			"issuer of its token, at the authorization server"
	case "invalid_client":
		return "the authorization server does not know the client: check client_id (or leave it out, if the server " +
			"identifies the workload by its token alone)"
	}
	return ""
}
