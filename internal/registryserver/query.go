package registryserver

// The search grammar (parser and reference semantics) lives in
// internal/searchquery, shared with the provider, which uses it to tell which
// skills of an agent a query selects. These names keep the server's code
// (index.go, search.go, services.go) reading as before.

import "github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"

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
	endpointFields = searchquery.NewSchema("endpoints",
		[]string{"endpointId", "name", "displayName", "description", "interfaces.url", "interfaces.protocolBinding"},
		map[string][]string{"interfaces": {"interfaces.url", "interfaces.protocolBinding"}},
		[]string{"endpointId", "name", "displayName", "description", "interfaces.url"})
	serviceFilterFields = searchquery.NewSchema("services",
		[]string{"name", "displayName", "description"}, nil,
		[]string{"name", "displayName", "description"})
)

// parseQuery parses q. A nil node with a nil error means "match everything".
func parseQuery(q string, fs *fieldSet) (queryNode, error) {
	parsed, err := searchquery.Parse(q, fs)
	if err != nil {
		return nil, err
	}
	return parsed.Root, nil
}

// matchDoc is the reference (scan) semantics of a query on one document.
func matchDoc(n queryNode, fs *fieldSet, d docFields) bool { return searchquery.MatchNode(n, fs, d) }

func tokenize(s string) []string { return searchquery.Tokenize(s) }
