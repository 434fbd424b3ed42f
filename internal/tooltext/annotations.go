package tooltext

import "strings"

// Annotation contradictions: readOnlyHint on a tool that says it changes or
// sends something.

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
