package registryserver

// The router. The table (routes.go) has one line per method of the two
// discovery documents, so every documented method is answered on purpose:
// served, or refused with 501 UNIMPLEMENTED naming it. A line is an
// http.ServeMux pattern, with the document's :verb suffix on the last
// segment where it has one; ServeMux matches the path and takes the ids out
// of it, and this file does what ServeMux cannot:
//
//   - a wildcard is a whole segment for ServeMux, so ".../skills/{skill}" and
//     ".../skills/{skill}:getIamPolicy" are one ServeMux pattern, and the
//     verb after the id's colon picks the line;
//   - a documented path with another method is a 405 whose Allow lists the
//     methods served there, in Google's error envelope (ServeMux's own 405
//     is plain text and would list the refused methods too);
//   - ids are checked against their rules before any handler runs, and
//     query parameters against the method's documented ones (Google's front
//     end refuses an unknown one, and so does this server);
//   - ServeMux redirects a path with "." or ".." segments or "//" to a
//     cleaned one; here such a path is an id to refuse, never another
//     resource, so dot segments reach the id rules escaped and empty segments
//     are refused before matching.

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/state"
)

// serveFunc serves one method. name is the method's {+name} (the resource
// the path names, without its :verb) or, for a method on a collection, its
// {+parent} (the path without the collection).
type serveFunc func(s *Server, w http.ResponseWriter, r *http.Request, name string)

// route is one line of the table.
type route struct {
	pattern string    // "GET /v1/projects/{project}/locations/{location}/skills/{skill}:getIamPolicy"
	id      string    // the discovery document's method id
	query   []string  // the method's query parameters
	serve   serveFunc // nil: refused with 501 UNIMPLEMENTED
	pages   pageRule  // its page size default and cap (from pageRules)
	verb    string    // the :verb of the pattern's last segment, "" without one
}

// systemParameters are the query parameters every method of a Google API
// takes (the discovery document's top-level "parameters"). The generated
// clients send alt=json and prettyPrint=false on every call. The server
// accepts them all and answers JSON whatever they say: it never returns a
// partial response for fields, JSONP for callback, or another error format
// for $.xgafv.
var systemParameters = []string{"$.xgafv", "access_token", "alt", "callback", "fields", "key", "oauth_token",
	"prettyPrint", "quotaUser", "uploadType", "upload_protocol"}

// idRules are the rules of the ids in paths, by wildcard name. Every wildcard
// of a served route has one (newRouter checks it).
var idRules = map[string]state.IDRule{
	"project": state.ProjectRule, "location": state.LocationRule,
	// Agents, MCP servers and endpoints take the id of the service they derive from.
	"service": state.ServiceRule, "agent": state.ServiceRule, "mcpServer": state.ServiceRule, "endpoint": state.ServiceRule,
	"binding": state.BindingRule, "operation": state.OperationRule, "skill": state.SkillRule, "revision": state.RevisionRule,
	"application": state.ApplicationRule, "workload": state.WorkloadRule, "schema": state.SchemaRule,
	"aiApplication": state.DiscoveredRule, "finding": state.DiscoveredRule,
}

// routeGroup holds the lines of one ServeMux pattern, by verb and method.
type routeGroup struct {
	path     string // the ServeMux pattern: the path of the lines, without a verb
	wildcard string // the last segment's wildcard, whose value may end in :verb; "" for a literal
	wilds    []string
	byVerb   map[string]map[string]*route // verb -> method -> line
}

type routeKey struct{}

// routeOf is the line being served, for what it declares beyond the path
// (the page sizes).
func routeOf(r *http.Request) *route {
	rt, _ := r.Context().Value(routeKey{}).(*route)
	return rt
}

// newRouter builds the ServeMux of the table. It panics on a line the table
// cannot have (a malformed pattern, a line twice, an id without a rule):
// those are bugs of the table, found by every test that starts a server.
func (s *Server) newRouter(table []route) *http.ServeMux {
	mux := http.NewServeMux()
	groups := map[string]*routeGroup{}
	for i := range table {
		rt := &table[i]
		method, path, _ := strings.Cut(rt.pattern, " ")
		last := path[strings.LastIndexByte(path, '/')+1:]
		if strings.HasPrefix(last, "{") && strings.Contains(last, "}:") {
			path, rt.verb, _ = strings.Cut(path, "}:")
			path += "}"
		}
		rt.pages = pageRules[rt.id]
		g := groups[path]
		if g == nil {
			g = &routeGroup{path: path, byVerb: map[string]map[string]*route{}}
			for _, seg := range strings.Split(path, "/") {
				if w, ok := strings.CutPrefix(seg, "{"); ok {
					g.wilds = append(g.wilds, strings.TrimSuffix(strings.TrimSuffix(w, "}"), "..."))
				}
			}
			if strings.HasSuffix(path, "}") && !strings.HasSuffix(path, "...}") {
				g.wildcard = g.wilds[len(g.wilds)-1]
			}
			groups[path] = g
			mux.Handle(path, g.handler(s))
		}
		if g.byVerb[rt.verb] == nil {
			g.byVerb[rt.verb] = map[string]*route{}
		}
		if g.byVerb[rt.verb][method] != nil {
			panic("registryserver: route twice: " + rt.pattern)
		}
		g.byVerb[rt.verb][method] = rt
		for _, w := range g.wilds {
			if _, ok := idRules[w]; !ok && rt.serve != nil {
				panic("registryserver: no id rule for {" + w + "} of " + rt.pattern)
			}
		}
	}
	mux.HandleFunc("/", s.unknownPath)
	return mux
}

