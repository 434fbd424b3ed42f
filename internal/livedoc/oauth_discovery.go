package livedoc

// Steps 1 and 2 of the OAuth flow (oauth.go): the protected resource metadata
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
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// discover reads the metadata of the protected resource and of its first
// authorization server; named is the metadata URL the 401 gave ("": none).
func (f *oauthFlow) discover(ctx context.Context, named string) (*discovered, error) {
	prm, err := f.resourceMetadata(ctx, named)
	if err != nil {
		return nil, err
	}
	issuer := prm.AuthorizationServers[0]
	meta, err := f.serverMetadata(ctx, issuer)
	if err != nil {
		return nil, err
	}
	d := &discovered{resource: prm.Resource, scopesSupported: prm.ScopesSupported, issuer: meta.Issuer, meta: meta}
	if d.method, err = authMethod(meta.TokenEndpointAuthMethodsSupported, f.key != nil); err != nil {
		return nil, stepError(stepServerMetadata, "the authorization server %s %v", quoteURL(f, issuer), err)
	}
	return d, nil
}

// resourceMetadata reads the protected resource metadata: at the URL the
// 401 named, else at the well-known URLs, the path-based one first.
func (f *oauthFlow) resourceMetadata(ctx context.Context, named string) (*oauthex.ProtectedResourceMetadata, error) {
	var tried []string
	for _, u := range f.resourceMetadataURLs(named) {
		var prm oauthex.ProtectedResourceMetadata
		code, status, err := f.getJSON(ctx, stepResourceMetadata, u, &prm)
		switch {
		case err != nil:
			return nil, err
		case code == http.StatusOK:
			return &prm, f.checkResourceMetadata(u, &prm)
		case named != "":
			return nil, stepError(stepResourceMetadata, "%s, which the 401 of %s named in WWW-Authenticate, answered %s",
				quoteURL(f, u), f.server.Redacted(), status)
		}
		tried = append(tried, quoteURL(f, u)+" answered "+status)
	}
	return nil, stepError(stepResourceMetadata, "none found: %s; and the 401 of %s named no resource_metadata in "+
		"WWW-Authenticate. Check that url is the MCP server's endpoint, and that the server implements the MCP "+
		"authorization spec (2025-06-18 or later)", strings.Join(tried, "; "), f.server.Redacted())
}

// resourceMetadataURLs are the URLs to read the metadata from: the one the
// 401 named, else those of RFC 9728 §3.1 for the server's URL, path-based
// (the path inserted after the well-known prefix) first, then the root.
func (f *oauthFlow) resourceMetadataURLs(named string) []string {
	if named != "" {
		if u, err := f.server.Parse(named); err == nil {
			return []string{u.String()}
		}
		return []string{named}
	}
	base := url.URL{Scheme: f.server.Scheme, Host: f.server.Host, Path: "/.well-known/oauth-protected-resource"}
	root := base.String()
	if p := strings.Trim(f.server.EscapedPath(), "/"); p != "" {
		return []string{root + "/" + p, root}
	}
	return []string{root}
}

// checkResourceMetadata refuses metadata for another resource than the
// server read (RFC 9728 §3.3), or that names no usable authorization server.
func (f *oauthFlow) checkResourceMetadata(at string, prm *oauthex.ProtectedResourceMetadata) error {
	if !resourceMatches(prm.Resource, f.server) {
		return stepError(stepResourceMetadata, "%s names the resource %s, not %s (nor a parent of it on the same origin): "+
			"refused, as RFC 9728 §3.3 requires (metadata for another resource could send the credentials elsewhere); "+
			"check that url is the server's canonical URL", quoteURL(f, at), strconv.Quote(excerpt(f.secrets, prm.Resource, maxArgRunes)),
			f.server.Redacted())
	}
	if len(prm.AuthorizationServers) == 0 {
		return stepError(stepResourceMetadata, "%s names no authorization server (authorization_servers is empty)", quoteURL(f, at))
	}
	as := prm.AuthorizationServers[0]
	if err := secureURL(as); err != nil {
		return stepError(stepResourceMetadata, "%s names the authorization server %s, which %v", quoteURL(f, at), quoteURL(f, as), err)
	}
	return nil
}

// resourceMatches says whether the metadata's resource identifies server:
// the same URL, or a parent of it on the same origin (the rule of the
// official TypeScript SDK), ignoring a trailing slash.
func resourceMatches(resource string, server *url.URL) bool {
	r, err := url.Parse(resource)
	if err != nil || !r.IsAbs() || r.Host == "" || !strings.EqualFold(r.Scheme, server.Scheme) ||
		hostPort(r) != hostPort(server) || (r.RawQuery != "" && r.RawQuery != server.RawQuery) || r.Fragment != "" {
		return false
	}
	rp, sp := strings.TrimSuffix(r.EscapedPath(), "/"), strings.TrimSuffix(server.EscapedPath(), "/")
	return rp == sp || strings.HasPrefix(sp, rp+"/")
}

