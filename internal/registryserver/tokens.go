package registryserver

// Page tokens. A list is paged by name, so its token is the last name
// returned (results are sorted by name, so "after" is stable while records
// come and go); an ordered list's token adds that record's order keys; a
// ranked one (skills) has no stable key and holds an offset. Every token
// holds a hash of the query, so that it cannot be replayed on another query.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/state"
)

// pageToken is the decoded form of next_page_token: the last name returned
// (results are sorted by name, so "after" is stable while records come and
// go) and a hash of the query, so a token cannot be replayed on another query.
type pageToken struct {
	After string `json:"a"`
	Query uint64 `json:"q"`
}

func queryHash(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

func encodePageToken(after string, qh uint64) string {
	b, _ := json.Marshal(pageToken{After: after, Query: qh})
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodePageToken returns the "after" key of tok ("" for the first page).
func decodePageToken(tok string, qh uint64) (string, error) {
	if tok == "" {
		return "", nil
	}
	b, err := base64.RawURLEncoding.DecodeString(tok)
	var pt pageToken
	if err == nil {
		err = json.Unmarshal(b, &pt)
	}
	if err != nil {
		return "", errForeignToken(tok)
	}
	if pt.Query != qh {
		return "", errTokenOfAnotherQuery()
	}
	return pt.After, nil
}

// errForeignToken and errTokenOfAnotherQuery refuse a page token.
func errForeignToken(tok string) error {
	shown := tok
	if len(shown) > 64 {
		shown = shown[:64] + "..."
	}
	return errViolations(fmt.Sprintf("page_token %q is not a token this server issued", shown),
		[]fieldViolation{{Field: "page_token", Description: "is not a token this server issued; send the next_page_token of the previous page"}})
}

func errTokenOfAnotherQuery() error {
	return errViolations("page_token was issued for a different query or parent; the other parameters must be identical to those of the call that returned it",
		[]fieldViolation{{Field: "page_token", Description: "was issued for a different query or parent"}})
}

// orderedToken is the page token of an ordered list: the name and the
// order keys of the last record returned, and the hash of the query.
type orderedToken struct {
	After string   `json:"a"`
	Keys  []string `json:"k,omitempty"`
	Query uint64   `json:"q"`
}

func encodeOrderedToken(keys []string, name string, qh uint64) string {
	b, _ := json.Marshal(orderedToken{After: name, Keys: keys, Query: qh})
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeOrderedToken returns the position a page token continues from
// (nil for the first page).
func decodeOrderedToken(tok string, o search.Ordering, qh uint64) (*search.Position, error) {
	if tok == "" {
		return nil, nil
	}
	var t orderedToken
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err == nil {
		err = json.Unmarshal(b, &t)
	}
	if err != nil || len(t.Keys) != len(o) {
		return nil, errForeignToken(tok)
	}
	if t.Query != qh {
		return nil, errTokenOfAnotherQuery()
	}
	return &search.Position{Name: t.After, Keys: t.Keys}, nil
}

// decodePosition is where the page token tok of a list ordered by o (empty:
// by name) continues (nil for the first page).
func decodePosition(tok string, o search.Ordering, qh uint64) (*search.Position, error) {
	if len(o) > 0 {
		return decodeOrderedToken(tok, o, qh)
	}
	after, err := decodePageToken(tok, qh)
	if err != nil || tok == "" {
		return nil, err
	}
	return &search.Position{Name: after}, nil
}

// encodePosition is the token of the page after p (none when p is nil) of a
// list ordered by o (empty: by name).
func encodePosition(p *search.Position, o search.Ordering, qh uint64) string {
	switch {
	case p == nil:
		return ""
	case len(o) > 0:
		return encodeOrderedToken(p.Keys, p.Name, qh)
	}
	return encodePageToken(p.Name, qh)
}

// Offset page tokens: a ranked result has no stable "after" key.
type offsetToken struct {
	Offset int    `json:"o"`
	Query  uint64 `json:"q"`
}

func encodeOffset(off int, qh uint64) string {
	b, _ := json.Marshal(offsetToken{off, qh})
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeOffset(tok string, qh uint64) (int, error) {
	if tok == "" {
		return 0, nil
	}
	var t offsetToken
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err == nil {
		err = json.Unmarshal(b, &t)
	}
	// No result holds more than state.MaxSkillsPerParent skills, so no token this
	// server issued points further.
	if err != nil || t.Offset < 0 || t.Offset > state.MaxSkillsPerParent {
		return 0, errInvalid("page_token %q is not a token this server issued", tok)
	}
	if t.Query != qh {
		return 0, errInvalid("page_token was issued for a different query or parent; the other parameters must be identical to those of the call that returned it")
	}
	return t.Offset, nil
}
