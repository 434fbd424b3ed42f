package registryserver

// agents:search, mcpServers:search and the list methods of the derived
// records. All of them evaluate a query (possibly empty) on the parent's
// index and page through the matches in name order.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
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

func (k derivedKind) fields() *fieldSet {
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
	node, err := parseQuery(dq.query, k.fields())
	if err != nil {
		s.writeError(w, errViolations(fmt.Sprintf("invalid %s: %v", dq.field, err),
			[]fieldViolation{{Field: dq.field, Description: err.Error()}}))
		return
	}
	o, err := parseOrderBy(dq.orderBy, k.orderFields())
	if err != nil {
		s.writeError(w, err)
		return
	}
	qh := queryHash(dq.method, k.collection(), dq.parent, dq.query)
	if len(o) > 0 {
		qh = queryHash(dq.method, k.collection(), dq.parent, dq.query, dq.orderBy)
	}
	// Capture the index under the read lock, then evaluate without it (see
	// index.go): a slow search never holds up a write.
	s.mu.RLock()
	ixs := s.indexes(k)
	ix := ixs[dq.parent]
	if ix == nil {
		ix = newIndex(k.fields()) // a parent without records: nothing matches, and the token is still checked
	}
	sn := ix.snapshot()
	s.mu.RUnlock()
	ctx, cancel := context.WithTimeout(r.Context(), s.searchTimeout())
	defer cancel()
	ids, next, err := sn.page(ctx, node, o, dq.token, qh, dq.size)
	if err != nil {
		var ae *apiError
		if !errors.As(err, &ae) {
			err = s.searchAborted(r, dq.method, err)
		}
		s.writeError(w, err)
		return
	}
	writeRecords(w, k.collection(), sn.recs, ids, next)
}

// writeRecords answers a page of derived records: those of recs (their
// JSON) at ids, under collection, and the next page's token.
func writeRecords(w http.ResponseWriter, collection string, recs [][]byte, ids []uint32, next string) {
	// Like Google (proto3 JSON), an empty list is omitted, not sent as [].
	var buf bytes.Buffer
	total := 64
	for _, id := range ids {
		total += len(recs[id]) + 1
	}
	buf.Grow(total)
	buf.WriteString("{")
	if len(ids) > 0 {
		buf.WriteString(`"` + collection + `":[`)
		for i, id := range ids {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(recs[id])
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

// page evaluates n on the snapshot and returns the page of size after the
// page token tok, in name order or, with o, in that order; and the next
// page's token. A malformed token is an *apiError, a search stopped by ctx
// ctx's error.
func (sn *snapshot) page(ctx context.Context, n queryNode, o ordering, tok string, qh uint64, size int) ([]uint32, string, error) {
	if len(o) > 0 {
		if _, _, err := decodeOrderedToken(tok, o, qh); err != nil {
			return nil, "", err
		}
		matches, err := sn.evalLive(ctx, n)
		if err != nil {
			return nil, "", err
		}
		var ids []uint32
		matches.each(func(id uint32) { ids = append(ids, id) })
		return pageOrdered(ids, o, func(id uint32) sortValues { return sn.vals[id] }, func(id uint32) string { return sn.names[id] },
			func(id uint32) int { return len(sn.recs[id]) }, tok, qh, size)
	}
	after, err := decodePageToken(tok, qh)
	if err != nil {
		return nil, "", err
	}
	ids, more, err := sn.search(ctx, n, after, size)
	if err != nil {
		return nil, "", err
	}
	// At most maxPageBytes of records (one at least), as every list.
	bytes := 0
	for i, id := range ids {
		if i > 0 && bytes+len(sn.recs[id]) > maxPageBytes {
			ids, more = ids[:i], true
			break
		}
		bytes += len(sn.recs[id])
	}
	if !more {
		return ids, "", nil
	}
	return ids, encodePageToken(sn.names[ids[len(ids)-1]], qh), nil
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
