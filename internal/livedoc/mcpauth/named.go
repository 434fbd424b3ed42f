package mcpauth

// A token from an authorization server named by other means than a
// protected resource's metadata: an A2A agent card's security scheme
// (A2A 1.0 §4.5: an OAuth 2.0 scheme names the server's metadata, RFC 8414,
// or its token URL; an OpenID Connect scheme its discovery document). The
// grant, the checks of the metadata, the bounds and the blanking are the
// flow's.

import (
	"cmp"
	"context"
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/quote"
)

// AuthServer is an authorization server as a card's scheme names it.
type AuthServer struct {
	// MetadataURL is its metadata (RFC 8414, or OpenID Connect discovery):
	// the issuer the metadata names must be one whose metadata is at this
	// URL, as RFC 8414 §3.3 asks of a client that starts from the issuer.
	MetadataURL string
	// TokenURL is its token endpoint, used when no metadata is named.
	TokenURL string
	// Resource is sent as the resource parameter (RFC 8707).
	Resource string
	// Scopes are asked for when the client names none.
	Scopes []string
}

// TokenFrom asks the authorization server as for a token, with the
// client's grant, once.
func (f *Flow) TokenFrom(ctx context.Context, as AuthServer) (*oauth2.Token, error) {
	f.flow.Lock()
	defer f.flow.Unlock()
	meta, err := f.namedServer(ctx, as)
	if err != nil {
		return nil, err
	}
	d := &discovered{resource: as.Resource, issuer: cmp.Or(meta.Issuer, as.TokenURL), meta: meta}
	if d.method, err = f.Client.Grant.Authentication(meta); err != nil {
		return nil, failed(stepServerMetadata, "the authorization server %s %v", quote.URL(f.Secrets, d.issuer), err)
	}
	f.found = d
	scopes := f.Client.Scopes
	if len(scopes) == 0 {
		scopes = as.Scopes
	}
	return f.requestToken(ctx, scopes)
}

// namedServer is the metadata of the server as names: read and checked,
// or, for a token URL alone, its token endpoint (which a client pinned to
// an issuer cannot check, and refuses).
func (f *Flow) namedServer(ctx context.Context, as AuthServer) (*oauthex.AuthServerMeta, error) {
	if as.MetadataURL == "" {
		if err := secureURL(as.TokenURL); err != nil {
			return nil, failed(stepServerMetadata, "the token URL %s %v", quote.URL(f.Secrets, as.TokenURL), err)
		}
		if f.Client.Issuer != "" {
			return nil, failed(stepServerMetadata, "the client is pinned to the issuer %s, and the scheme names only a token "+
				"URL, %s, with no metadata that names its issuer: refused before any credential was sent",
				quote.URL(f.Secrets, f.Client.Issuer), quote.URL(f.Secrets, as.TokenURL))
		}
		return &oauthex.AuthServerMeta{TokenEndpoint: as.TokenURL}, nil
	}
	var meta oauthex.AuthServerMeta
	code, status, err := f.getJSON(ctx, stepServerMetadata, as.MetadataURL, &meta)
	switch {
	case err != nil:
		return nil, err
	case code != http.StatusOK:
		return nil, failed(stepServerMetadata, "%s answered %s", quote.URL(f.Secrets, as.MetadataURL), status)
	case !slices.Contains(serverMetadataURLs(meta.Issuer), as.MetadataURL):
		return nil, failed(stepServerMetadata, "%s names the issuer %q, whose metadata is not at that URL: refused, as RFC "+
			"8414 §3.3 requires (metadata of another server)", quote.URL(f.Secrets, as.MetadataURL),
			quote.Excerpt(f.Secrets, meta.Issuer, quote.MaxArgRunes))
	case f.Client.Issuer != "" && !sameIssuer(meta.Issuer, f.Client.Issuer):
		return nil, failed(stepServerMetadata, "the scheme names the authorization server %s, not %s, the issuer the client is "+
			"pinned to: refused before any credential was sent", quote.URL(f.Secrets, meta.Issuer), quote.URL(f.Secrets, f.Client.Issuer))
	}
	return &meta, f.checkServerMetadata(as.MetadataURL, meta.Issuer, &meta)
}
