package jsoncanon

import (
	"strconv"
	"strings"
)

// EscapeToken escapes one RFC 6901 reference token: "~" first, then "/", so
// that a key "x/y" is "x~1y" and "a~b" is "a~0b" (the other order would turn
// "x/y" into "x~01y").
func EscapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// SplitPointer splits an RFC 6901 pointer into its unescaped tokens ("~1"
// first, then "~0", the reverse of EscapeToken). The root "" has none.
func SplitPointer(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range parts {
		if strings.Contains(s, "~") {
			parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
		}
	}
	return parts
}

// pathToken is one step of the path to the value being read: a member name
// or an array index.
type pathToken struct {
	key   string
	index int // when key is not set
	isKey bool
}

// pointer renders a path as an RFC 6901 pointer.
func pointer(path []pathToken) string {
	var b strings.Builder
	for _, t := range path {
		b.WriteByte('/')
		if t.isKey {
			b.WriteString(EscapeToken(t.key))
		} else {
			b.WriteString(strconv.Itoa(t.index))
		}
	}
	return b.String()
}
