package registryserver

// agents:search, mcpServers:search and the list methods of the derived
// records. All of them evaluate a query (possibly empty) on the parent's
// index (package search, which the state keeps up to date) and page through
// the matches in name order, or the list's orderBy.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/state"
)

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

func (s *Server) search(w http.ResponseWriter, r *http.Request, parent string, k state.DerivedKind) {
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

func (s *Server) listDerived(w http.ResponseWriter, r *http.Request, parent string, k state.DerivedKind) {
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
	kind         state.DerivedKind
	method       string // "search" or "list"
	query, field string // the search string or filter, and its name for errors
	token        string
	size         int
	orderBy      string // lists only
}

func (s *Server) runQuery(w http.ResponseWriter, r *http.Request, dq derivedQuery) {
	k := dq.kind
	node, err := search.ParseQuery(dq.query, k.Fields())
	if err != nil {
		s.writeError(w, errViolations(fmt.Sprintf("invalid %s: %v", dq.field, err),
			[]fieldViolation{{Field: dq.field, Description: err.Error()}}))
		return
	}
	o, err := search.ParseOrderBy(dq.orderBy, k.OrderFields())
	if err != nil {
		s.writeError(w, err)
		return
	}
	qh := queryHash(dq.method, k.Collection(), dq.parent, dq.query)
	if len(o) > 0 {
		qh = queryHash(dq.method, k.Collection(), dq.parent, dq.query, dq.orderBy)
	}
	after, err := decodePosition(dq.token, o, qh)
	if err != nil {
		s.writeError(w, err)
		return
	}
	// The index is captured under the state's read lock and evaluated
	// without it (see search/index.go): a slow search never holds up a write.
	sn := s.st.Snapshot(k, dq.parent)
	ctx, cancel := s.searchContext(r)
	defer cancel()
	ids, next, err := sn.Page(ctx, node, o, after, dq.size)
	if err != nil {
		s.writeError(w, s.searchAborted(r, dq.method, err))
		return
	}
	writeRecords(w, k.Collection(), sn, ids, encodePosition(next, o, qh))
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
