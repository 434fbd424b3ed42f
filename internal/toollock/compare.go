package toollock

import (
	"fmt"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
)

// MaxChangesPerTool bounds the changes listed for one tool: a rewritten
// schema could otherwise fill a terminal. The rest are counted.
const MaxChangesPerTool = 20

// maxShown bounds each value shown in a change, in bytes.
const maxShown = 400

// Kind says how a tool differs from its approval.
type Kind int

// The kinds of Difference.
const (
	// New: the tool spec has a tool the lock does not approve.
	New Kind = iota
	// Missing: the lock approves a tool the tool spec no longer has.
	Missing
	// Changed: a field of an approved tool differs.
	Changed
	// More: Changed differences of the tool beyond MaxChangesPerTool, counted in Field.
	More
)

// Difference is one way a tool spec differs from a lock.
type Difference struct {
	Kind Kind
	Tool string
	// Field is the tool's member that differs (description, inputSchema...);
	// Pointer, the RFC 6901 pointer inside it ("" for the member itself).
	Field, Pointer string
	// Approved and Now are the values, as shown ("" when absent).
	Approved, Now string
}

// String is the difference in one line, with the peer's text quoted so that
// no control or format character reaches a terminal.
func (d Difference) String() string {
	tool := "tool " + strconv.Quote(d.Tool)
	switch d.Kind {
	case New:
		return tool + ": new, not in the approved tools"
	case Missing:
		return tool + ": approved, no longer in the tool spec"
	case More:
		return tool + ": and " + d.Field + " more changes"
	}
	where := tool + ", " + termsafe.Escape(d.Field)
	if d.Pointer != "" {
		where += " at " + termsafe.Escape(d.Pointer)
	}
	switch {
	case d.Approved == "":
		return where + ": added, now " + d.Now
	case d.Now == "":
		return where + ": removed, approved " + d.Approved
	}
	return where + ": approved " + d.Approved + ", now " + d.Now
}

// Compare lists how tools differ from the lock: the tool spec's tools in
// their order (new ones, and each changed field of a changed one, its
// changes sorted by pointer), then the approved tools it no longer has, by
// name. Empty when every tool equals its approved definition.
func Compare(lock *Lock, tools []Tool) []Difference {
	var diffs []Difference
	present := make(map[string]bool, len(tools))
	for _, t := range tools {
		present[t.Name] = true
		approved, ok := lock.Tools[t.Name]
		switch {
		case !ok:
			diffs = append(diffs, Difference{Kind: New, Tool: t.Name})
		case approved.Digest != t.Digest:
			diffs = append(diffs, changes(t.Name, approved.Definition, t.Definition)...)
		}
	}
	var missing []string
	for name := range lock.Tools {
		if !present[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	for _, name := range missing {
		diffs = append(diffs, Difference{Kind: Missing, Tool: name})
	}
	return diffs
}

// changes lists the differing fields of one tool, at most
// MaxChangesPerTool, then a More that counts the rest.
func changes(tool string, approved, now map[string]any) []Difference {
	var all []Difference
	for _, field := range unionKeys(approved, now) {
		walk(&all, Difference{Kind: Changed, Tool: tool, Field: field}, approved[field], now[field],
			hasKey(approved, field), hasKey(now, field))
	}
	if len(all) > MaxChangesPerTool {
		rest := len(all) - MaxChangesPerTool
		all = append(all[:MaxChangesPerTool], Difference{Kind: More, Tool: tool, Field: strconv.Itoa(rest)})
	}
	return all
}

// walk appends the differences between a and b (present on each side or
// not) under d's field and pointer: objects by member, arrays by index,
// anything else as one change.
func walk(out *[]Difference, d Difference, a, b any, inA, inB bool) {
	if inA && inB && (same(a, b) || walkInside(out, d, a, b)) {
		return
	}
	*out = append(*out, leaf(d, a, b, inA, inB))
}

// walkInside walks two objects by member, or two arrays by index; false for
// any other pair of values, which differ as a whole.
func walkInside(out *[]Difference, d Difference, a, b any) bool {
	am, aObj := a.(map[string]any)
	bm, bObj := b.(map[string]any)
	if aObj && bObj {
		for _, k := range unionKeys(am, bm) {
			sub := d
			sub.Pointer += "/" + jsoncanon.EscapeToken(k)
			walk(out, sub, am[k], bm[k], hasKey(am, k), hasKey(bm, k))
		}
		return true
	}
	aa, aArr := a.([]any)
	ba, bArr := b.([]any)
	if aArr && bArr {
		for i := 0; i < max(len(aa), len(ba)); i++ {
			sub := d
			sub.Pointer += "/" + strconv.Itoa(i)
			walk(out, sub, at(aa, i), at(ba, i), i < len(aa), i < len(ba))
		}
		return true
	}
	return false
}

// leaf is the difference of two values that differ as a whole (one may be
// absent): two texts from a little before where they part, else each value.
func leaf(d Difference, a, b any, inA, inB bool) Difference {
	as, aText := a.(string)
	bs, bText := b.(string)
	if aText && bText {
		d.Approved, d.Now = showTexts(as, bs)
		return d
	}
	if inA {
		d.Approved = show(a)
	}
	if inB {
		d.Now = show(b)
	}
	return d
}

// contextBytes is how much of the text two changed strings share that is
// shown before their first difference.
const contextBytes = 60

// showTexts shows two changed texts from a little before their first
// difference, so that an instruction appended to a long description is in
// the message and not past its cut.
func showTexts(a, b string) (string, string) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	start := max(0, p-contextBytes)
	for start > 0 && !utf8.RuneStart(a[start]) {
		start--
	}
	if start == 0 {
		return show(a), show(b)
	}
	return cut(`"…` + strconv.Quote(a[start:])[1:]), cut(`"…` + strconv.Quote(b[start:])[1:])
}

// same compares two values as the digest does: by canonical bytes.
func same(a, b any) bool {
	return string(canonical(a)) == string(canonical(b))
}

func at(a []any, i int) any {
	if i < len(a) {
		return a[i]
	}
	return nil
}

func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

func unionKeys(a, b map[string]any) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if !hasKey(a, k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// show writes a value for a message: a string quoted (Go escapes, which
// leave no control or format character), anything else as compact JSON with
// such characters escaped; longer than maxShown bytes, cut (see cut).
func show(v any) string {
	text := string(jsoncanon.AppendCompact(nil, v))
	if s, ok := v.(string); ok {
		text = strconv.Quote(s)
	} else {
		text = termsafe.Escape(text)
	}
	return cut(text)
}

// cut keeps at most maxShown bytes of a shown value, with a count of the rest.
func cut(text string) string {
	if len(text) <= maxShown {
		return text
	}
	end := maxShown
	for end > 0 && !utf8.RuneStart(text[end]) {
		end--
	}
	return fmt.Sprintf("%s… (%d more bytes)", text[:end], len(text)-end)
}