// serverMetadata reads the authorization server's metadata at the URLs the
// MCP authorization spec lists for its issuer, in its order, and checks it.
func (f *oauthFlow) serverMetadata(ctx context.Context, issuer string) (*oauthex.AuthServerMeta, error) {
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
			return nil, stepError(stepServerMetadata, "%s answered %s", quoteURL(f, u), status)
		}
		tried = append(tried, quoteURL(f, u)+" answered "+status)
	}
	return nil, stepError(stepServerMetadata, "none found for the authorization server %s: %s; check the authorization "+
		"server the protected resource metadata names", quoteURL(f, issuer), strings.Join(tried, "; "))
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

func (f *oauthFlow) checkServerMetadata(at, issuer string, meta *oauthex.AuthServerMeta) error {
	if strings.TrimSuffix(meta.Issuer, "/") != strings.TrimSuffix(issuer, "/") {
		return stepError(stepServerMetadata, "%s names the issuer %s, not %s: refused, as RFC 8414 §3.3 requires (metadata "+
			"of another server)", quoteURL(f, at), strconv.Quote(excerpt(f.secrets, meta.Issuer, maxArgRunes)), quoteURL(f, issuer))
	}
	if meta.TokenEndpoint == "" {
		return stepError(stepServerMetadata, "%s has no token_endpoint", quoteURL(f, at))
	}
	if err := secureURL(meta.TokenEndpoint); err != nil {
		return stepError(stepServerMetadata, "%s: its token_endpoint %s %v", quoteURL(f, at), quoteURL(f, meta.TokenEndpoint), err)
	}
	return nil
}

// secureURL accepts an https URL, or an http one on loopback: an
// authorization server, a token endpoint or metadata on plain http would let
// anyone on the network send the client's credentials, or its token,
// elsewhere.
func secureURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil || !u.IsAbs() || u.Host == "":
		return errors.New("is not an absolute https URL")
	case strings.EqualFold(u.Scheme, "https"):
		return nil
	case strings.EqualFold(u.Scheme, "http") && isLoopbackHost(u.Hostname()):
		return nil
	case strings.EqualFold(u.Scheme, "http"):
		return errors.New("is plain http: OAuth endpoints and metadata are reached over https, or http on loopback " +
			"(localhost, 127.0.0.0/8, ::1) only")
	}
	return errors.New("is not an https URL")
}

// CheckOAuthURL says why an MCP server's url cannot be read with OAuth (nil
// when it can): it must be https, or http on loopback. On plain http anyone on
// the network path could forge the 401 that names the authorization server
// the client's credentials go to, and read the token.
func CheckOAuthURL(raw string) error {
	u, err := url.Parse(raw)
	if err == nil && strings.EqualFold(u.Scheme, "http") && !isLoopbackHost(u.Hostname()) {
		return fmt.Errorf("oauth needs an https url, or http on loopback (localhost, 127.0.0.0/8, ::1): %s is plain http, "+
			"where anyone on the network path could forge the 401 that names the authorization server the client's "+
			"credentials go to, and read the token; use the server's https URL", u.Redacted())
	}
	return nil
}

// isLoopbackHost says whether host is localhost or a loopback address.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
}

// quoteURL is a URL a peer named, as messages show it: blanked, safe for a
// terminal, bounded.
func quoteURL(f *oauthFlow, raw string) string {
	if u, err := url.Parse(raw); err == nil {
		raw = u.Redacted()
	}
	return excerpt(f.secrets, raw, maxArgRunes)
}

// getJSON reads the metadata document at raw into v: code and status are
// the answer's (v is filled when code is 200 only). What it reads is
// bounded by the read's deadline and MaxResponseBytes.
func (f *oauthFlow) getJSON(ctx context.Context, step oauthStep, raw string, v any) (code int, status string, err error) {
	if err := secureURL(raw); err != nil {
		return 0, "", stepError(step, "%s %v", quoteURL(f, raw), err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return 0, "", stepError(step, "%s: %v", quoteURL(f, raw), err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		return 0, "", stepError(step, "%v", transportError(f.parent, err, quoteURL(f, raw), f.timeout))
	}
	defer func() { _ = resp.Body.Close() }() // read, or not wanted
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, resp.Status, nil
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "application/json" {
		return 0, "", stepError(step, "%s answered with content type %q, not application/json", quoteURL(f, raw),
			excerpt(f.secrets, resp.Header.Get("Content-Type"), maxArgRunes))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	switch {
	case errors.Is(err, errResponseTooLarge) || len(body) > MaxResponseBytes:
		return 0, "", stepError(step, "%s sent a document over the %d-byte (1 MiB) limit; stopped reading", quoteURL(f, raw), MaxResponseBytes)
	case err != nil:
		return 0, "", stepError(step, "%v", transportError(f.parent, err, quoteURL(f, raw), f.timeout))
	}
	if err := json.Unmarshal(body, v); err != nil {
		return 0, "", stepError(step, "%s is not a metadata document (a JSON object of the expected members): %v", quoteURL(f, raw), err)
	}
	return resp.StatusCode, resp.Status, nil
}
