package mcpauth

// Steps 1 and 2 of the OAuth flow (mcpauth.go): the protected resource metadata
// (RFC 9728) and the authorization server metadata (RFC 8414, else OpenID
// Connect discovery), read with the read's own client. The SDK's
// oauthex.GetProtectedResourceMetadata and auth.GetAuthServerMetadata are not
// used: they hide the status of a failed fetch (so a missing document cannot
// be told from a refused one, and a fallback from a failure), refuse an
// authorization server that does not advertise PKCE (which the client
// credentials grant does not use), and report an oversized document as a
// JSON error. Their types, and their order of well-known URLs, are kept.

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/httpclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/quote"
)

// discover reads the metadata of the protected resource and of its first
// authorization server; named is the metadata URL the 401 gave ("": none).
func (f *Flow) discover(ctx context.Context, named string) (*discovered, error) {
	prm, issuer, err := f.resourceMetadata(ctx, named)
	if err != nil {
		return nil, err
	}
	meta, err := f.serverMetadata(ctx, issuer)
	if err != nil {
		return nil, err
	}
	d := &discovered{resource: prm.Resource, scopesSupported: prm.ScopesSupported, issuer: meta.Issuer, meta: meta}
	if d.method, err = f.Client.Grant.Authentication(meta); err != nil {
		return nil, failed(stepServerMetadata, "the authorization server %s %v", quote.URL(f.Secrets, issuer), err)
	}
	return d, nil
}

// resourceMetadata reads the protected resource metadata: at the URL the
// 401 named, else at the well-known URLs, the path-based one first; issuer
// is the authorization server the client uses among those it names.
func (f *Flow) resourceMetadata(ctx context.Context, named string) (prm *oauthex.ProtectedResourceMetadata, issuer string, err error) {
	var tried []string
	for _, u := range f.resourceMetadataURLs(named) {
		prm = &oauthex.ProtectedResourceMetadata{}
		code, status, err := f.getJSON(ctx, stepResourceMetadata, u, prm)
		switch {
		case err != nil:
			return nil, "", err
		case code == http.StatusOK:
			issuer, err = f.checkResourceMetadata(u, prm)
			return prm, issuer, err
		case named != "":
			return nil, "", failed(stepResourceMetadata, "%s, which the 401 of %s named in WWW-Authenticate, answered %s",
				quote.URL(f.Secrets, u), f.Server.Redacted(), status)
		}
		tried = append(tried, quote.URL(f.Secrets, u)+" answered "+status)
	}
	return nil, "", failed(stepResourceMetadata, "none found: %s; and the 401 of %s named no resource_metadata in "+
		"WWW-Authenticate. Check that url is the MCP server's endpoint, and that the server implements the MCP "+
		"authorization spec (2025-06-18 or later)", strings.Join(tried, "; "), f.Server.Redacted())
}

// resourceMetadataURLs are the URLs to read the metadata from: the one the
// 401 named, else those of RFC 9728 §3.1 for the server's URL, path-based
// (the path inserted after the well-known prefix) first, then the root.
func (f *Flow) resourceMetadataURLs(named string) []string {
	if named != "" {
		if u, err := f.Server.Parse(named); err == nil {
			return []string{u.String()}
		}
		return []string{named}
	}
	base := url.URL{Scheme: f.Server.Scheme, Host: f.Server.Host, Path: "/.well-known/oauth-protected-resource"}
	root := base.String()
	if p := strings.Trim(f.Server.EscapedPath(), "/"); p != "" {
		return []string{root + "/" + p, root}
	}
	return []string{root}
}

// checkResourceMetadata refuses metadata for another resource than the
// server read (RFC 9728 §3.3), or that names no usable authorization server;
// else it returns the authorization server the client uses.
func (f *Flow) checkResourceMetadata(at string, prm *oauthex.ProtectedResourceMetadata) (string, error) {
	if !resourceMatches(prm.Resource, f.Server) {
		return "", failed(stepResourceMetadata, "%s names the resource %s, not %s (nor a parent of it on the same origin): "+
			"refused, as RFC 9728 §3.3 requires (metadata for another resource could send the credentials elsewhere); "+
			"check that url is the server's canonical URL", quote.URL(f.Secrets, at), strconv.Quote(quote.Excerpt(f.Secrets, prm.Resource, quote.MaxArgRunes)),
			f.Server.Redacted())
	}
	if len(prm.AuthorizationServers) == 0 {
		return "", failed(stepResourceMetadata, "%s names no authorization server (authorization_servers is empty)", quote.URL(f.Secrets, at))
	}
	as, err := f.authorizationServer(prm)
	if err != nil {
		return "", err
	}
	if err := secureURL(as); err != nil {
		return "", failed(stepResourceMetadata, "%s names the authorization server %s, which %v", quote.URL(f.Secrets, at), quote.URL(f.Secrets, as), err)
	}
	return as, nil
}

// authorizationServer is the authorization server the client uses among
// those the metadata names: the one its issuer pin names, else the first.
// A pin the metadata does not name refuses the server: the metadata could
// lead the client's credentials (or, for an enterprise client, an identity
// assertion minted for that server) anywhere.
func (f *Flow) authorizationServer(prm *oauthex.ProtectedResourceMetadata) (string, error) {
	pin := f.Client.Issuer
	if pin == "" {
		return prm.AuthorizationServers[0], nil
	}
	for _, as := range prm.AuthorizationServers {
		if sameIssuer(as, pin) {
			return as, nil
		}
	}
	named := make([]string, len(prm.AuthorizationServers))
	for i, as := range prm.AuthorizationServers {
		named[i] = quote.URL(f.Secrets, as)
	}
	return "", failed(stepResourceMetadata, "the MCP server %s names the authorization server %s, not %s, the issuer the "+
		"client is pinned to: refused before any credential was sent; check the client's issuer, and that url is the "+
		"server you meant", f.Server.Redacted(), strings.Join(named, ", "), quote.URL(f.Secrets, pin))
}

