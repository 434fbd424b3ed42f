package registryserver

// skills.list and skills:search (their evaluation is search.Skills).

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
)

// listSkills serves skills.list and skills:search. Both take a snapshot of
// the parent's skills under the read lock and evaluate outside it, under
// the search deadline, so that no search holds up a write and a client that
// goes away stops the work.
func (s *Server) listSkills(w http.ResponseWriter, r *http.Request, parent string, isSearch bool) {
	q := r.URL.Query()
	size, err := queryPageSize(r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	query, mode, filter, order, err := skillQuery(q, isSearch)
	if err != nil {
		s.writeError(w, err)
		return
	}
	qh := queryHash("skills", parent, mode, query, q.Get("filter"), q.Get("orderBy"))
	offset, err := decodeOffset(q.Get("pageToken"), qh)
	if err != nil {
		s.writeError(w, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.searchTimeout())
	defer cancel()
	hits, err := search.Skills(ctx, s.st.SkillsOf(parent), mode, query, filter, order)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		method := "skills list"
		if isSearch {
			method = "skills search"
		}
		err = s.searchAborted(r, method, err)
	}
	if err != nil {
		s.writeError(w, err)
		return
	}
	page, next := search.OffsetPage(hits, offset, size)
	tok := ""
	if next > 0 {
		tok = encodeOffset(next, qh)
	}
	if isSearch {
		writeJSON(w, http.StatusOK, &resource.SearchSkillsResponse{Skills: page, NextPageToken: tok})
		return
	}
	writeJSON(w, http.StatusOK, &resource.ListSkillsResponse{Skills: page, NextPageToken: tok})
}

// skillQuery parses the parameters of skills.list (isSearch false) or
// skills:search: the search string and type ("list" for a list), the
// filter, and the order (lists only).
func skillQuery(q url.Values, isSearch bool) (query, mode string, filter search.SkillFilter, order search.Ordering, err error) {
	mode = "list"
	if isSearch {
		query, mode = q.Get("searchString"), q.Get("searchType")
		if mode == "" || mode == "SEARCH_TYPE_UNSPECIFIED" {
			mode = "KEYWORD"
		}
		if mode != "KEYWORD" && mode != "SEMANTIC" {
			return "", "", filter, nil, errViolations("search_type must be KEYWORD or SEMANTIC, got "+strconv.Quote(mode),
				[]fieldViolation{{Field: "search_type", Description: "KEYWORD or SEMANTIC"}})
		}
	}
	if filter, err = search.ParseSkillFilter(q.Get("filter")); err != nil {
		return "", "", filter, nil, queryError("filter", err)
	}
	if !isSearch {
		order, err = search.ParseOrderBy(q.Get("orderBy"), search.SkillOrder)
	}
	return query, mode, filter, order, err
}

func queryError(field string, err error) error {
	return errViolations("invalid "+field+": "+err.Error(), []fieldViolation{{Field: field, Description: err.Error()}})
}
