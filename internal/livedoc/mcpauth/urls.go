package mcpauth

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

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

// CheckEndpoint says why raw cannot be an authorization server's issuer or
// endpoint (nil when it can): it must be https, or http on loopback.
func CheckEndpoint(raw string) error { return secureURL(raw) }

// CheckServerURL says why an MCP server's url cannot be read with OAuth (nil
// when it can): it must be https, or http on loopback. On plain http anyone on
// the network path could forge the 401 that names the authorization server
// the client's credentials go to, and read the token.
func CheckServerURL(raw string) error {
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
