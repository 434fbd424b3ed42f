package registryserver

// What the lists share: the page size of each method, the position a page
// token continues from, the deadline of a scan, and the errors of a scan
// stopped by it.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
)

// pageRule is a method's page size: the size of a page without pageSize (or
// with 0), and the most a page holds whatever pageSize asks.
type pageRule struct{ def, max int }

// defaultPages serves the lists whose page size the discovery document
// leaves to the server ("If unspecified, server will pick an appropriate
// default"), and is what the searches document.
var defaultPages = pageRule{20, 100}

// pageRules are the page sizes the discovery document gives, by method.
var pageRules = map[string]pageRule{
	// "Page size is 500 if unspecified and is capped at 500 even if a larger value is given."
	"agentregistry.projects.locations.bindings.list":           {500, 500},
	"agentregistry.projects.locations.bindings.fetchAvailable": {500, 500},
}

// pages is the page rule of the method r is served by.
func pages(r *http.Request) pageRule {
	if rt := routeOf(r); rt != nil && rt.pages.def > 0 {
		return rt.pages
	}
	return defaultPages
}

// pageSize applies a method's rule: 0 -> its default, more than its cap ->
// its cap, negative -> an error.
func (p pageRule) pageSize(n int64) (int, error) {
	switch {
	case n < 0:
		return 0, errViolations(fmt.Sprintf("page_size must not be negative, got %d", n),
			[]fieldViolation{{Field: "page_size", Description: fmt.Sprintf("must be between 0 and %d (0 means the default, %d)", p.max, p.def)}})
	case n == 0:
		return p.def, nil
	case n > int64(p.max):
		return p.max, nil
	}
	return int(n), nil
}

func queryPageSize(r *http.Request) (int, error) {
	v := r.URL.Query().Get("pageSize")
	if v == "" {
		return pages(r).def, nil
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, errInvalid("pageSize %q is not an integer", v)
	}
	return pages(r).pageSize(n)
}

// pageArgs are the page a list request asks for: where its token (issued
// for the query hash qh of a list ordered by o, empty for by name)
// continues, and the page size.
func pageArgs(r *http.Request, o search.Ordering, qh uint64) (*search.Position, int, error) {
	size, err := queryPageSize(r)
	if err != nil {
		return nil, 0, err
	}
	after, err := decodePosition(r.URL.Query().Get("pageToken"), o, qh)
	return after, size, err
}

// listQuery is what a list request asks: the records its filter selects,
// in its order, the page after its token, and the hash its tokens are
// bound to (so that a token cannot continue another list).
type listQuery struct {
	filter queryNode
	order  search.Ordering
	after  *search.Position
	size   int
	qh     uint64
}

// readListQuery reads a list request of method over group, whose filter
// names the fields fs and whose orderBy the fields orderFields (nil: a list
// without one), checked in that order, then its page size and token.
func readListQuery(r *http.Request, fs *fieldSet, orderFields []string, method, group string) (listQuery, error) {
	var lq listQuery
	filter, node, err := listFilter(r, fs)
	if err != nil {
		return lq, err
	}
	lq.filter, lq.qh = node, queryHash(method, group, filter)
	if orderFields != nil {
		orderBy := r.URL.Query().Get("orderBy")
		if lq.order, err = search.ParseOrderBy(orderBy, orderFields); err != nil {
			return lq, err
		}
		if len(lq.order) > 0 {
			lq.qh = queryHash(method, group, filter, orderBy)
		}
	}
	lq.after, lq.size, err = pageArgs(r, lq.order, lq.qh)
	return lq, err
}

// next is the token of the page after next (none when next is nil).
func (lq listQuery) next(next *search.Position) string { return encodePosition(next, lq.order, lq.qh) }

// defaultSearchTimeout bounds a search when Options.SearchTimeout is 0.
const defaultSearchTimeout = 10 * time.Second

func (s *Server) searchTimeout() time.Duration {
	if s.opts.SearchTimeout > 0 {
		return s.opts.SearchTimeout
	}
	return defaultSearchTimeout
}

// searchContext is the context of a search or list scan of r: r's, ended
// by the server's time limit too.
func (s *Server) searchContext(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), s.searchTimeout())
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

// listAborted is the error of a list: a scan stopped by its context as
// searchAborted words it, any other as it is.
func (s *Server) listAborted(r *http.Request, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return s.searchAborted(r, "list", err)
	}
	return err
}
