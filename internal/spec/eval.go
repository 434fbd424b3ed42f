package spec

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// This file evaluates a document against a schema compiled by
// santhosh-tekuri/jsonschema. The library compiles the embedded schemas
// (checking them against the draft-07 meta-schema and resolving every $ref,
// offline); the evaluation below walks its compiled *jsonschema.Schema
// directly. It supports the keywords the embedded schemas use, allocates
// only when it finds a problem, and emits findings with the pointer, the
// expected and the found value already known. A schema that uses any other
// keyword is validated with the library's own Validate instead (see
// fastEvaluable); tests check that both agree.

// fastEvaluable reports whether every schema reachable from s uses only the
// keywords that evaluator.eval implements.
func fastEvaluable(s *jsonschema.Schema, seen map[*jsonschema.Schema]bool) bool {
	if s == nil || seen[s] {
		return true
	}
	seen[s] = true
	if s.RecursiveRef != nil || s.DynamicRef != nil || s.PropertyNames != nil || s.RegexProperties ||
		len(s.Dependencies) > 0 || len(s.DependentRequired) > 0 || len(s.DependentSchemas) > 0 ||
		s.UnevaluatedProperties != nil || s.UnevaluatedItems != nil || s.AdditionalItems != nil ||
		len(s.PrefixItems) > 0 || s.Contains != nil || s.UniqueItems || s.ContentEncoding != "" ||
		s.ContentMediaType != "" || s.ContentSchema != nil || s.ExclusiveMinimum != nil ||
		s.Maximum != nil || s.ExclusiveMaximum != nil || s.MultipleOf != nil || len(s.Extensions) > 0 {
		return false
	}
	if s.Format != "" && jsonschema.Formats[s.Format] == nil {
		return false
	}
	children := []*jsonschema.Schema{s.Ref, s.Not, s.If, s.Then, s.Else}
	children = append(children, s.AllOf...)
	children = append(children, s.AnyOf...)
	children = append(children, s.OneOf...)
	for _, p := range s.Properties {
		children = append(children, p)
	}
	for _, p := range s.PatternProperties {
		children = append(children, p)
	}
	if ap, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
		children = append(children, ap)
	}
	switch items := s.Items.(type) {
	case nil:
	case *jsonschema.Schema:
		children = append(children, items)
	default:
		return false
	}
	for _, c := range children {
		if !fastEvaluable(c, seen) {
			return false
		}
	}
	return true
}

// pathTok is one token of the JSON pointer of the value being evaluated; the
// evaluator keeps them on a stack and turns them into a string only when a
// problem is found.
type pathTok struct {
	key   string
	index int // the array index, when isIdx
	isIdx bool
}

// ptr returns the JSON pointer of the value being evaluated.
func (ev *evaluator) ptr() string {
	if len(ev.stack) == 0 {
		return ""
	}
	var b strings.Builder
	for _, t := range ev.stack {
		b.WriteByte('/')
		if t.isIdx {
			b.WriteString(strconv.Itoa(t.index))
		} else {
			b.WriteString(escapePointer(t.key))
		}
	}
	return b.String()
}

func (ev *evaluator) pushKey(k string) { ev.stack = append(ev.stack, pathTok{key: k}) }

func (ev *evaluator) pushIndex(i int) { ev.stack = append(ev.stack, pathTok{index: i, isIdx: true}) }

func (ev *evaluator) pop() { ev.stack = ev.stack[:len(ev.stack)-1] }

type evaluator struct {
	c     *check
	pol   schemaPolicy
	stack []pathTok
}

