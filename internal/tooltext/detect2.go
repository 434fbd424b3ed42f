package tooltext

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

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
	k.upper = k.upper || c >= 'A' && c <= 'Z'
	k.lower = k.lower || c >= 'a' && c <= 'z'
	k.digit = k.digit || c >= '0' && c <= '9'
	k.hexOnly = k.hexOnly && (c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
}

// blob reports whether a run of n such characters is an encoded blob.
func (k blobKind) blob(n int) bool {
	return (n >= 40 && k.upper && k.lower && k.digit && !k.hexOnly) || (n >= 64 && k.hexOnly)
}

func isBase64Byte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '='
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
	for off := 0; off < len(lower); {
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
	return -1
}

func countDigits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
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

// identifierFindings: a sentence (four or more words) where a name is
// expected: a property name, a required entry, a type or a format.
func (a *analysis) identifierFindings(item textItem, words []word) {
	if item.kind != kindIdentifier || len(words) < 4 || !strings.ContainsRune(item.text, ' ') {
		return
	}
	switch item.keyword {
	case "properties", "required", "type", "format":
		a.add(item.tool, item.pointer, "sentence-as-identifier", quote(escapeHidden(item.text)))
	}
}

// identWords splits a name into lowercase words at separators and at
// lower-to-upper case changes: systemPrompt is "system", "prompt".
func identWords(name string) []string {
	var out []string
	var b strings.Builder
	var prev rune
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range name {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				flush()
			}
			b.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
		prev = r
	}
	flush()
	return out
}

// sensitiveParamWords: a parameter named with one of these words, or with
// both words of a pair, asks for what a model should not hand over.
var (
	sensitiveParamWords = []string{"sidenote", "idrsa", "rsa", "chathistory", "systemprompt"}
	sensitiveParamPairs = [][2]string{{"side", "note"}, {"private", "key"}, {"ssh", "key"}, {"chat", "history"},
		{"conversation", "history"}, {"conversation", "context"},
		{"system", "prompt"}, {"previous", "message"}, {"previous", "messages"}, {"last", "messages"},
		{"mcp", "json"}, {"api", "keys"}}
)

// checkParameterName applies sensitive-parameter to a property's name; only
// the properties of a tool's input (at the schema's top level or one level
// down) are parameters the model fills in.
func (a *analysis) checkParameterName(i int, pointer, name string, depth int) {
	if depth > 2 {
		return
	}
	a.info[i].params[name] = true
	words := identWords(name)
	has := map[string]bool{}
	for _, w := range words {
		has[w] = true
	}
	hit := false
	for _, w := range sensitiveParamWords {
		hit = hit || has[w]
	}
	for _, p := range sensitiveParamPairs {
		hit = hit || has[p[0]] && has[p[1]]
	}
	if hit {
		a.add(i, pointer, "sensitive-parameter", quote(escapeHidden(name)))
	}
}

// changingVerbs start the name or the description of a tool that changes
// something or sends something out.
var changingVerbs = map[string]bool{"delete": true, "remove": true, "drop": true, "destroy": true, "erase": true,
	"purge": true, "wipe": true, "truncate": true, "kill": true, "terminate": true, "overwrite": true,
	"write": true, "create": true, "update": true, "modify": true, "edit": true, "insert": true, "send": true,
	"post": true, "publish": true, "upload": true, "push": true, "email": true, "transfer": true, "pay": true,
	"move": true, "rename": true, "merge": true}

// checkReadOnly: readOnlyHint true on a tool whose name or first word
// changes or sends something.
func (a *analysis) checkReadOnly(i int) {
	info := &a.info[i]
	if !info.readOnly {
		return
	}
	verb := ""
	if w := identWords(info.name); len(w) > 0 && changingVerbs[w[0]] {
		verb = w[0]
	} else if w := foldWords(info.description); len(w) > 0 && changingVerbs[stem(w[0].text)] {
		verb = w[0].text
	}
	if verb != "" {
		a.add(i, toolPointer(i)+"/annotations/readOnlyHint", "read-only-contradiction",
			`readOnlyHint is true, and the tool says "`+escapeHidden(verb)+`"`)
	}
}

// stem drops the third person's s ("deletes" is "delete", "pushes" is
// "push").
func stem(w string) string {
	if strings.HasSuffix(w, "es") && changingVerbs[w[:len(w)-2]] {
		return w[:len(w)-2]
	}
	return strings.TrimSuffix(w, "s")
}

// Flooding: a description more than floodRatio times the median of the
// document's other descriptions, and over floodMinimum characters.
const (
	floodRatio   = 8
	floodMinimum = 4000
	floodPeers   = 3
)

func (a *analysis) checkFlood() {
	lengths := make([]int, len(a.info))
	var all []int
	for i, t := range a.info {
		lengths[i] = utf8.RuneCountInString(t.description)
		if t.descPointer != "" {
			all = append(all, lengths[i])
		}
	}
	if len(all) <= floodPeers {
		return
	}
	sort.Ints(all)
	median := max(all[len(all)/2], 1)
	for i, t := range a.info {
		if t.descPointer != "" && lengths[i] > floodMinimum && lengths[i] > floodRatio*median {
			a.add(i, t.descPointer, "description-flood", "the description has "+strconv.Itoa(lengths[i])+
				" characters; the median of this document's descriptions is "+strconv.Itoa(median))
		}
	}
}
