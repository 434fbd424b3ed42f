package tooltext

import (
	"net/netip"
	"strings"
)

// requestCatchers are domains whose service records whatever is sent to
// them (matched as the host or a parent domain).
var requestCatchers = []string{"webhook.site", "requestbin.com", "requestbin.net", "pipedream.net", "ngrok.io",
	"ngrok-free.app", "ngrok.app", "ngrok.dev", "burpcollaborator.net", "oastify.com", "interact.sh", "oast.fun",
	"oast.pro", "oast.live", "oast.site", "oast.online", "oast.me", "beeceptor.com", "hookbin.com", "postb.in",
	"requestcatcher.com", "mockbin.org", "canarytokens.com", "dnslog.cn", "ceye.io", "trycloudflare.com",
	"serveo.net", "loca.lt", "localtunnel.me", "pipedream.com", "requestinspector.com", "webhook.cool"}

// metadataHosts are the cloud instance metadata services.
var metadataHosts = []string{"169.254.169.254", "metadata.google.internal", "fd00:ec2::254", "100.100.100.200",
	"169.254.170.2"}

// urlFindings reads every URL (scheme://host) of the text: request
// catchers, public IP addresses, metadata hosts; and data: URLs.
func (a *analysis) urlFindings(item textItem, lower string) {
	for _, h := range metadataHosts {
		if i := strings.Index(lower, h); i >= 0 {
			a.add(item.tool, item.pointer, "cloud-metadata", quote(excerpt(item.text, i)))
		}
	}
	for rest, off := lower, 0; ; {
		i := strings.Index(rest, "://")
		if i < 0 {
			break
		}
		host := urlHost(rest[i+3:])
		a.hostFindings(item, host, off+i)
		off += i + 3
		rest = rest[i+3:]
	}
	if i := dataURL(lower); i >= 0 {
		a.add(item.tool, item.pointer, "data-url", quote(excerpt(item.text, i)))
	}
}

func (a *analysis) hostFindings(item textItem, host string, at int) {
	for _, d := range requestCatchers {
		if host == d || strings.HasSuffix(host, "."+d) {
			a.add(item.tool, item.pointer, "request-catcher", quote(escapeHidden(host)))
			return
		}
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	if err == nil && !ip.IsLoopback() && !ip.IsPrivate() && !ip.IsUnspecified() && !ip.IsLinkLocalUnicast() {
		a.add(item.tool, item.pointer, "raw-ip-url", quote(excerpt(item.text, at)))
	}
}

// urlHost is the host of what follows "://": up to a '/', '?', '#', a port,
// a quote or a space; the user part dropped.
func urlHost(s string) string {
	if strings.HasPrefix(s, "[") {
		if j := strings.IndexByte(s, ']'); j > 0 {
			return s[:j+1]
		}
	}
	end := strings.IndexAny(s, "/?#\"'` \t\n\r)>]")
	if end < 0 {
		end = len(s)
	}
	h := s[:end]
	if at := strings.LastIndexByte(h, '@'); at >= 0 {
		h = h[at+1:]
	}
	if c := strings.LastIndexByte(h, ':'); c >= 0 {
		h = h[:c]
	}
	return strings.TrimRight(h, ".,;")
}

// dataURL finds "data:" at the start of a word followed by a media type and
// ';' or ',' (data:text/html;base64,...), so that "metadata:" is not one.
func dataURL(lower string) int {
	for off := 0; ; {
		i := strings.Index(lower[off:], "data:")
		if i < 0 {
			return -1
		}
		i += off
		off = i + 5
		if i > 0 && isWordByte(lower[i-1]) {
			continue
		}
		// The media type is short: looking no further than 80 bytes keeps a
		// text of many "data:" linear.
		rest := lower[i+5 : min(len(lower), i+5+80)]
		slash := strings.IndexByte(rest, '/')
		if slash <= 0 || slash > 20 || !allWordBytes(rest[:slash]) {
			continue
		}
		if end := strings.IndexAny(rest, ";,"); end > slash+1 && !strings.ContainsAny(rest[:end], " \n\t") {
			return i
		}
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func allWordBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

// Secret files: strong ones are findings by themselves; weak ones (an .env,
// a kubeconfig, an MCP configuration by its bare name) only in the same text
// as an instruction to read, pass or send them, since honest file and
// cluster tools name them.
var (
	strongSecrets = []string{"id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "~/.ssh", ".ssh/", ".aws/credentials",
		"/etc/shadow", "/etc/passwd", ".git-credentials", ".netrc", "wallet.dat", ".gnupg", ".cursor/mcp.json",
		"claude_desktop_config.json", "application_default_credentials.json", ".docker/config.json", ".pypirc",
		".npmrc", "/etc/sudoers", ".bash_history", ".zsh_history"}
	weakSecrets = []string{".env", ".kube/config", "kubeconfig", "mcp.json", "credentials.json", "secrets.json",
		".aws/config", "keychain"}
	// takeVerbs are the words of an instruction to take a file: one of them
	// within takeDistance words before the file's name makes the mention an
	// instruction.
	takeVerbs = map[string]bool{"read": true, "pass": true, "send": true, "include": true, "access": true,
		"extract": true, "upload": true, "attach": true, "copy": true, "cat": true, "steal": true,
		"exfiltrate": true, "leak": true, "post": true}
)

const takeDistance = 6

func (a *analysis) secretFindings(item textItem, lower string, words []word) {
	strong, weak := findAny(lower, strongSecrets), findAny(lower, weakSecrets)
	if strong < 0 && weak < 0 {
		return
	}
	switch {
	case item.kind == kindProse && (takenAt(words, strong) || takenAt(words, weak)):
		a.add(item.tool, item.pointer, "secret-file-instruction", quote(excerpt(item.text, max(strong, weak))))
	case strong >= 0:
		a.add(item.tool, item.pointer, "secret-file", quote(excerpt(item.text, strong)))
	}
}

// takenAt reports whether a take verb is among the takeDistance words before
// the byte offset at (-1: nothing there).
func takenAt(words []word, at int) bool {
	if at < 0 {
		return false
	}
	j := 0
	for j < len(words) && words[j].at < at {
		j++
	}
	for k := max(0, j-takeDistance); k < j; k++ {
		if takeVerbs[words[k].text] {
			return true
		}
	}
	return false
}

// findAny is the offset of the first needle found between word boundaries
// (so that "process.env" and "id_rsa_pub_count" are not files), or -1.
func findAny(s string, needles []string) int {
	for _, n := range needles {
		for off := 0; off < len(s); {
			i := strings.Index(s[off:], n)
			if i < 0 {
				break
			}
			i += off
			off = i + len(n)
			before := i == 0 || !isWordByte(s[i-1])
			after := i+len(n) == len(s) || !isWordByte(s[i+len(n)])
			if before && after {
				return i
			}
		}
	}
	return -1
}