// eval reports whether v is valid against s. With emit, every failure is
// added to the check as a finding; without, it stops at the first one.
func (ev *evaluator) eval(s *jsonschema.Schema, v any, emit bool) bool {
	if s.Always != nil {
		if !*s.Always && emit {
			ev.c.add(SeverityError, ev.ptr(), false, "value not allowed here, found %s", describe(v))
		}
		return *s.Always
	}
	ok := true
	if s.Ref != nil {
		if !ev.eval(s.Ref, v, emit) {
			if !emit {
				return false
			}
			ok = false
		}
	}
	if len(s.Types) > 0 && !typeMatches(s.Types, v) {
		if emit {
			ev.c.add(SeverityError, ev.ptr(), false, "expected %s, found %s", strings.Join(s.Types, " or "), jsonType(v))
		}
		return false
	}
	fail := func(format string, args ...any) {
		ok = false
		if emit {
			ev.c.add(SeverityError, ev.ptr(), false, format, args...)
		}
	}
	if len(s.Constant) > 0 && !jsonEqual(v, s.Constant[0]) {
		fail("expected %s, found %s", preview(s.Constant[0]), describe(v))
	}
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e any) bool { return jsonEqual(v, e) }) {
		parts := make([]string, 0, len(s.Enum))
		for _, e := range s.Enum {
			parts = append(parts, preview(e))
		}
		fail("expected one of %s, found %s", strings.Join(parts, ", "), describe(v))
	}
	if s.Format != "" && !jsonschema.Formats[s.Format](v) {
		fail("expected a valid %s, found %s", s.Format, describe(v))
	}
	if !ok && !emit {
		return false
	}

	switch v := v.(type) {
	case *object:
		if !ev.object(s, v, emit) {
			if !emit {
				return false
			}
			ok = false
		}
	case []any:
		if s.MinItems >= 0 && len(v) < s.MinItems {
			fail("expected at least %d items, found %d", s.MinItems, len(v))
		}
		if s.MaxItems >= 0 && len(v) > s.MaxItems {
			fail("expected at most %d items, found %d", s.MaxItems, len(v))
		}
		if items, isSchema := s.Items.(*jsonschema.Schema); isSchema {
			for i, item := range v {
				ev.pushIndex(i)
				valid := ev.eval(items, item, emit)
				ev.pop()
				if !valid {
					if !emit {
						return false
					}
					ok = false
				}
			}
		}
	case string:
		if s.MinLength >= 0 || s.MaxLength >= 0 {
			n := utf8.RuneCountInString(v)
			if s.MinLength >= 0 && n < s.MinLength {
				fail("expected at least %d characters, found %d", s.MinLength, n)
			}
			if s.MaxLength >= 0 && n > s.MaxLength {
				fail("expected at most %d characters, found %d", s.MaxLength, n)
			}
		}
		if s.Pattern != nil && !s.Pattern.MatchString(v) {
			fail("expected a string matching %s, found %s", s.Pattern, describe(v))
		}
	case json.Number:
		if s.Minimum != nil {
			if r, isNum := new(big.Rat).SetString(string(v)); isNum && r.Cmp(s.Minimum) < 0 {
				fail("expected a number >= %s, found %s", s.Minimum.RatString(), v)
			}
		}
	}
	if !ok && !emit {
		return false
	}

	for _, sub := range s.AllOf {
		if !ev.eval(sub, v, emit) {
			if !emit {
				return false
			}
			ok = false
		}
	}
	if len(s.AnyOf) > 0 && !slices.ContainsFunc(s.AnyOf, func(sub *jsonschema.Schema) bool { return ev.eval(sub, v, false) }) {
		if names := requiredAliases(s.AnyOf); names != nil {
			fail("missing required property %q (also accepted as %q)", names[0], names[1])
		} else {
			fail("expected a value matching one of the allowed forms (anyOf), found %s", describe(v))
		}
	}
	if len(s.OneOf) > 0 {
		n := 0
		for _, sub := range s.OneOf {
			if ev.eval(sub, v, false) {
				n++
			}
		}
		if n != 1 {
			fail("expected a value matching one of the allowed forms (oneOf), found %s", describe(v))
		}
	}
	if s.Not != nil && ev.eval(s.Not, v, false) {
		fail("expected a value not matching the excluded form, found %s", describe(v))
	}
	if s.If != nil {
		branch := s.Else
		if ev.eval(s.If, v, false) {
			branch = s.Then
		}
		if branch != nil && !ev.eval(branch, v, emit) {
			ok = false
		}
	}
	return ok
}

func (ev *evaluator) object(s *jsonschema.Schema, obj *object, emit bool) bool {
	ok := true
	if n := len(obj.members); s.MinProperties >= 0 && n < s.MinProperties || s.MaxProperties >= 0 && n > s.MaxProperties {
		ok = false
		if !emit {
			return false
		}
		ev.c.add(SeverityError, ev.ptr(), false, "%s", propertyCountMessage(s.MinProperties, s.MaxProperties, sortedKeys(s.Properties), obj.keys()))
	}
	for _, name := range s.Required {
		if !obj.has(name) {
			ok = false
			if !emit {
				return false
			}
			ev.c.add(SeverityError, ev.ptr(), false, "missing required property %q", name)
		}
	}
	var unknown []string
	for i := range obj.members {
		k, val := obj.members[i].key, obj.members[i].val
		matched := false
		if sub, has := s.Properties[k]; has {
			matched = true
			if !ev.evalKey(sub, val, k, emit) {
				ok = false
				if !emit {
					return false
				}
			}
		}
		if len(s.PatternProperties) > 0 {
			for re, sub := range s.PatternProperties {
				if re.MatchString(k) {
					matched = true
					if !ev.evalKey(sub, val, k, emit) {
						ok = false
						if !emit {
							return false
						}
					}
				}
			}
		}
		if matched {
			continue
		}
		switch ap := s.AdditionalProperties.(type) {
		case bool:
			if !ap {
				unknown = append(unknown, k)
			}
		case *jsonschema.Schema:
			if !ev.evalKey(ap, val, k, emit) {
				ok = false
				if !emit {
					return false
				}
			}
		}
	}
	if len(unknown) > 0 {
		// An unknown property only fails validation when the policy makes it
		// an error; as a warning it does not make the document invalid.
		if ev.pol.unknownSeverity != SeverityWarning {
			ok = false
		}
		if !emit {
			return ok
		}
		slices.Sort(unknown)
		allowed := sortedKeys(s.Properties)
		prefix := ev.ptr()
		for _, k := range unknown {
			ev.c.add(ev.pol.unknownSeverity, prefix+"/"+escapePointer(k), true, "%s", unknownMessage(ev.pol, k, allowed))
		}
	}
	return ok
}