// route serves r by the table.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	p := r.URL.EscapedPath()
	if rest, ok := strings.CutPrefix(p, "/v1/"); ok {
		segs := strings.Split(rest, "/")
		for i, seg := range segs {
			switch {
			case seg == "" && i < len(segs)-1:
				// ServeMux would redirect "a//b" to "a/b"; a trailing slash is
				// left to the routes, none of which ends in one.
				s.writeError(w, errNotFound("unknown path %q: empty path segment", r.URL.Path))
				return
			case seg == "." || seg == "..":
				segs[i] = strings.Repeat("%2E", len(seg))
			}
		}
		if escaped := "/v1/" + strings.Join(segs, "/"); escaped != p {
			r = r.Clone(r.Context())
			r.URL.RawPath = escaped
		}
	}
	s.mux.ServeHTTP(w, r)
}

func (s *Server) unknownPath(w http.ResponseWriter, r *http.Request) {
	switch {
	case !strings.HasPrefix(r.URL.Path, "/v1/"):
		s.writeError(w, errNotFound("unknown path %q: this server serves /v1/projects/{project}/locations/{location}/...", r.URL.Path))
	case strings.HasSuffix(r.URL.Path, "/"):
		s.writeError(w, errNotFound("unknown path %q: empty path segment", r.URL.Path))
	default:
		s.writeError(w, errNotFound("unknown path %q: no method of the Agent Registry or App Hub API has this path", r.URL.Path))
	}
}

// handler serves the lines of g: it picks the line by verb and method,
// checks the ids and the query, and runs the line's handler.
func (g *routeGroup) handler(s *Server) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		verb := ""
		if g.wildcard != "" {
			if id, v, ok := strings.Cut(r.PathValue(g.wildcard), ":"); ok {
				verb = v
				r.SetPathValue(g.wildcard, id)
			}
		}
		lines := g.byVerb[verb]
		if lines == nil {
			s.writeError(w, errNotFound("unknown path %q: no method :%s here", r.URL.Path, verb))
			return
		}
		rt := lines[r.Method]
		if rt == nil {
			s.methodNotAllowed(w, r, lines)
			return
		}
		if rt.serve == nil {
			s.writeError(w, &apiError{HTTP: http.StatusNotImplemented, Status: "UNIMPLEMENTED",
				Message: fmt.Sprintf("%s (%s) is not served by the bundled registry server; it answers it with UNIMPLEMENTED on purpose. See docs/guides/the-bundled-registry-server.md for what it serves.", rt.id, rt.pattern)})
			return
		}
		for _, wild := range g.wilds {
			if err := checkID(wild, r.PathValue(wild), r); err != nil {
				s.writeError(w, err)
				return
			}
		}
		if err := rt.checkQuery(r); err != nil {
			s.writeError(w, err)
			return
		}
		name := strings.TrimPrefix(r.URL.Path, "/v1/")
		if verb != "" {
			name = strings.TrimSuffix(name, ":"+verb)
		}
		if g.wildcard == "" && !strings.HasSuffix(g.path, "...}") {
			name = name[:strings.LastIndexByte(name, '/')] // a method on a collection takes its parent
		}
		rt.serve(s, w, r.WithContext(context.WithValue(r.Context(), routeKey{}, rt)), name)
	}
}

// checkID checks the id in the path's wildcard wild.
func checkID(wild, v string, r *http.Request) error {
	if v == "" {
		return errNotFound("unknown path %q: empty path segment", r.URL.Path)
	}
	return idRules[wild].Check(v)
}

// methodNotAllowed answers a method the path does not have: 405, with the
// methods served there in Allow.
func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request, lines map[string]*route) {
	var allow, documented []string
	for m, rt := range lines {
		documented = append(documented, m)
		if rt.serve != nil {
			allow = append(allow, m)
		}
	}
	slices.Sort(allow)
	slices.Sort(documented)
	w.Header().Set("Allow", strings.Join(allow, ", "))
	msg := fmt.Sprintf("method %s is not allowed on %s; allowed: %s", r.Method, r.URL.Path, strings.Join(allow, ", "))
	if len(allow) == 0 {
		msg = fmt.Sprintf("method %s is not allowed on %s, and the bundled server serves no method there", r.Method, r.URL.Path)
	}
	if len(allow) < len(documented) {
		msg += fmt.Sprintf(" (the API documents %s; the bundled server refuses the others with UNIMPLEMENTED)", strings.Join(documented, ", "))
	}
	s.writeError(w, &apiError{HTTP: http.StatusMethodNotAllowed, Status: "UNIMPLEMENTED", Message: msg})
}

// checkQuery refuses a query parameter the method does not take, as
// Google's front end does.
func (rt *route) checkQuery(r *http.Request) error {
	for _, k := range sortedQueryKeys(r) {
		if !slices.Contains(rt.query, k) && !slices.Contains(systemParameters, k) {
			return errViolations(fmt.Sprintf("Invalid JSON payload received. Unknown name %q: Cannot bind query parameter. "+
				"Field %q could not be found in request message. %s takes %s.", k, k, rt.id, paramList(rt.query)),
				[]fieldViolation{{Field: k, Description: "is not a query parameter of " + rt.id}})
		}
	}
	return nil
}

func sortedQueryKeys(r *http.Request) []string {
	q := r.URL.Query()
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func paramList(ps []string) string {
	if len(ps) == 0 {
		return "no query parameters (beyond the system parameters such as alt and fields)"
	}
	return "the query parameters " + strings.Join(ps, ", ")
}
