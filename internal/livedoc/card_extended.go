package livedoc

// The authenticated extended agent card of A2A 1.0 (§3.1.11): a card an
// agent serves to authenticated callers only, declared by its public card
// (capabilities.extendedAgentCard) and read over its HTTP+JSON interface
// (GET {interface}/extendedAgentCard, §11). A2A leaves how a client gets its
// credentials to the scheme the card declares (§7.3): an OAuth 2.0 scheme
// names its authorization server (its metadata, RFC 8414, or its token URL),
// an OpenID Connect scheme its discovery document; the token is asked there
// with the OAuth client's grant (mcpauth), or the caller gives its own
// Authorization in the headers.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/httpclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/quote"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// ExtendedCardOptions configure FetchExtendedAgentCard.
type ExtendedCardOptions struct {
	Options
	// OAuth, when set, is the client whose token reads the extended card,
	// asked of the authorization server the public card's scheme names.
	// Without it, the caller's headers (an Authorization) are the
	// credentials.
	OAuth *mcpauth.Client
}

// ExtendedCard is an agent's extended card, as served.
type ExtendedCard struct {
	Card
	// Public is the public card that declared it.
	Public *Card
	// SameAsPublic: the agent answered with its public card, byte for
	// byte: an agent may have nothing more to show, or (as the A2A JS SDK
	// does) answer a caller it did not authenticate with its public card.
	SameAsPublic bool
}

// extendedCardPath is the HTTP+JSON binding's route of the extended card.
const extendedCardPath = "/extendedAgentCard"

// FetchExtendedAgentCard reads the public card of rawURL as FetchAgentCard
// does, then the extended card it declares, with a token from opts.OAuth or
// the caller's headers. Every request stays on the origin of rawURL: an
// interface on another origin is refused, since the credentials are for
// that origin.
func FetchExtendedAgentCard(ctx context.Context, rawURL string, opts ExtendedCardOptions) (*ExtendedCard, error) {
	secrets := opts.secrets(nil, opts.OAuth)
	card, err := fetchExtendedAgentCard(ctx, rawURL, opts, secrets)
	return card, secrets.Error(err)
}

func fetchExtendedAgentCard(ctx context.Context, rawURL string, opts ExtendedCardOptions, secrets *redact.Secrets) (*ExtendedCard, error) {
	u, err := parseURL(rawURL)
	if err != nil {
		return nil, err
	}
	if err := opts.checkExtended(u); err != nil {
		return nil, err
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, opts.timeout())
	defer cancel()
	f := newCardFetch(parent, u, opts.Options, secrets)
	defer f.client.CloseIdleConnections()
	if opts.OAuth != nil {
		// The public card names the authorization server that gets the
		// client's credentials: only the origin of url may name it.
		f.client.CheckRedirect = httpclient.SameOriginRedirects(u)
	}
	public, err := f.card(ctx, u)
	if err != nil {
		return nil, err
	}
	d, err := parseDeclaration(public)
	if err != nil {
		return nil, err
	}
	endpoint, err := d.endpoint(public, u)
	if err != nil {
		return nil, err
	}
	r := &extendedRead{fetch: f, opts: opts, public: public, endpoint: endpoint}
	return r.read(ctx, d)
}

// checkExtended refuses options an extended read does not take.
func (o ExtendedCardOptions) checkExtended(u *url.URL) error {
	if err := o.check(); err != nil {
		return err
	}
	if o.OAuth == nil {
		return nil
	}
	if hasHeader(o.Headers, "Authorization") {
		return errors.New("the headers set Authorization while an OAuth client is given: the OAuth client's token is the " +
			"Authorization; give one or the other")
	}
	if err := mcpauth.CheckServerURL(u.String()); err != nil {
		return err
	}
	return o.OAuth.Check()
}

// declaration is what the public card says of its extended card.
type declaration struct {
	Capabilities struct {
		ExtendedAgentCard bool `json:"extendedAgentCard"`
	} `json:"capabilities"`
	SupportedInterfaces []struct {
		URL             string `json:"url"`
		ProtocolBinding string `json:"protocolBinding"`
		ProtocolVersion string `json:"protocolVersion"`
	} `json:"supportedInterfaces"`
	SecuritySchemes      map[string]securityScheme `json:"securitySchemes"`
	SecurityRequirements []struct {
		Schemes map[string]struct {
			List []string `json:"list"`
		} `json:"schemes"`
	} `json:"securityRequirements"`
}

