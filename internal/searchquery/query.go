// Package searchquery implements the search grammar of the Agent Registry
// (agents:search, mcpServers:search and list filters): a small
// recursive-descent parser that turns a search string into a Query, and the
// reference semantics of a Query on one document (Match). The bundled server
// uses it to answer searches; the provider uses it to tell which skills of an
// agent a query selects.
//
// Grammar (keywords are upper case, as in Google's search syntax):
//
//	query   = [ or ] EOF
//	or      = and { "OR" and }
//	and     = unary { [ "AND" ] unary }        // juxtaposition is AND
//	unary   = "NOT" unary | primary
//	primary = "(" or ")" | term
//	term    = value | field ( ":" | "=" ) value
//	value   = word [ "*" ] | '"' chars [ "*" ] '"' [ "*" ]
//
// field:value matches when the value's words occur, in order and adjacent, in
// one value of the field (case-insensitive); a trailing * makes the last word
// a prefix. field=value compares the whole value, case-insensitively (with *,
// as a prefix). A bare value searches every keyword field.
//
// A query is bounded (MaxLength characters, MaxTerms terms, parentheses and
// NOT nested at most MaxDepth deep), so that parsing it and evaluating it
// cost a bounded amount of time and memory on the server and at plan time.
package searchquery

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The limits of a query. A search string is typed or generated from a few
// terms and tags; these leave ample room for that while keeping a hostile
// query from costing seconds of CPU (every term is evaluated against the
// whole index) or deep recursion (the parser, the printer and the evaluators
// recurse on parentheses and NOT).
const (
	// MaxLength is the longest query, in characters.
	MaxLength = 4096
	// MaxTerms is the most search terms (values, with or without a field) in a query.
	MaxTerms = 64
	// MaxDepth is how deep parentheses and NOT may nest.
	MaxDepth = 32
)

// Schema describes the searchable fields of one kind of record.
type Schema struct {
	// Kind names the records in messages ("agents").
	Kind string
	// Base are the fields that carry values.
	Base []string
	// Composite fields stand for several base fields (skills = any skill field).
	Composite map[string][]string
	// Keyword are the fields a bare word searches.
	Keyword []string
	canon   map[string]string // folded name -> canonical name
}

// NewSchema returns the schema of a kind of record.
func NewSchema(kind string, base []string, composite map[string][]string, keyword []string) *Schema {
	s := &Schema{Kind: kind, Base: base, Composite: composite, Keyword: keyword, canon: map[string]string{}}
	for _, f := range base {
		s.canon[foldField(f)] = f
	}
	for f := range composite {
		s.canon[foldField(f)] = f
	}
	return s
}

// Agents is the schema of agents:search.
var Agents = NewSchema("agents",
	[]string{"agentId", "name", "displayName", "description", "skills.id", "skills.name", "skills.description", "skills.tags", "skills.examples"},
	map[string][]string{"skills": {"skills.id", "skills.name", "skills.description", "skills.tags", "skills.examples"}},
	[]string{"agentId", "name", "displayName", "description", "skills.id", "skills.name", "skills.description", "skills.tags", "skills.examples"})

// McpServers is the schema of mcpServers:search.
var McpServers = NewSchema("MCP servers",
	[]string{"mcpServerId", "name", "displayName", "description", "tools.name", "tools.description"},
	map[string][]string{"tools": {"tools.name", "tools.description"}},
	[]string{"mcpServerId", "name", "displayName", "description", "tools.name", "tools.description"})

// foldField makes field names case-insensitive and accepts the snake_case
// spelling of AIP-160 filters (display_name) as well as camelCase.
func foldField(f string) string {
	return strings.ToLower(strings.ReplaceAll(f, "_", ""))
}