// sameIssuer tells whether two issuer identifiers are the same, a trailing
// slash aside.
func sameIssuer(a, b string) bool { return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/") }

// resourceMatches says whether the metadata's resource identifies server:
// the same URL, or a parent of it on the same origin (the rule of the
// official TypeScript SDK), ignoring a trailing slash.
func resourceMatches(resource string, server *url.URL) bool {
	r, err := url.Parse(resource)
	if err != nil || !r.IsAbs() || r.Host == "" || !httpclient.SameOrigin(r, server) ||
		(r.RawQuery != "" && r.RawQuery != server.RawQuery) || r.Fragment != "" {
		return false
	}
	rp, sp := strings.TrimSuffix(r.EscapedPath(), "/"), strings.TrimSuffix(server.EscapedPath(), "/")
	return rp == sp || strings.HasPrefix(sp, rp+"/")
}

// serverMetadata reads the authorization server's metadata at the URLs the
// MCP authorization spec lists for its issuer, in its order, and checks it.
func (f *Flow) serverMetadata(ctx context.Context, issuer string) (*oauthex.AuthServerMeta, error) {
	var tried []string
	for _, u := range serverMetadataURLs(issuer) {
		var meta oauthex.AuthServerMeta
		code, status, err := f.getJSON(ctx, stepServerMetadata, u, &meta)
		switch {
		case err != nil:
			return nil, err
		case code == http.StatusOK:
			return &meta, f.checkServerMetadata(u, issuer, &meta)
		case code >= 500:
			return nil, failed(stepServerMetadata, "%s answered %s", quote.URL(f.Secrets, u), status)
		}
		tried = append(tried, quote.URL(f.Secrets, u)+" answered "+status)
	}
	return nil, failed(stepServerMetadata, "none found for the authorization server %s: %s; check the authorization "+
		"server the protected resource metadata names", quote.URL(f.Secrets, issuer), strings.Join(tried, "; "))
}

// serverMetadataURLs are RFC 8414's URL and OpenID Connect's for issuer:
// with a path, inserted after the well-known prefix, then (OpenID) appended.
func serverMetadataURLs(issuer string) []string {
	u, err := url.Parse(issuer)
	if err != nil {
		return nil
	}
	origin := url.URL{Scheme: u.Scheme, Host: u.Host}
	p := strings.Trim(u.EscapedPath(), "/")
	if p == "" {
		return []string{origin.String() + "/.well-known/oauth-authorization-server", origin.String() + "/.well-known/openid-configuration"}
	}
	return []string{origin.String() + "/.well-known/oauth-authorization-server/" + p,
		origin.String() + "/.well-known/openid-configuration/" + p, origin.String() + "/" + p + "/.well-known/openid-configuration"}
}

func (f *Flow) checkServerMetadata(at, issuer string, meta *oauthex.AuthServerMeta) error {
	if !sameIssuer(meta.Issuer, issuer) {
		return failed(stepServerMetadata, "%s names the issuer %s, not %s: refused, as RFC 8414 §3.3 requires (metadata "+
			"of another server)", quote.URL(f.Secrets, at), strconv.Quote(quote.Excerpt(f.Secrets, meta.Issuer, quote.MaxArgRunes)), quote.URL(f.Secrets, issuer))
	}
	if meta.TokenEndpoint == "" {
		return failed(stepServerMetadata, "%s has no token_endpoint", quote.URL(f.Secrets, at))
	}
	if err := secureURL(meta.TokenEndpoint); err != nil {
		return failed(stepServerMetadata, "%s: its token_endpoint %s %v", quote.URL(f.Secrets, at), quote.URL(f.Secrets, meta.TokenEndpoint), err)
	}
	return nil
}

// getJSON reads the metadata document at raw into v: code and status are
// the answer's (v is filled when code is 200 only). What it reads is
// bounded by the read's deadline and httpclient.MaxAnswerBytes.
func (f *Flow) getJSON(ctx context.Context, s step, raw string, v any) (code int, status string, err error) {
	if err := secureURL(raw); err != nil {
		return 0, "", failed(s, "%s %v", quote.URL(f.Secrets, raw), err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return 0, "", failed(s, "%s: %v", quote.URL(f.Secrets, raw), err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.HTTP.Do(req)
	if err != nil {
		return 0, "", failed(s, "%v", httpclient.TransportError(f.Parent, err, quote.URL(f.Secrets, raw), f.Timeout))
	}
	defer func() { _ = resp.Body.Close() }() // read, or not wanted
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, resp.Status, nil
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "application/json" {
		return 0, "", failed(s, "%s answered with content type %q, not application/json", quote.URL(f.Secrets, raw),
			quote.Excerpt(f.Secrets, resp.Header.Get("Content-Type"), quote.MaxArgRunes))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, httpclient.MaxAnswerBytes+1))
	switch {
	case errors.Is(err, httpclient.ErrTooLarge) || len(body) > httpclient.MaxAnswerBytes:
		return 0, "", failed(s, "%s sent a document over the %d-byte (1 MiB) limit; stopped reading", quote.URL(f.Secrets, raw), httpclient.MaxAnswerBytes)
	case err != nil:
		return 0, "", failed(s, "%v", httpclient.TransportError(f.Parent, err, quote.URL(f.Secrets, raw), f.Timeout))
	}
	if err := json.Unmarshal(body, v); err != nil {
		return 0, "", failed(s, "%s is not a metadata document (a JSON object of the expected members): %v", quote.URL(f.Secrets, raw), err)
	}
	return resp.StatusCode, resp.Status, nil
}