// securityScheme is the part of an A2A 1.0 security scheme that names an
// authorization server.
type securityScheme struct {
	OAuth2 *struct {
		Flows struct {
			ClientCredentials *struct {
				TokenURL string `json:"tokenUrl"`
			} `json:"clientCredentials"`
		} `json:"flows"`
		MetadataURL string `json:"oauth2MetadataUrl"`
	} `json:"oauth2SecurityScheme"`
	OpenIDConnect *struct {
		URL string `json:"openIdConnectUrl"`
	} `json:"openIdConnectSecurityScheme"`
}

// parseDeclaration reads the declaration of the public card, and refuses a
// card that declares no extended card.
func parseDeclaration(public *Card) (*declaration, error) {
	var d declaration
	if err := json.Unmarshal(public.Body, &d); err != nil {
		return nil, fmt.Errorf("the agent card at %s is not a JSON object of A2A 1.0's members: %v", public.URL, err)
	}
	if !d.Capabilities.ExtendedAgentCard {
		return nil, fmt.Errorf("the agent card at %s declares no extended card (capabilities.extendedAgentCard is false "+
			"or absent, A2A 1.0): read its public card, without extended", public.URL)
	}
	return &d, nil
}

// endpoint is the extended card's URL: under the card's first HTTP+JSON
// interface, which must be on the origin of start.
func (d *declaration) endpoint(public *Card, start *url.URL) (*url.URL, error) {
	var bindings []string
	for _, i := range d.SupportedInterfaces {
		if i.ProtocolBinding != "HTTP+JSON" {
			bindings = append(bindings, i.ProtocolBinding+" at "+i.URL)
			continue
		}
		u, err := url.Parse(i.URL)
		if err != nil || !u.IsAbs() {
			return nil, fmt.Errorf("the agent card at %s names the HTTP+JSON interface %q, which is not an absolute URL",
				public.URL, i.URL)
		}
		if !httpclient.SameOrigin(u, start) {
			return nil, fmt.Errorf("the agent card at %s names its HTTP+JSON interface on %s, not on the origin of url (%s): "+
				"the extended card is read on the origin the credentials are for; set url to the interface's origin",
				public.URL, httpclient.Origin(u), httpclient.Origin(start))
		}
		return u.JoinPath(extendedCardPath), nil
	}
	return nil, fmt.Errorf("the agent card at %s names no HTTP+JSON interface (supportedInterfaces: %s): the extended card "+
		"is read with the HTTP+JSON binding's GET /extendedAgentCard", public.URL, orNone(bindings))
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// authServer is the authorization server of the first requirement (else of
// the first scheme, by name) whose scheme names one, with the scopes the
// requirement lists; ok is false when none does.
func (d *declaration) authServer(resource string) (as mcpauth.AuthServer, named string, ok bool) {
	for _, req := range d.SecurityRequirements {
		for _, name := range slices.Sorted(maps.Keys(req.Schemes)) {
			if as, ok := d.SecuritySchemes[name].authServer(); ok {
				as.Resource, as.Scopes = resource, req.Schemes[name].List
				return as, name, true
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(d.SecuritySchemes)) {
		if as, ok := d.SecuritySchemes[name].authServer(); ok {
			as.Resource = resource
			return as, name, true
		}
	}
	return mcpauth.AuthServer{}, "", false
}

func (s securityScheme) authServer() (mcpauth.AuthServer, bool) {
	switch {
	case s.OAuth2 != nil && s.OAuth2.MetadataURL != "":
		return mcpauth.AuthServer{MetadataURL: s.OAuth2.MetadataURL}, true
	case s.OAuth2 != nil && s.OAuth2.Flows.ClientCredentials != nil && s.OAuth2.Flows.ClientCredentials.TokenURL != "":
		return mcpauth.AuthServer{TokenURL: s.OAuth2.Flows.ClientCredentials.TokenURL}, true
	case s.OpenIDConnect != nil && s.OpenIDConnect.URL != "":
		return mcpauth.AuthServer{MetadataURL: s.OpenIDConnect.URL}, true
	}
	return mcpauth.AuthServer{}, false
}

// extendedRead is the read of one extended card.
type extendedRead struct {
	fetch    *cardFetch
	opts     ExtendedCardOptions
	public   *Card
	endpoint *url.URL
	issuer   string // where the token came from (the metadata or token URL the card names), "" for none
}

func (r *extendedRead) read(ctx context.Context, d *declaration) (*ExtendedCard, error) {
	header := http.Header{}
	if r.opts.OAuth != nil {
		token, err := r.token(ctx, d)
		if err != nil {
			return nil, err
		}
		header.Set("Authorization", "Bearer "+token)
	}
	// The token goes to the interface's origin only: a redirect elsewhere
	// is refused, as for MCP with OAuth.
	r.fetch.client.CheckRedirect = httpclient.SameOriginRedirects(r.endpoint)
	card, err := r.fetch.getWith(ctx, r.endpoint, header)
	var se *statusError
	if errors.As(err, &se) {
		return nil, r.refused(se)
	}
	if err != nil {
		return nil, err
	}
	return &ExtendedCard{Card: *card, Public: r.public, SameAsPublic: bytes.Equal(card.Body, r.public.Body)}, nil
}

// token asks the authorization server the card's scheme names for a token
// for the interface.
func (r *extendedRead) token(ctx context.Context, d *declaration) (string, error) {
	resource := strings.TrimSuffix(r.endpoint.String(), extendedCardPath)
	as, _, ok := d.authServer(resource)
	if !ok {
		return "", fmt.Errorf("the agent card at %s declares no scheme that names an authorization server (an OAuth 2.0 "+
			"scheme with oauth2MetadataUrl or a client credentials tokenUrl, or an OpenID Connect scheme): its schemes "+
			"are %s; give the agent's token in headers (Authorization) instead of an OAuth client",
			r.public.URL, orNone(slices.Sorted(maps.Keys(d.SecuritySchemes))))
	}
	deadline, _ := ctx.Deadline() // the read's
	flowClient := &http.Client{Transport: &httpclient.Bounded{Base: r.fetch.client.Transport, Deadline: deadline},
		CheckRedirect: httpclient.CheckRedirect}
	flow := mcpauth.New(mcpauth.Config{Client: r.opts.OAuth, Server: r.endpoint, HTTP: flowClient,
		Secrets: r.fetch.secrets, Parent: r.fetch.parent, Timeout: r.fetch.timeout})
	tok, err := flow.TokenFrom(ctx, as)
	if err != nil {
		return "", err
	}
	r.issuer = cmp.Or(as.MetadataURL, as.TokenURL)
	return tok.AccessToken, nil
}

// a2aError is the error of an A2A 1.0 HTTP+JSON answer (google.rpc.Status).
type a2aError struct {
	Error struct {
		Status  string `json:"status"`
		Message string `json:"message"`
		Details []struct {
			Reason string `json:"reason"`
		} `json:"details"`
	} `json:"error"`
}

// refused explains an answer other than the extended card.
func (r *extendedRead) refused(se *statusError) error {
	agent := r.endpoint.Redacted()
	var e a2aError
	_ = json.Unmarshal(se.body, &e) // a body that is no A2A error names no reason
	reasons := make([]string, len(e.Error.Details))
	for i, d := range e.Error.Details {
		reasons[i] = d.Reason
	}
	said := ""
	if e.Error.Message != "" {
		said = fmt.Sprintf(" (%q)", quote.Excerpt(r.fetch.secrets, e.Error.Message, quote.MaxRunes))
	}
	switch {
	case slices.Contains(reasons, "EXTENDED_AGENT_CARD_NOT_CONFIGURED"):
		return fmt.Errorf("GET %s answered %s, EXTENDED_AGENT_CARD_NOT_CONFIGURED%s: the agent declares an extended card "+
			"but has none configured; read its public card, without extended, or configure the agent's extended card",
			agent, se.status, said)
	case slices.Contains(reasons, "UNSUPPORTED_OPERATION"):
		return fmt.Errorf("GET %s answered %s, UNSUPPORTED_OPERATION%s: the agent does not serve an extended card, though "+
			"its card declares capabilities.extendedAgentCard", agent, se.status, said)
	case se.code == http.StatusUnauthorized || se.code == http.StatusForbidden:
		return r.unauthorized(se, said)
	}
	return fmt.Errorf("GET %s answered %s%s; expected a 2xx status with the extended agent card", agent, se.status, said)
}

// unauthorized explains a 401 or 403: the token refused, or no credentials.
func (r *extendedRead) unauthorized(se *statusError, said string) error {
	challenge := ""
	if len(se.challenges) > 0 {
		challenge = " (WWW-Authenticate: " + quote.Excerpt(r.fetch.secrets, strings.Join(se.challenges, ", "), quote.MaxRunes) + ")"
	}
	if r.issuer != "" {
		return fmt.Errorf("GET %s answered %s%s%s: the agent refused the token of the authorization server its card "+
			"names (%s); check the scopes the server grants the client, and that the agent accepts its tokens",
			r.endpoint.Redacted(), se.status, challenge, said, r.issuer)
	}
	return fmt.Errorf("GET %s answered %s%s%s: the extended card needs credentials the agent accepts: an OAuth client "+
		"(oauth_client, or oauth), or headers with its Authorization", r.endpoint.Redacted(), se.status, challenge, said)
}
