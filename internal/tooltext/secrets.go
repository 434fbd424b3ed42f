package tooltext

import (
	"sort"
	"strings"
)

// Sensitive resources: the files a poisoned tool tells the model to read.

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
	switch {
	case item.kind == kindProse && (takenAt(words, strong) || takenAt(words, weak)):
		a.add(item.tool, item.pointer, "secret-file-instruction", quote(excerpt(item.text, max(strong, weak))))
	case strong >= 0:
		a.add(item.tool, item.pointer, "secret-file", quote(excerpt(item.text, strong)))
	}
}

// takenAt reports whether a take verb is among the takeDistance words before
// the byte offset at (-1: nothing there, and no word is before it).
func takenAt(words []word, at int) bool {
	j := sort.Search(len(words), func(k int) bool { return words[k].at >= at })
	for _, w := range words[max(0, j-takeDistance):j] {
		if takeVerbs[w.text] {
			return true
		}
	}
	return false
}

// findAny is the offset of the first needle found between word boundaries
// (so that "process.env" and "id_rsa_pub_count" are not files), or -1.
func findAny(s string, needles []string) int {
	for _, n := range needles {
		for off := 0; ; {
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
