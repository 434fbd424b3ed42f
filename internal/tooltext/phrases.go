package tooltext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The phrase matcher: rules that fire on words in sequence ("do not tell the
// user") match on the words of a folded text (lowercase, hidden characters
// dropped, apostrophes inside a word dropped so that "don't" is "dont", "_"
// and "-" separating words so that a property named do_not_tell_the_user is
// read too). Each pattern is a few tokens; a table maps every word a pattern
// can start with to the patterns, so a text costs one lookup per word and a
// few comparisons per candidate: linear in the text, whatever it holds.
// Regular expressions were considered: Go's are linear too, but one per rule
// is a pass per rule, and one alternation of all loses the overlapping
// matches of different rules.

// token is one step of a pattern: one of words (or a word starting with one
// of prefixes), optional or not; or a gap of up to gap arbitrary words.
type token struct {
	words    []string
	prefixes []string
	optional bool
	gap      int
}

// pattern is one phrase of a rule.
type pattern struct {
	rule   string
	text   string
	tokens []token
}

// parsePattern reads a pattern: words separated by spaces; "a|b" is either
// word, a trailing "?" makes a token optional, a trailing "~" matches a
// prefix ("instruct~" matches "instructions"), "*N" skips up to N words. The
// first token must be a plain, required word or alternation: the index is
// keyed on it.
func parsePattern(rule, text string) (pattern, error) {
	p := pattern{rule: rule, text: text}
	for _, f := range strings.Fields(text) {
		if n, ok := strings.CutPrefix(f, "*"); ok {
			gap, err := strconv.Atoi(n)
			if err != nil || gap < 1 || gap > 8 {
				return p, fmt.Errorf("pattern %q: bad gap %q", text, f)
			}
			p.tokens = append(p.tokens, token{gap: gap})
			continue
		}
		var t token
		f, t.optional = strings.CutSuffix(f, "?")
		for _, w := range strings.Split(f, "|") {
			if pre, ok := strings.CutSuffix(w, "~"); ok {
				t.prefixes = append(t.prefixes, pre)
			} else {
				t.words = append(t.words, w)
			}
		}
		p.tokens = append(p.tokens, t)
	}
	if len(p.tokens) == 0 || p.tokens[0].optional || p.tokens[0].gap > 0 || len(p.tokens[0].prefixes) > 0 {
		return p, fmt.Errorf("pattern %q must start with a required word", text)
	}
	return p, nil
}

// matches reports whether the word w is one the token accepts.
func (t token) matches(w string) bool {
	for _, x := range t.words {
		if w == x {
			return true
		}
	}
	for _, x := range t.prefixes {
		if strings.HasPrefix(w, x) {
			return true
		}
	}
	return false
}

// matchAt reports where the pattern's match starting at words[i] ends
// (exclusive), and whether there is one. Patterns are short and gaps small,
// so the backtracking is bounded by a constant.
func (p *pattern) matchAt(words []word, i int) (int, bool) {
	return matchTokens(p.tokens, words, i)
}

func matchTokens(ts []token, words []word, i int) (int, bool) {
	if len(ts) == 0 {
		return i, true
	}
	t := ts[0]
	switch {
	case t.gap > 0:
		// A gap may skip past the last word: the tokens after it then fail
		// as they did at the end of the words, so no bound is needed.
		for skip := 0; skip <= t.gap; skip++ {
			if end, ok := matchTokens(ts[1:], words, i+skip); ok {
				return end, true
			}
		}
		return 0, false
	case i < len(words) && t.matches(words[i].text):
		if end, ok := matchTokens(ts[1:], words, i+1); ok {
			return end, true
		}
	}
	if t.optional {
		return matchTokens(ts[1:], words, i)
	}
	return 0, false
}

// phraseIndex maps a first word to the patterns that start with it.
type phraseIndex map[string][]*pattern

func buildPhraseIndex(table map[string][]string) phraseIndex {
	idx := phraseIndex{}
	for rule, texts := range table {
		for _, text := range texts {
			p, err := parsePattern(rule, text)
			if err != nil {
				panic(err) // the table is the package's own: TestPhrasePatternsParse
			}
			for _, w := range p.tokens[0].words {
				idx[w] = append(idx[w], &p)
			}
		}
	}
	return idx
}

// phraseHit is one pattern matched: its rule and the words it covers.
type phraseHit struct {
	rule       string
	start, end int // word indexes, end exclusive
}

// match returns every rule's first hit in the words, one per rule.
func (idx phraseIndex) match(words []word) []phraseHit {
	var hits []phraseHit
	seen := map[string]bool{}
	for i, w := range words {
		for _, p := range idx[w.text] {
			if seen[p.rule] {
				continue
			}
			if end, ok := p.matchAt(words, i); ok {
				seen[p.rule] = true
				hits = append(hits, phraseHit{rule: p.rule, start: i, end: end})
			}
		}
	}
	return hits
}

// word is one word of a folded text, and the byte offset where it starts
// in the text.
type word struct {
	text string
	at   int
}

// foldWords splits text into lowercase words: letters and digits, with
// apostrophes inside a word dropped and every character that draws nothing
// (zero-width, bidirectional controls, tags, variation selectors) skipped, so
// that "ig\u200bnore" is read as "ignore".
func foldWords(s string) []word {
	// One buffer for the folded text; each word is a substring of it, so a
	// text costs two allocations, not one per word.
	buf := make([]byte, 0, len(s))
	type span struct{ from, to, at int }
	var spans []span
	from, at := -1, 0
	end := func() {
		if from >= 0 {
			spans = append(spans, span{from, len(buf), at})
		}
		from = -1
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if from < 0 {
				from, at = len(buf), i
			}
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
		case (r == '\'' || r == '\u2019') && from >= 0:
			// inside a word: "don't" is "dont"
		case isInvisible(r):
			// draws nothing: does not split a word either
		default:
			end()
		}
		i += size
	}
	end()
	folded := string(buf)
	words := make([]word, len(spans))
	for j, sp := range spans {
		words[j] = word{text: folded[sp.from:sp.to], at: sp.at}
	}
	return words
}

// joinWords is the text of words[start:end], for a message.
func joinWords(words []word, start, end int) string {
	parts := make([]string, 0, end-start)
	for _, w := range words[start:end] {
		parts = append(parts, w.text)
	}
	return strings.Join(parts, " ")
}
