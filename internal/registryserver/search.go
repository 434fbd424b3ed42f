package registryserver

// agents:search, mcpServers:search and the list methods of the derived
// records. All of them evaluate a query (possibly empty) on the parent's
// index and page through the matches in name order.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

func (k derivedKind) fields() *fieldSet {
	if k == kindAgent {
		return agentFields
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
	s.runQuery(w, parent, k, "search", req.SearchString, "search_string", req.PageToken, size)
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
	s.runQuery(w, parent, k, "list", q.Get("filter"), "filter", q.Get("pageToken"), size)
}

func (s *Server) runQuery(w http.ResponseWriter, parent string, k derivedKind, method, query, queryField, token string, size int) {
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
	// Records are never mutated in place, so the pointers collected under the
	// read lock can be encoded after it is released (a slow client must not
	// hold up writers).
	s.mu.RLock()
	var names []string
	more := false
	ixs := s.agentIx
	if k == kindMCP {
		ixs = s.mcpIx
	}
	if ix := ixs[parent]; ix != nil {
		names, more = ix.search(node, after, size)
	}
	// Assemble the response from the cached encodings of the records.
	// Like Google (proto3 JSON), an empty list is omitted, not sent as [].
	var buf bytes.Buffer
	total := 64
	for _, name := range names {
		total += len(s.encoded[name]) + 1
	}
	buf.Grow(total)
	buf.WriteString("{")
	if len(names) > 0 {
		buf.WriteString(`"` + k.collection() + `":[`)
		for i, n := range names {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(s.encoded[n])
		}
		buf.WriteString("]")
	}
	s.mu.RUnlock()
	if more {
		tok, _ := json.Marshal(encodePageToken(names[len(names)-1], qh))
		buf.WriteString(`,"nextPageToken":`)
		buf.Write(tok)
	}
	buf.WriteString("}")
	writeRawJSON(w, buf.Bytes())
}
