package registryserver

// Locations (locations.get and locations.list, the same in both APIs). The
// bundled server serves every location: a request's location is the one its
// path names, and the first write there brings it into use. So
// locations.get answers for any well-formed location id, and locations.list
// lists global and every location where the project holds a service, a
// binding, a skill or a workload, in name order. The discovery document
// leaves extraLocationTypes to "internal usage"; the server takes it and
// lists the same locations.

import (
	"net/http"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/state"
)

var locationFields = newListSchema("locations", "name", "locationId", "displayName")

func location(name string) *agentregistry.Location {
	return &agentregistry.Location{Name: name, LocationId: state.LastSegment(name)}
}

func (s *Server) getLocation(w http.ResponseWriter, _ *http.Request, name string) {
	writeJSON(w, http.StatusOK, location(name))
}

// listLocations serves locations.list of project ("projects/{project}").
func (s *Server) listLocations(w http.ResponseWriter, r *http.Request, project string) {
	filter := r.URL.Query().Get("filter")
	node, err := parseFilter(filter, locationFields)
	if err != nil {
		s.writeError(w, err)
		return
	}
	size, err := queryPageSize(r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	var locs []*agentregistry.Location
	for _, name := range s.st.LocationsOf(project) {
		l := location(name)
		if matchDoc(node, locationFields, docFields{"name": {l.Name}, "locationId": {l.LocationId}}) {
			locs = append(locs, l)
		}
	}
	qh := queryHash("locations", project, filter)
	after, err := decodeOrderedToken(r.URL.Query().Get("pageToken"), nil, qh)
	if err != nil {
		s.writeError(w, err)
		return
	}
	page, next := search.PageOrdered(locs, nil, func(*agentregistry.Location) search.SortValues { return nil },
		func(l *agentregistry.Location) string { return l.Name }, nil, after, size)
	writeJSON(w, http.StatusOK, &agentregistry.ListLocationsResponse{Locations: page, NextPageToken: encodePosition(next, nil, qh)})
}
