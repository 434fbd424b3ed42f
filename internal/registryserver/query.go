package registryserver

// The search grammar (parser and reference semantics) lives in
// internal/searchquery, shared with the provider, which uses it to tell which
// skills of an agent a query selects. These names keep the server's code
// (index.go, search.go, services.go) reading as before.

import (
	"net/http"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

type (
	fieldSet   = searchquery.Schema
	queryNode  = searchquery.Node
	andNode    = searchquery.And
	orNode     = searchquery.Or
	notNode    = searchquery.Not
	termNode   = searchquery.Term
	docFields  = searchquery.Fields
	QueryError = searchquery.Error
)

var (
	agentFields = searchquery.Agents
	mcpFields   = searchquery.McpServers
	// endpoints.list takes a filter (AIP-160) over these fields; endpoints
	// have no search method.
	// The document's example interfaces.transport is the protocol binding
	// (Interface has no transport field); its version and the services'
	// labels are fields the v1 Endpoint and Service do not have, so a filter
	// on them is refused as a filter on any unknown field.
	endpointFields = searchquery.NewSchema("endpoints",
		[]string{"endpointId", "name", "displayName", "description", "interfaces.url", "interfaces.protocolBinding"},
		map[string][]string{"interfaces": {"interfaces.url", "interfaces.protocolBinding"}, "interfaces.transport": {"interfaces.protocolBinding"}},
		[]string{"endpointId", "name", "displayName", "description", "interfaces.url"})
	serviceFilterFields = searchquery.NewSchema("services",
		[]string{"name", "displayName", "description"}, nil,
		[]string{"name", "displayName", "description"})
)

// newListSchema is the filter schema of a collection whose fields are plain
// values, every one searched by a bare word.
func newListSchema(kind string, fields ...string) *fieldSet {
	return searchquery.NewSchema(kind, fields, nil, fields)
}

// parseQuery parses q. A nil node with a nil error means "match everything".
func parseQuery(q string, fs *fieldSet) (queryNode, error) {
	parsed, err := searchquery.Parse(q, fs)
	if err != nil {
		return nil, err
	}
	return parsed.Root, nil
}

// parseFilter parses the filter of a list method against the fields of its
// collection; a malformed filter is an INVALID_ARGUMENT on the filter field.
func parseFilter(filter string, fs *fieldSet) (queryNode, error) {
	node, err := parseQuery(filter, fs)
	if err != nil {
		return nil, errViolations("invalid filter: "+err.Error(), []fieldViolation{{Field: "filter", Description: err.Error()}})
	}
	return node, nil
}

// listFilter reads the filter of a list request against fs: the filter as
// sent, and the test of a record (nil, every record, without a filter).
func listFilter[T any](r *http.Request, fs *fieldSet, doc func(T) docFields) (string, func(T) bool, error) {
	filter := r.URL.Query().Get("filter")
	node, err := parseFilter(filter, fs)
	if err != nil || node == nil {
		return filter, nil, err
	}
	return filter, func(v T) bool { return matchDoc(node, fs, doc(v)) }, nil
}

// matchDoc is the reference (scan) semantics of a query on one document.
func matchDoc(n queryNode, fs *fieldSet, d docFields) bool { return searchquery.MatchNode(n, fs, d) }

func tokenize(s string) []string { return searchquery.Tokenize(s) }
