package tooltext

import (
	"net/netip"
	"strings"
)

// Exfiltration sinks: where a poisoned tool tells the model to send what it
// took (a request catcher, a raw IP address, a data: URL, an encoded blob, a
// recipient to copy).

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
	h = h[strings.LastIndexByte(h, '@')+1:] // after the user part, if any
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

func allWordBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

// blobFindings finds a run of 40 or more base64 characters with upper case,
// lower case and digits, or of 64 or more hexadecimal digits.
func (a *analysis) blobFindings(item textItem) {
	s := item.text
	for i := 0; i < len(s); {
		j, k := i, blobKind{hexOnly: true}
		for ; j < len(s) && isBase64Byte(s[j]); j++ {
			k.add(s[j])
		}
		if k.blob(j - i) {
			a.add(item.tool, item.pointer, "encoded-blob", quote(excerpt(s, i)))
			return
		}
		i = j + 1
	}
}

// blobKind is what a run of base64 characters holds.
type blobKind struct{ upper, lower, digit, hexOnly bool }

func (k *blobKind) add(c byte) {
	k.upper = k.upper || isUpper(c)
	k.lower = k.lower || isLower(c)
	k.digit = k.digit || isDigit(c)
	k.hexOnly = k.hexOnly && isHexDigit(c)
}

// blob reports whether a run of n such characters is an encoded blob.
func (k blobKind) blob(n int) bool {
	return (n >= 40 && k.upper && k.lower && k.digit && !k.hexOnly) || (n >= 64 && k.hexOnly)
}

func isBase64Byte(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '+' || c == '/' || c == '='
}

// recipientWords are the words of an instruction to copy a message.
var recipientWords = map[string]bool{"bcc": true, "cc": true, "copy": true, "forward": true, "redirect": true,
	"proxy": true, "relay": true, "recipient": true}

// recipientFindings: an e-mail address (not at an example domain) or a
// phone number in the same text as bcc, copy, forward, relay, proxy or
// recipient.
func (a *analysis) recipientFindings(item textItem, lower string, words []word) {
	at := contactAt(lower)
	if at < 0 || item.kind != kindProse {
		return
	}
	for _, w := range words {
		if recipientWords[w.text] {
			a.add(item.tool, item.pointer, "copy-to-recipient", quote(excerpt(item.text, at)))
			return
		}
	}
}

// exampleDomains are the names reserved for documentation (RFC 2606, RFC
// 6761) and placeholders honest tools use in examples.
var exampleDomains = []string{"example.com", "example.org", "example.net", "example", "test", "localhost",
	"invalid", "domain.com", "company.com", "email.com", "yourdomain.com", "acme.com"}

// contactAt is the offset of an e-mail address outside the example domains,
// or of an international phone number (+ and 8 to 15 digits), or -1.
func contactAt(lower string) int {
	for off := 0; ; {
		i := strings.IndexAny(lower[off:], "@+")
		if i < 0 {
			return -1
		}
		i += off
		off = i + 1
		if lower[i] == '+' {
			if n := countDigits(lower[i+1:]); n >= 8 && n <= 15 && (i == 0 || !isWordByte(lower[i-1])) {
				return i
			}
			continue
		}
		if start, domain := emailAround(lower, i); domain != "" && !exampleDomain(domain) {
			return start
		}
	}
}

func countDigits(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n < len(s) && isWordByte(s[n]) {
		return 0
	}
	return n
}

// emailAround reads the address whose '@' is at i: its start and its domain
// ("" when it is not an address: no local part, no dot in the domain).
func emailAround(s string, i int) (int, string) {
	start := i
	for start > 0 && (isWordByte(s[start-1]) || strings.IndexByte(".-+", s[start-1]) >= 0) {
		start--
	}
	end := i + 1
	for end < len(s) && (isWordByte(s[end]) || s[end] == '.' || s[end] == '-') {
		end++
	}
	domain := strings.TrimRight(s[i+1:end], ".-")
	if start == i || !strings.Contains(domain, ".") {
		return i, ""
	}
	return start, domain
}

func exampleDomain(d string) bool {
	for _, e := range exampleDomains {
		if d == e || strings.HasSuffix(d, "."+e) {
			return true
		}
	}
	return false
}
