package search

// The filter of skills.list and skills:search, as the discovery document
// describes it: comparisons of state and targetState (=), and of createTime
// and updateTime (=, < and >, with RFC 3339 timestamps), joined by AND
// (or juxtaposition), OR, NOT and parentheses (AIP-160). It is parsed as a
// filter and applied as a predicate, never joined to the search string, so
// that no filter can change what the search string means.
//
//	filter     = [ or ] EOF
//	or         = and { "OR" and }
//	and        = unary { [ "AND" ] unary }
//	unary      = "NOT" unary | primary
//	primary    = "(" or ")" | comparison
//	comparison = field ( "=" | "<" | ">" ) value
//	value      = word | '"' chars '"'
//
// A filter is bounded like a search string (searchquery.MaxLength
// characters, MaxTerms comparisons, MaxDepth levels of nesting).

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

// SkillFilter is a parsed filter: nil matches every skill.
type SkillFilter func(*resource.Skill) bool

// skillFilterFields are the fields a filter compares, by the names it
// accepts (the JSON name and the proto one), with the operators each takes.
var skillFilterFields = map[string]filterField{
	"state":        {"state", enumValue("STATE_", skillStates), nil},
	"targetState":  {"targetState", enumValue("TARGET_STATE_", targetStateNames()), nil},
	"target_state": {"targetState", enumValue("TARGET_STATE_", targetStateNames()), nil},
	"createTime":   {"createTime", nil, func(sk *resource.Skill) string { return sk.CreateTime }},
	"create_time":  {"createTime", nil, func(sk *resource.Skill) string { return sk.CreateTime }},
	"updateTime":   {"updateTime", nil, func(sk *resource.Skill) string { return sk.UpdateTime }},
	"update_time":  {"updateTime", nil, func(sk *resource.Skill) string { return sk.UpdateTime }},
}

// skillStates are the values of Skill.state, as the discovery document lists them.
var skillStates = []string{"STATE_CREATING", "STATE_DRAFT", "STATE_ACTIVE", "STATE_DISABLED",
	"STATE_DEPRECATED", "STATE_DECOMMISSIONED", "STATE_DELETING"}

func targetStateNames() []string {
	return []string{"TARGET_STATE_DRAFT", "TARGET_STATE_ACTIVE", "TARGET_STATE_DISABLED",
		"TARGET_STATE_DEPRECATED", "TARGET_STATE_DECOMMISSIONED"}
}

// filterField is one field of a filter: an enum (compared with =) or a
// timestamp (compared with =, < and >).
type filterField struct {
	name string
	enum func(v string) (string, error) // the enum value named by v
	time func(*resource.Skill) string
}

// enumValue accepts an enum value by its full name or without its prefix
// (the document's example is state=ACTIVE).
func enumValue(prefix string, names []string) func(string) (string, error) {
	return func(v string) (string, error) {
		for _, n := range names {
			if v == n || prefix+v == n {
				return n, nil
			}
		}
		return "", fmt.Errorf("is not one of %s (the %s prefix may be left out)", strings.Join(names, ", "), prefix)
	}
}

// ParseSkillFilter parses a filter; its errors are *searchquery.Error with the
// position (in bytes) of what is wrong.
func ParseSkillFilter(src string) (SkillFilter, error) {
	if n := utf8.RuneCountInString(src); n > searchquery.MaxLength {
		return nil, &queryError{Msg: fmt.Sprintf("the filter is %d characters long; the limit is %d", n, searchquery.MaxLength)}
	}
	p := &filterParser{src: src}
	if p.skip(); p.eof() {
		return nil, nil
	}
	f, err := p.or()
	if err == nil && !p.eof() {
		err = p.errf("unexpected %s", p.describe())
	}
	return f, err
}

type filterParser struct {
	src   string
	pos   int
	terms int
	depth int
}

func (p *filterParser) eof() bool { return p.pos >= len(p.src) }

func (p *filterParser) skip() {
	for !p.eof() && unicode.IsSpace(rune(p.src[p.pos])) {
		p.pos++
	}
}

