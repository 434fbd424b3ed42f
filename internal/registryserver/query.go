package registryserver

// The filters of the lists. The grammar (parser and reference semantics)
// lives in internal/searchquery, shared with the provider, which uses it to
// tell which skills of an agent a query selects; the index that answers
// searches is package search.

import (
	"net/http"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

type (
	fieldSet  = searchquery.Schema
	queryNode = searchquery.Node
	docFields = searchquery.Fields
)

// newListSchema is the filter schema of a collection whose fields are plain
// values, every one searched by a bare word.
func newListSchema(kind string, fields ...string) *fieldSet {
	return search.NewListSchema(kind, fields...)
}

// parseFilter parses the filter of a list method against the fields of its
// collection; a malformed filter is an INVALID_ARGUMENT on the filter field.
func parseFilter(filter string, fs *fieldSet) (queryNode, error) {
	node, err := search.ParseQuery(filter, fs)
	if err != nil {
		return nil, errViolations("invalid filter: "+err.Error(), []fieldViolation{{Field: "filter", Description: err.Error()}})
	}
	return node, nil
}

// listFilter reads the filter of a list request against fs: the filter as
// sent, and its query (nil, every record, without a filter).
func listFilter(r *http.Request, fs *fieldSet) (string, queryNode, error) {
	filter := r.URL.Query().Get("filter")
	node, err := parseFilter(filter, fs)
	return filter, node, err
}

// matchDoc is the reference (scan) semantics of a query on one document.
func matchDoc(n queryNode, fs *fieldSet, d docFields) bool { return searchquery.MatchNode(n, fs, d) }
