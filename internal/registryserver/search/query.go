// Package search is the bundled registry server's search: the inverted index
// behind agents:search and mcpServers:search and the lists of derived records
// (index.go), the orderBy of every list that takes one and the pages of an
// ordered list (ordering.go), and the evaluation of skills.list and
// skills:search (skills.go, skill_filter.go). It imports no net/http: the
// server's handlers parse a request, call it, and encode what it returns. The
// search grammar itself (parser and reference semantics) is internal/searchquery,
// shared with the provider.
package search

import (
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

// These names keep the index's code reading in the terms of its grammar.
type (
	fieldSet   = searchquery.Schema
	queryNode  = searchquery.Node
	andNode    = searchquery.And
	orNode     = searchquery.Or
	notNode    = searchquery.Not
	termNode   = searchquery.Term
	docFields  = searchquery.Fields
	queryError = searchquery.Error
)

// parseQuery parses q. A nil node with a nil error means "match everything".
func parseQuery(q string, fs *fieldSet) (queryNode, error) {
	parsed, err := searchquery.Parse(q, fs)
	if err != nil {
		return nil, err
	}
	return parsed.Root, nil
}

// ParseQuery parses q against fs: the root of the query, nil (with a nil
// error) for one that matches everything.
func ParseQuery(q string, fs *searchquery.Schema) (searchquery.Node, error) { return parseQuery(q, fs) }

// matchDoc is the reference (scan) semantics of a query on one document.
func matchDoc(n queryNode, fs *fieldSet, d docFields) bool { return searchquery.MatchNode(n, fs, d) }

func tokenize(s string) []string { return searchquery.Tokenize(s) }

// NewListSchema is the filter schema of a collection whose fields are plain
// values, every one searched by a bare word.
func NewListSchema(kind string, fields ...string) *searchquery.Schema {
	return searchquery.NewSchema(kind, fields, nil, fields)
}

// FieldError is an INVALID_ARGUMENT about one field of a request (order_by,
// search_string, filter): the message of the error and the description of
// its field violation. The server renders it in Google's error envelope.
type FieldError struct {
	Field, Message, Description string
}

func (e *FieldError) Error() string { return "INVALID_ARGUMENT: " + e.Message }

// invalidField is the FieldError "invalid FIELD: why", as the server words a
// field it cannot parse.
func invalidField(field, why string) *FieldError {
	return &FieldError{Field: field, Message: "invalid " + field + ": " + why, Description: why}
}