func (p *filterParser) errf(format string, args ...any) error {
	return &queryError{Pos: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *filterParser) describe() string {
	if p.eof() {
		return "end of filter"
	}
	return fmt.Sprintf("%q", p.word())
}

// word returns the bare word at pos without consuming it: a run of
// characters other than spaces, parentheses, quotes and operators.
func (p *filterParser) word() string {
	end := p.pos
	for end < len(p.src) && !strings.ContainsRune(" \t\r\n()\"=<>!", rune(p.src[end])) {
		end++
	}
	if end == p.pos && !p.eof() {
		return p.src[p.pos : p.pos+1]
	}
	return p.src[p.pos:end]
}

// keyword consumes kw when it is the next word.
func (p *filterParser) keyword(kw string) bool {
	if p.word() != kw {
		return false
	}
	p.pos += len(kw)
	p.skip()
	return true
}

func (p *filterParser) or() (SkillFilter, error) {
	l, err := p.and()
	for err == nil && p.keyword("OR") {
		var r SkillFilter
		if r, err = p.and(); err == nil {
			l = orFilter(l, r)
		}
	}
	return l, err
}

func (p *filterParser) and() (SkillFilter, error) {
	l, err := p.unary()
	for err == nil && !p.eof() && p.src[p.pos] != ')' && p.word() != "OR" {
		p.keyword("AND")
		var r SkillFilter
		if r, err = p.unary(); err == nil {
			l = andFilter(l, r)
		}
	}
	return l, err
}

func orFilter(l, r SkillFilter) SkillFilter {
	return func(sk *resource.Skill) bool { return l(sk) || r(sk) }
}

func andFilter(l, r SkillFilter) SkillFilter {
	return func(sk *resource.Skill) bool { return l(sk) && r(sk) }
}

// nest counts a level of parentheses or NOT against MaxDepth.
func (p *filterParser) nest() error {
	if p.depth++; p.depth > searchquery.MaxDepth {
		return p.errf("the filter nests parentheses and NOT more than %d levels deep", searchquery.MaxDepth)
	}
	return nil
}

func (p *filterParser) unary() (SkillFilter, error) {
	if !p.keyword("NOT") {
		return p.primary()
	}
	if err := p.nest(); err != nil {
		return nil, err
	}
	x, err := p.unary()
	p.depth--
	if err != nil {
		return nil, err
	}
	return func(sk *resource.Skill) bool { return !x(sk) }, nil
}

func (p *filterParser) primary() (SkillFilter, error) {
	if p.eof() || p.src[p.pos] != '(' {
		return p.comparison()
	}
	if err := p.nest(); err != nil {
		return nil, err
	}
	p.pos++
	p.skip()
	f, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.eof() || p.src[p.pos] != ')' {
		return nil, p.errf("expected ) to close the ( , found %s", p.describe())
	}
	p.pos++
	p.depth--
	p.skip()
	return f, nil
}

func (p *filterParser) comparison() (SkillFilter, error) {
	name := p.word()
	field, ok := skillFilterFields[name]
	if !ok || name == "" {
		return nil, p.errf("expected a comparison of state, targetState, createTime or updateTime (such as state=ACTIVE), found %s", p.describe())
	}
	if p.terms++; p.terms > searchquery.MaxTerms {
		return nil, p.errf("the filter has more than %d comparisons", searchquery.MaxTerms)
	}
	p.pos += len(name)
	p.skip()
	op := p.operator()
	switch {
	case op == "":
		return nil, p.errf("expected =, < or > after %s, found %s", name, p.describe())
	case op != "=" && field.time == nil:
		p.pos -= len(op)
		return nil, p.errf("%s takes only =, not %s", field.name, op)
	case op != "=" && op != "<" && op != ">":
		p.pos -= len(op)
		return nil, p.errf("operator %s is not allowed: a filter compares with =, < and >", op)
	}
	p.skip()
	at := p.pos
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skip()
	if field.enum != nil {
		want, err := field.enum(v)
		if err != nil {
			return nil, &queryError{Pos: at, Msg: fmt.Sprintf("%s value %q %v", field.name, v, err)}
		}
		if field.name == "state" {
			return func(sk *resource.Skill) bool { return sk.State == want }, nil
		}
		return func(sk *resource.Skill) bool { return sk.TargetState == want }, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return nil, &queryError{Pos: at, Msg: fmt.Sprintf("%s value %q is not an RFC 3339 timestamp such as 2026-01-02T15:04:05Z", field.name, v)}
	}
	return timeFilter(field.time, op, t), nil
}

// operator consumes a comparison operator; the ones a filter does not
// allow (!=, <=, >=) are consumed too, so that the error can name them.
func (p *filterParser) operator() string {
	for _, op := range []string{"!=", "<=", ">=", "=", "<", ">"} {
		if strings.HasPrefix(p.src[p.pos:], op) {
			p.pos += len(op)
			return op
		}
	}
	return ""
}

// value consumes a bare word or a quoted string (with \" and \\ escapes).
func (p *filterParser) value() (string, error) {
	if p.eof() || p.src[p.pos] != '"' {
		w := p.word()
		if w == "" || strings.ContainsAny(w, "()") {
			return "", p.errf("expected a value, found %s", p.describe())
		}
		p.pos += len(w)
		return w, nil
	}
	var b strings.Builder
	for i := p.pos + 1; i < len(p.src); i++ {
		switch c := p.src[i]; {
		case c == '"':
			p.pos = i + 1
			return b.String(), nil
		case c == '\\' && i+1 < len(p.src):
			i++
			b.WriteByte(p.src[i])
		default:
			b.WriteByte(c)
		}
	}
	return "", p.errf("the quoted value is never closed")
}

// timeFilter compares a timestamp field with t. A skill's times are written
// by the server in RFC 3339, so they always parse.
func timeFilter(get func(*resource.Skill) string, op string, t time.Time) SkillFilter {
	return func(sk *resource.Skill) bool {
		v, err := time.Parse(time.RFC3339Nano, get(sk))
		if err != nil {
			return false
		}
		switch op {
		case "<":
			return v.Before(t)
		case ">":
			return v.After(t)
		}
		return v.Equal(t)
	}
}
