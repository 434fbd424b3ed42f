package state

import (
	"slices"
	"strings"
)

// LocationsOf lists the names of global and of the locations in use in
// project ("projects/{project}"): those where it holds a service, a
// binding, a skill or a workload, in name order. The bundled server serves
// every location: the first write to one brings it into use.
func (s *State) LocationsOf(project string) []string {
	names := []string{project + "/locations/global"}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, groups := range []map[string][]string{s.services.order, s.bindings.order, s.skills.skills.order, s.workloads.order} {
		for g := range groups {
			if p := ParentOf(g); strings.HasPrefix(p, project+"/") {
				names = append(names, p)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}