// evalKey evaluates the member k of the current object.
func (ev *evaluator) evalKey(s *jsonschema.Schema, v any, k string, emit bool) bool {
	ev.pushKey(k)
	valid := ev.eval(s, v, emit)
	ev.pop()
	return valid
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// unknownMessage explains an additionalProperties failure.
func unknownMessage(pol schemaPolicy, key string, allowed []string) string {
	msg := fmt.Sprintf("unknown property %q: not allowed here", key)
	if pol.unknownWhat != "" {
		msg = fmt.Sprintf(pol.unknownWhat, key)
	}
	if s := suggest(key, allowed); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	} else if pol.unknownSeverity == SeverityError {
		msg += "; expected one of: " + strings.Join(allowed, ", ")
	}
	return msg
}

// propertyCountMessage explains a minProperties/maxProperties failure; with
// both equal to 1 (a protobuf oneof) it names the alternatives.
// names are the object's member names.
func propertyCountMessage(minP, maxP int, allowed []string, names []string) string {
	if minP == 1 && maxP == 1 {
		keys := make([]string, 0, len(names))
		for _, k := range names {
			keys = append(keys, strconv.Quote(k))
		}
		slices.Sort(keys)
		found := "none"
		if len(keys) > 0 {
			found = fmt.Sprintf("%d (%s)", len(keys), strings.Join(keys, ", "))
		}
		return fmt.Sprintf("expected exactly one of %s, found %s", strings.Join(allowed, ", "), found)
	}
	if minP >= 0 && len(names) < minP {
		return fmt.Sprintf("expected at least %d properties, found %d", minP, len(names))
	}
	return fmt.Sprintf("expected at most %d properties, found %d", maxP, len(names))
}

func typeMatches(types []string, v any) bool {
	jt := jsonType(v)
	for _, t := range types {
		if t == jt {
			return true
		}
		if t == "integer" && jt == "number" && isInteger(v) {
			return true
		}
	}
	return false
}

func isInteger(v any) bool {
	switch n := v.(type) {
	case json.Number:
		if _, err := n.Int64(); err == nil {
			return true
		}
		r, ok := new(big.Rat).SetString(string(n))
		return ok && r.IsInt()
	case float64:
		return n == float64(int64(n))
	}
	return false
}

// jsonEqual compares two decoded JSON values, numbers by value.
func jsonEqual(a, b any) bool {
	switch a := a.(type) {
	case json.Number, float64:
		ra, ok1 := toRat(a)
		rb, ok2 := toRat(b)
		return ok1 && ok2 && ra.Cmp(rb) == 0
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case nil:
		return b == nil
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !jsonEqual(a[i], bl[i]) {
				return false
			}
		}
		return true
	case *object:
		switch b := b.(type) {
		case *object:
			if len(a.members) != len(b.members) {
				return false
			}
			for i := range a.members {
				if a.members[i].key != b.members[i].key || !jsonEqual(a.members[i].val, b.members[i].val) {
					return false
				}
			}
			return true
		case map[string]any:
			if len(a.members) != len(b) {
				return false
			}
			for _, m := range a.members {
				bv, has := b[m.key]
				if !has || !jsonEqual(m.val, bv) {
					return false
				}
			}
			return true
		}
		return false
	case map[string]any:
		if bo, ok := b.(*object); ok {
			return jsonEqual(bo, a)
		}
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			bv, has := bm[k]
			if !has || !jsonEqual(av, bv) {
				return false
			}
		}
		return true
	}
	return false
}

func toRat(v any) (*big.Rat, bool) {
	switch n := v.(type) {
	case json.Number:
		return new(big.Rat).SetString(string(n))
	case float64:
		r := new(big.Rat)
		if r.SetFloat64(n) == nil {
			return nil, false
		}
		return r, true
	}
	return nil, false
}

// requiredAliases returns the two names of a required field that may be spelt
// either way, when anyOf is the embedded schemas' form of it: two alternatives
// that each only require one name (the A2A 1.0 card's lowerCamelCase JSON name
// and its snake_case proto name). Otherwise nil.
func requiredAliases(anyOf []*jsonschema.Schema) []string {
	if len(anyOf) != 2 {
		return nil
	}
	var names []string
	for _, sub := range anyOf {
		if len(sub.Required) != 1 || len(sub.Properties) > 0 || len(sub.Types) > 0 || sub.Ref != nil {
			return nil
		}
		names = append(names, sub.Required[0])
	}
	return names
}
