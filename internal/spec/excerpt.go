package spec

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// This file quotes the neighbourhood of a problem in a document written on
// one line, where a line and column would say nothing: jsonencode writes
// documents so, and the docs recommend jsonencode(jsondecode(file(...))). A
// pointer such as /skills/2/tags names an array index that no text search
// finds in the file the document came from; the excerpt quotes the value
// beside the members around it and the id and name of the skill (or tool,
// or interface) it belongs to, which a search does find, whatever the
// file's formatting:
//
//	{"description": …, "id": "summarize", "name": "Summarize", "tags": "a,b"}

// Bounds of an excerpt: the members shown of one object or array, and the
// characters of a value quoted (the offending one and the landmarks, any
// other).
const (
	excerptMembers  = 8
	excerptFocusLen = 60
	excerptValueLen = 24
)

// landmarks are the members that identify an element of a list to a reader:
// a skill's or a tool's id and name, an interface's url.
var landmarks = []string{"id", "name", "url"}

// excerpt quotes the value at ptr in root with its neighbours, or "" where
// the pointer is its own best guide: the root, and a member of the root,
// whose name occurs once in the document.
func excerpt(root any, ptr string) string {
	tokens := jsoncanon.SplitPointer(ptr)
	v, ok := lookup(root, ptr)
	if len(tokens) < 2 || !ok {
		return ""
	}
	last := tokens[len(tokens)-1]
	parentPtr := parentPointer(ptr)
	var text, above string
	switch p := lookupParent(root, ptr).(type) {
	case map[string]any:
		if obj, isObj := v.(map[string]any); isObj {
			// The object itself: its members are the neighbours.
			text, above = preview(last)+": "+renderObject(obj, ""), ptr
		} else {
			text, above = renderObject(p, last), parentPtr
		}
	case []any:
		if obj, isObj := v.(map[string]any); isObj {
			text, above = renderObject(obj, ""), ptr
		} else {
			i, _ := strconv.Atoi(last)
			text, above = renderArray(p, i), parentPtr
			if _, inObject := lookupParent(root, parentPtr).(map[string]any); inObject {
				text = preview(lastToken(parentPtr)) + ": " + text
			}
		}
	}
	if owner := landmarkAbove(root, above); owner != "" {
		text += " in " + owner
	}
	return text
}

// lookupParent is the container of the value at ptr.
func lookupParent(root any, ptr string) any {
	v, _ := lookup(root, parentPointer(ptr))
	return v
}

// landmarkAbove renders the nearest element of a list above ptr that has
// landmark members, with those members only; "" when there is none.
func landmarkAbove(root any, ptr string) string {
	for p := parentPointer(ptr); p != ""; p = parentPointer(p) {
		if _, err := strconv.Atoi(lastToken(p)); err != nil {
			continue
		}
		obj, _ := lookup(root, p)
		m, _ := obj.(map[string]any)
		var parts []string
		for _, k := range landmarks {
			if s, ok := m[k].(string); ok {
				parts = append(parts, preview(k)+": "+quoteShort(s, excerptFocusLen))
			}
		}
		if len(parts) > 0 {
			return "{" + strings.Join(parts, ", ") + ", …}"
		}
	}
	return ""
}

// renderObject writes obj with its members in key order: the focus member's
// value quoted at length, the other values short; at most excerptMembers
// members, the focus and the landmarks first among them.
func renderObject(obj map[string]any, focus string) string {
	keys := sortedKeys(obj)
	shown := map[string]bool{}
	for _, k := range append(append([]string{focus}, landmarks...), keys...) {
		if _, ok := obj[k]; ok && len(shown) < excerptMembers {
			shown[k] = true
		}
	}
	parts := make([]string, 0, len(shown)+1)
	for _, k := range keys {
		if !shown[k] {
			continue
		}
		limit := excerptValueLen
		if k == focus || slices.Contains(landmarks, k) {
			limit = excerptFocusLen
		}
		parts = append(parts, preview(k)+": "+renderValue(obj[k], limit))
	}
	if len(shown) < len(keys) {
		parts = append(parts, "…")
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// renderArray writes list with the element at focus quoted at length and
// the others as renderObject writes members, at most excerptMembers of them
// around the focus.
func renderArray(list []any, focus int) string {
	from := max(0, focus-excerptMembers/2)
	to := min(len(list), from+excerptMembers)
	var parts []string
	if from > 0 {
		parts = append(parts, "…")
	}
	for i := from; i < to; i++ {
		limit := excerptValueLen
		if i == focus {
			limit = excerptFocusLen
		}
		parts = append(parts, renderValue(list[i], limit))
	}
	if to < len(list) {
		parts = append(parts, "…")
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// renderValue quotes a value in at most about limit characters: a string
// cut with an ellipsis, a container in full when short enough, else elided.
func renderValue(v any, limit int) string {
	var b strings.Builder
	switch c := v.(type) {
	case string:
		return quoteShort(c, limit)
	case map[string]any:
		if writeSpaced(&b, v, limit) {
			return b.String()
		}
		return "{…}"
	case []any:
		if writeSpaced(&b, v, limit) {
			return b.String()
		}
		return "[…]"
	}
	return preview(v) // a number or a literal: never cut
}

// writeSpaced writes v as JSON with a space after each comma and colon, as
// the rest of an excerpt reads, and reports whether it took at most limit
// bytes; it stops early when it does not (a container may be large).
func writeSpaced(b *strings.Builder, v any, limit int) bool {
	switch c := v.(type) {
	case map[string]any:
		b.WriteByte('{')
		for i, k := range sortedKeys(c) {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(preview(k) + ": ")
			if !writeSpaced(b, c[k], limit) {
				return false
			}
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range c {
			if i > 0 {
				b.WriteString(", ")
			}
			if !writeSpaced(b, x, limit) {
				return false
			}
		}
		b.WriteByte(']')
	default:
		b.WriteString(preview(v))
	}
	return b.Len() <= limit
}

// quoteShort quotes s, cut to limit characters with an ellipsis.
func quoteShort(s string, limit int) string {
	if utf8.RuneCountInString(s) > limit {
		s = strings.TrimRight(string([]rune(s)[:limit]), " ") + "…"
	}
	return preview(s)
}
