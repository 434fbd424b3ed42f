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
)

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
	size, err := pageSize(n)
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.runQuery(w, r, parent, k, "search", req.SearchString, "search_string", req.PageToken, size)
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
	s.runQuery(w, r, parent, k, "list", q.Get("filter"), "filter", q.Get("pageToken"), size)
}

func (s *Server) runQuery(w http.ResponseWriter, r *http.Request, parent string, k derivedKind, method, query, queryField, token string, size int) {
	node, err := parseQuery(query, k.fields())
	if err != nil {
		s.writeError(w, errViolations(fmt.Sprintf("invalid %s: %v", queryField, err),
			[]fieldViolation{{Field: queryField, Description: err.Error()}}))
		return
	}
	qh := queryHash(method, k.collection(), parent, query)
	after, err := decodePageToken(token, qh)
	if err != nil {
		s.writeError(w, err)
		return
	}
	// Capture the index under the read lock, then evaluate without it (see
	// index.go): a slow search never holds up a write.
	s.mu.RLock()
	ixs := s.indexes(k)
	var sn *snapshot
	if ix := ixs[parent]; ix != nil {
		sn = ix.snapshot()
	}
	s.mu.RUnlock()
	var ids []uint32
	more := false
	if sn != nil {
		ctx, cancel := context.WithTimeout(r.Context(), s.searchTimeout())
		ids, more, err = sn.search(ctx, node, after, size)
		cancel()
		if err != nil {
			s.writeError(w, s.searchAborted(r, method, err))
			return
		}
	}
	// Like Google (proto3 JSON), an empty list is omitted, not sent as [].
	var buf bytes.Buffer
	total := 64
	for _, id := range ids {
		total += len(sn.recs[id]) + 1
	}
	buf.Grow(total)
	buf.WriteString("{")
	if len(ids) > 0 {
		buf.WriteString(`"` + k.collection() + `":[`)
		for i, id := range ids {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(sn.recs[id])
		}
		buf.WriteString("]")
	}
	if more {
		tok, _ := json.Marshal(encodePageToken(sn.names[ids[len(ids)-1]], qh))
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