// Names lists the searchable fields, sorted.
func (s *Schema) Names() []string {
	out := append([]string(nil), s.Base...)
	for f := range s.Composite {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// Expand returns the base fields a term on field searches ("" = keyword search).
func (s *Schema) Expand(field string) []string {
	if field == "" {
		return s.Keyword
	}
	if c, ok := s.Composite[field]; ok {
		return c
	}
	return []string{field}
}

// Node is a node of a parsed query: *And, *Or, *Not or *Term.
type Node interface {
	String() string
	node()
}

// And matches when both sides match.
type And struct{ L, R Node }

// Or matches when either side matches.
type Or struct{ L, R Node }

// Not matches when X does not.
type Not struct{ X Node }

// Term is one comparison.
type Term struct {
	Field  string   // canonical field, "" for keyword search
	Exact  bool     // "=": whole-value comparison
	Value  string   // the value as written, unquoted, without the trailing *
	Words  []string // lower-cased words of Value (word match only)
	Prefix bool     // trailing *
}

func (*And) node()  {}
func (*Or) node()   {}
func (*Not) node()  {}
func (*Term) node() {}

// Quote writes a value as a quoted string of the grammar, escaping the way the
// parser unquotes: only \ and " (strconv.Quote would write \x00 or \u200f, which
// the parser reads back literally).
func Quote(v string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
}

// String writes a chain of one operator (a AND b AND c, which parses as
// ((a AND b) AND c)) in one pair of parentheses, so that the canonical form
// nests no deeper than the query's structure does (see canonicalError).
func (n *And) String() string { return "(" + n.chain() + ")" }
func (n *Or) String() string  { return "(" + n.chain() + ")" }

func (n *And) chain() string {
	if l, ok := n.L.(*And); ok {
		return l.chain() + " AND " + n.R.String()
	}
	return n.L.String() + " AND " + n.R.String()
}

func (n *Or) chain() string {
	if l, ok := n.L.(*Or); ok {
		return l.chain() + " OR " + n.R.String()
	}
	return n.L.String() + " OR " + n.R.String()
}

// printedDepth is how deep parentheses and NOT nest in n.String().
func printedDepth(n Node) int {
	switch n := n.(type) {
	case *And:
		d := printedDepth(n.R) + 1
		if l, ok := n.L.(*And); ok {
			return max(d, printedDepth(l))
		}
		return max(d, printedDepth(n.L)+1)
	case *Or:
		d := printedDepth(n.R) + 1
		if l, ok := n.L.(*Or); ok {
			return max(d, printedDepth(l))
		}
		return max(d, printedDepth(n.L)+1)
	case *Not:
		return printedDepth(n.X) + 1
	}
	return 0
}

// canonicalError checks that the canonical form of a parsed query is within
// the limits too. The provider sends that form when it rewrites a query, so
// it must parse wherever the query did; its parentheses (one pair for each
// AND or OR group) can nest deeper than the user's, and its quoting makes it
// longer.
func canonicalError(n Node) error {
	if d := printedDepth(n); d > MaxDepth {
		return &Error{Pos: 1, Msg: fmt.Sprintf("AND and OR groups, parentheses and NOT nest %d levels deep once the query is written "+
			"with a pair of parentheses around each group; the limit is %d levels", d, MaxDepth)}
	}
	if l := utf8.RuneCountInString(n.String()); l > MaxLength {
		return &Error{Pos: 1, Msg: fmt.Sprintf("the query is %d characters long once written in its canonical form "+
			"(values quoted, AND written out, a pair of parentheses around each group); the limit is %d characters", l, MaxLength)}
	}
	return nil
}
func (n *Not) String() string { return "NOT " + n.X.String() }
func (n *Term) String() string {
	v := Quote(n.Value)
	if n.Prefix {
		v += "*"
	}
	switch {
	case n.Field == "":
		return v
	case n.Exact:
		return n.Field + "=" + v
	default:
		return n.Field + ":" + v
	}
}

// Query is a parsed search string. The zero Query (an empty search string)
// matches everything.
type Query struct {
	// Root is the syntax tree; nil matches everything.
	Root   Node
	schema *Schema
}

// Schema returns the schema the query was parsed against.
func (q Query) Schema() *Schema { return q.schema }

// String is the canonical form of the query ("" for the empty query).
func (q Query) String() string {
	if q.Root == nil {
		return ""
	}
	return q.Root.String()
}

// Doc gives the values of a document's base fields.
type Doc interface {
	Values(field string) []string
}

// Fields is a Doc held in a map: base field -> values.
type Fields map[string][]string

// Values implements Doc.
func (f Fields) Values(field string) []string { return f[field] }

// Match reports whether the document matches the query.
func (q Query) Match(d Doc) bool { return MatchNode(q.Root, q.schema, d) }

// Error is a malformed query: Pos is the 1-based character position.
type Error struct {
	Pos int
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("position %d: %s", e.Pos, e.Msg) }

// Parse parses q against the fields of s. An empty (or blank) q is the zero
// Query, which matches everything. A malformed q is an *Error.
func Parse(q string, s *Schema) (Query, error) {
	n, err := parseQuery(q, s)
	if err != nil {
		return Query{}, err
	}
	return Query{Root: n, schema: s}, nil
}

// Parse parses q against the fields of s; see the package function Parse.
func (s *Schema) Parse(q string) (Query, error) { return Parse(q, s) }

type parser struct {
	src   []rune
	pos   int
	s     *Schema
	depth int // open parentheses and NOTs around the current position
	terms int // terms read so far
}

// parseQuery parses q. A nil node with a nil error means "match everything".
func parseQuery(q string, s *Schema) (Node, error) {
	// The length is checked before anything that costs memory in proportion
	// to the query (the rune slice).
	if n := utf8.RuneCountInString(q); n > MaxLength {
		return nil, &Error{Pos: MaxLength + 1, Msg: fmt.Sprintf("the query is %d characters long; the limit is %d characters", n, MaxLength)}
	}
	if !utf8.ValidString(q) {
		return nil, &Error{Pos: 1, Msg: "the query is not valid UTF-8"}
	}
	p := &parser{src: []rune(q), s: s}
	p.skipSpace()
	if p.eof() {
		return nil, nil
	}
	n, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if !p.eof() {
		if p.src[p.pos] == ')' {
			return nil, p.errf("unexpected \")\" without a matching \"(\"")
		}
		return nil, p.errf("expected AND, OR or the end of the query, found %s", p.describe())
	}
	if err := canonicalError(n); err != nil {
		return nil, err
	}
	return n, nil
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) skipSpace() {
	for !p.eof() && unicode.IsSpace(p.src[p.pos]) {
		p.pos++
	}
}

func (p *parser) errf(format string, args ...any) error {
	return &Error{Pos: p.pos + 1, Msg: fmt.Sprintf(format, args...)}
}

// describe names what is at the current position, for error messages.
func (p *parser) describe() string {
	if p.eof() {
		return "the end of the query"
	}
	end := p.pos
	for end < len(p.src) && end-p.pos < 20 && !unicode.IsSpace(p.src[end]) {
		end++
	}
	if end == p.pos {
		end++
	}
	return strconv.Quote(string(p.src[p.pos:end]))
}

// keyword reports whether the upper-case keyword kw starts at the current
// position as a whole word.
func (p *parser) keyword(kw string) bool {
	p.skipSpace()
	end := p.pos + len(kw)
	if end > len(p.src) || string(p.src[p.pos:end]) != kw {
		return false
	}
	return end == len(p.src) || unicode.IsSpace(p.src[end]) || p.src[end] == '(' || p.src[end] == ')' || p.src[end] == '"'
}

func (p *parser) parseOr() (Node, error) {
	l, err := p.parseAnd()
	if err != nil {
		return nil, err
	}
	for p.keyword("OR") {
		p.pos += 2
		r, err := p.parseAnd()
		if err != nil {
			return nil, err
		}
		l = &Or{l, r}
	}
	return l, nil
}

func (p *parser) parseAnd() (Node, error) {
	l, err := p.parseUnary()
	if err != nil {
		return nil, err
	}
	for {
		p.skipSpace()
		if p.eof() || p.src[p.pos] == ')' || p.keyword("OR") {
			return l, nil
		}
		if p.keyword("AND") {
			p.pos += 3
		}
		r, err := p.parseUnary()
		if err != nil {
			return nil, err
		}
		l = &And{l, r}
	}
}

// nest enters a parenthesis or a NOT at the current position, failing when
// that nests deeper than MaxDepth; the caller calls p.depth-- when it leaves.
func (p *parser) nest() error {
	p.depth++
	if p.depth > MaxDepth {
		return p.errf("parentheses and NOT nest more than %d deep here; the limit is %d levels", MaxDepth, MaxDepth)
	}
	return nil
}

func (p *parser) parseUnary() (Node, error) {
	if p.keyword("NOT") {
		if err := p.nest(); err != nil {
			return nil, err
		}
		p.pos += 3
		x, err := p.parseUnary()
		if err != nil {
			return nil, err
		}
		p.depth--
		return &Not{x}, nil
	}
	return p.parsePrimary()
}

func (p *parser) parsePrimary() (Node, error) {
	p.skipSpace()
	if p.eof() {
		return nil, p.errf("expected a search term, found the end of the query")
	}
	switch c := p.src[p.pos]; {
	case c == '(':
		if err := p.nest(); err != nil {
			return nil, err
		}
		open := p.pos
		p.pos++
		p.skipSpace()
		if !p.eof() && p.src[p.pos] == ')' {
			return nil, p.errf("expected a search term inside the parentheses, found \")\"")
		}
		n, err := p.parseOr()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.eof() || p.src[p.pos] != ')' {
			return nil, &Error{Pos: open + 1, Msg: fmt.Sprintf("\"(\" is not closed: expected \")\", found %s at position %d", p.describe(), p.pos+1)}
		}
		p.pos++
		p.depth--
		return n, nil
	case c == ')':
		return nil, p.errf("expected a search term, found \")\"")
	case c == ':' || c == '=':
		return nil, p.errf("expected a field name before %q", c)
	case p.keyword("AND") || p.keyword("OR"):
		return nil, p.errf("expected a search term, found the operator %s", p.describe())
	}
	return p.parseTerm()
}

func isWordBreak(c rune) bool {
	return unicode.IsSpace(c) || c == '(' || c == ')' || c == '"' || c == ':' || c == '='
}

func (p *parser) parseTerm() (Node, error) {
	start := p.pos
	if p.src[p.pos] == '"' {
		return p.finishTerm("", false, start)
	}
	for !p.eof() && !isWordBreak(p.src[p.pos]) {
		p.pos++
	}
	word := string(p.src[start:p.pos])
	// Look past optional spaces for an operator (AIP-160 allows "a = b").
	p.skipSpace()
	if !p.eof() && (p.src[p.pos] == ':' || p.src[p.pos] == '=') {
		op := p.src[p.pos]
		field, ok := p.s.canon[foldField(word)]
		if !ok {
			return nil, &Error{Pos: start + 1, Msg: fmt.Sprintf("unknown field %q; the searchable fields of %s are %s (quote a value that contains %q)",
				word, p.s.Kind, strings.Join(p.s.Names(), ", "), op)}
		}
		p.pos++
		p.skipSpace()
		if p.eof() || p.src[p.pos] == ')' || p.src[p.pos] == '(' {
			return nil, p.errf("expected a value after %s%c, found %s", word, op, p.describe())
		}
		return p.finishTerm(field, op == '=', p.pos)
	}
	p.pos = start
	return p.finishTerm("", false, start)
}

// finishTerm reads the value at p.pos: a quoted string, or a run of
// characters up to a space or parenthesis (a field value may contain ':' and
// '=', e.g. a URN). A trailing * makes it a prefix.
func (p *parser) finishTerm(field string, exact bool, start int) (Node, error) {
	p.terms++
	if p.terms > MaxTerms {
		return nil, &Error{Pos: start + 1, Msg: fmt.Sprintf("the query has more than %d search terms; the limit is %d terms", MaxTerms, MaxTerms)}
	}
	t := &Term{Field: field, Exact: exact}
	var err error
	if p.src[p.pos] == '"' {
		t.Value, t.Prefix, err = p.quotedValue(start)
	} else {
		t.Value, t.Prefix, err = p.bareValue(field, start)
	}
	if err != nil {
		return nil, err
	}
	// A quote right after a value ("abc"def) is ambiguous; require a space.
	if !p.eof() && !unicode.IsSpace(p.src[p.pos]) && p.src[p.pos] != '(' && p.src[p.pos] != ')' {
		return nil, p.errf("expected a space, \")\" or the end of the query after the value, found %s", p.describe())
	}
	if err := t.checkSearchable(start); err != nil {
		return nil, err
	}
	return t, nil
}

// quotedValue reads a quoted value at p.pos, with \" and \\ escaped, and
// whether it is a prefix: both "a b"* and "a b*" make the last word one,
// since users write either.
func (p *parser) quotedValue(start int) (val string, prefix bool, err error) {
	var b strings.Builder
	p.pos++
	for {
		if p.eof() {
			return "", false, &Error{Pos: start + 1, Msg: "the quoted value is not closed: expected '\"' before the end of the query"}
		}
		c := p.src[p.pos]
		if c == '\\' && p.pos+1 < len(p.src) && (p.src[p.pos+1] == '"' || p.src[p.pos+1] == '\\') {
			b.WriteRune(p.src[p.pos+1])
			p.pos += 2
			continue
		}
		p.pos++
		if c == '"' {
			break
		}
		b.WriteRune(c)
	}
	val = b.String()
	if !p.eof() && p.src[p.pos] == '*' {
		p.pos++
		return val, true, nil
	}
	if strings.HasSuffix(val, "*") {
		return strings.TrimSuffix(val, "*"), true, nil
	}
	return val, false, nil
}

// bareValue reads an unquoted value at p.pos, up to a space, a parenthesis
// or a quote (and, for a value without a field, ':' or '='), and whether its
// trailing * makes it a prefix. A * anywhere else is refused.
func (p *parser) bareValue(field string, start int) (val string, prefix bool, err error) {
	vs := p.pos
	for !p.eof() {
		c := p.src[p.pos]
		if unicode.IsSpace(c) || c == '(' || c == ')' || c == '"' || (field == "" && (c == ':' || c == '=')) {
			break
		}
		p.pos++
	}
	val = string(p.src[vs:p.pos])
	i := strings.IndexRune(val, '*')
	if i < 0 {
		return val, false, nil
	}
	if i != len(val)-1 {
		return "", false, &Error{Pos: start + 1 + utf8.RuneCountInString(val[:i]), Msg: "the wildcard * is only allowed at the end of a value"}
	}
	return val[:i], true, nil
}

// checkSearchable refuses a term that cannot match anything: an exact
// field="" (a legitimate "field is empty" test, but not searchable here), or a
// value with no words; it sets the words of a term that is not exact.
func (t *Term) checkSearchable(start int) error {
	if t.Exact {
		if t.Value == "" && !t.Prefix {
			return &Error{Pos: start + 1, Msg: "expected a non-empty value after \"=\""}
		}
		return nil
	}
	t.Words = Tokenize(t.Value)
	if len(t.Words) > 0 {
		return nil
	}
	if t.Prefix && t.Value == "" {
		return &Error{Pos: start + 1, Msg: "a lone * is not a search term; omit the search string to list everything"}
	}
	return &Error{Pos: start + 1, Msg: fmt.Sprintf("the value %q has no letters or digits to search for", t.Value)}
}

// Tokenize splits text into lower-case words: maximal runs of letters and digits.
func Tokenize(s string) []string {
	var out []string
	start := -1
	for i, c := range s {
		alnum := unicode.IsLetter(c) || unicode.IsDigit(c)
		if alnum && start < 0 {
			start = i
		} else if !alnum && start >= 0 {
			out = append(out, strings.ToLower(s[start:i]))
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, strings.ToLower(s[start:]))
	}
	return out
}

// MatchNode is the reference (scan) semantics of a query node on one document.
func MatchNode(n Node, s *Schema, d Doc) bool {
	switch n := n.(type) {
	case nil:
		return true
	case *And:
		return MatchNode(n.L, s, d) && MatchNode(n.R, s, d)
	case *Or:
		return MatchNode(n.L, s, d) || MatchNode(n.R, s, d)
	case *Not:
		return !MatchNode(n.X, s, d)
	case *Term:
		for _, f := range s.Expand(n.Field) {
			for _, v := range d.Values(f) {
				if n.MatchValue(v) {
					return true
				}
			}
		}
	}
	return false
}

// MatchValue applies the term to one field value.
func (t *Term) MatchValue(v string) bool {
	if t.Exact {
		lv, lt := strings.ToLower(v), strings.ToLower(t.Value)
		if t.Prefix {
			return strings.HasPrefix(lv, lt)
		}
		return lv == lt
	}
	return phraseMatch(t.Words, t.Prefix, Tokenize(v))
}

// phraseMatch reports whether words occur adjacent, in order, in toks; with
// prefix the last word need only start a token.
func phraseMatch(words []string, prefix bool, toks []string) bool {
	n := len(words)
	for i := 0; i+n <= len(toks); i++ {
		ok := true
		for j, w := range words {
			if j == n-1 && prefix {
				ok = strings.HasPrefix(toks[i+j], w)
			} else {
				ok = toks[i+j] == w
			}
			if !ok {
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
