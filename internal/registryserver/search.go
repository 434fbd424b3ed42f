package registryserver

// agents:search, mcpServers:search and the list methods of the derived
// records. All of them evaluate a query (possibly empty) on the parent's
// index and page through the matches in name order.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

// orderFields are the fields the list of k can be ordered by (endpoints.list
// takes no orderBy).
func (k derivedKind) orderFields() []string {
	switch k {
	case kindAgent:
		return []string{"name", "agentId", "displayName", "description", "version", "createTime", "updateTime"}
	case kindMCP:
		return []string{"name", "mcpServerId", "displayName", "description", "createTime", "updateTime"}
	}
	return nil
}

func (k derivedKind) fields() *searchquery.Schema {
	switch k {
	case kindAgent:
		return agentFields
	case kindEndpoint:
		return endpointFields
	}
	return mcpFields
}

// searchRequest covers SearchAgentsRequest and SearchMcpServersRequest,
// which have the same fields.
type searchRequest struct {
	SearchString string `json:"searchString"`
	PageSize     any    `json:"pageSize"` // int64 may arrive as a JSON string
	PageToken    string `json:"pageToken"`
}

func parsePageSizeValue(v any) (int64, error) {
	switch v := v.(type) {
	case nil:
		return 0, nil
	case float64:
		if v != float64(int64(v)) {
			return 0, errInvalid("pageSize must be an integer, got %v", v)
		}
		return int64(v), nil
	case string:
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return 0, errInvalid("pageSize must be an integer, got %q", v)
		}
		return n, nil
	}
	return 0, errInvalid("pageSize must be an integer")
}

func (s *Server) search(w http.ResponseWriter, r *http.Request, parent string, k derivedKind) {
	var req searchRequest
	if err := readJSON(w, r, &req); err != nil {
		s.writeError(w, err)
		return
	}
	n, err := parsePageSizeValue(req.PageSize)
	if err != nil {
		s.writeError(w, err)
		return
	}
	size, err := pages(r).pageSize(n)
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.runQuery(w, r, derivedQuery{parent: parent, kind: k, method: "search", query: req.SearchString, field: "search_string", token: req.PageToken, size: size})
}

func (s *Server) listDerived(w http.ResponseWriter, r *http.Request, parent string, k derivedKind) {
	size, err := queryPageSize(r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	q := r.URL.Query()
	// The list filter uses the same grammar as search (its field:value and
	// field=value forms are the AIP-160 ones).
	s.runQuery(w, r, derivedQuery{parent: parent, kind: k, method: "list", query: q.Get("filter"), field: "filter",
		token: q.Get("pageToken"), size: size, orderBy: q.Get("orderBy")})
}

// derivedQuery is one search or list of derived records.
type derivedQuery struct {
	parent       string
	kind         derivedKind
	method       string // "search" or "list"
	query, field string // the search string or filter, and its name for errors
	token        string
	size         int
	orderBy      string // lists only
}

func (s *Server) runQuery(w http.ResponseWriter, r *http.Request, dq derivedQuery) {
	k := dq.kind
	node, err := search.ParseQuery(dq.query, k.fields())
	if err != nil {
		s.writeError(w, errViolations(fmt.Sprintf("invalid %s: %v", dq.field, err),
			[]fieldViolation{{Field: dq.field, Description: err.Error()}}))
		return
	}
	o, err := search.ParseOrderBy(dq.orderBy, k.orderFields())
	if err != nil {
		s.writeError(w, err)
		return
	}
	qh := queryHash(dq.method, k.collection(), dq.parent, dq.query)
	if len(o) > 0 {
		qh = queryHash(dq.method, k.collection(), dq.parent, dq.query, dq.orderBy)
	}
	after, err := decodePosition(dq.token, o, qh)
	if err != nil {
		s.writeError(w, err)
		return
	}
	// Capture the index under the read lock, then evaluate without it (see
	// search/index.go): a slow search never holds up a write.
	s.mu.RLock()
	ixs := s.indexes(k)
	ix := ixs[dq.parent]
	if ix == nil {
		ix = search.NewIndex(k.fields()) // a parent without records: nothing matches
	}
	sn := ix.Snapshot()
	s.mu.RUnlock()
	ctx, cancel := context.WithTimeout(r.Context(), s.searchTimeout())
	defer cancel()
	ids, next, err := sn.Page(ctx, node, o, after, dq.size)
	if err != nil {
		s.writeError(w, s.searchAborted(r, dq.method, err))
		return
	}
	writeRecords(w, k.collection(), sn, ids, encodePosition(next, o, qh))
}

// writeRecords answers a page of derived records: those of sn at ids (their
// JSON), under collection, and the next page's token.
func writeRecords(w http.ResponseWriter, collection string, sn *search.Snapshot, ids []uint32, next string) {
	// Like Google (proto3 JSON), an empty list is omitted, not sent as [].
	var buf bytes.Buffer
	total := 64
	for _, id := range ids {
		total += len(sn.Record(id)) + 1
	}
	buf.Grow(total)
	buf.WriteString("{")
	if len(ids) > 0 {
		buf.WriteString(`"` + collection + `":[`)
		for i, id := range ids {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(sn.Record(id))
		}
		buf.WriteString("]")
	}
	if next != "" {
		tok, _ := json.Marshal(next)
		buf.WriteString(`,"nextPageToken":`)
		buf.Write(tok)
	}
	buf.WriteString("}")
	writeRawJSON(w, buf.Bytes())
}

// defaultSearchTimeout bounds a search when Options.SearchTimeout is 0.
const defaultSearchTimeout = 10 * time.Second

func (s *Server) searchTimeout() time.Duration {
	if s.opts.SearchTimeout > 0 {
		return s.opts.SearchTimeout
	}
	return defaultSearchTimeout
}

// searchAborted is the error of a search stopped by its context: the client
// went away (nobody reads the answer, but the log shows 499), or the
// server's time limit ran out.
func (s *Server) searchAborted(r *http.Request, method string, err error) error {
	if r.Context().Err() != nil {
		return &apiError{HTTP: 499, Status: "CANCELLED", Message: "the client cancelled the request"}
	}
	return &apiError{HTTP: http.StatusGatewayTimeout, Status: "DEADLINE_EXCEEDED",
		Message: fmt.Sprintf("the %s did not finish within the server's limit of %s (%v); narrow the query", method, s.searchTimeout(), err)}
}
