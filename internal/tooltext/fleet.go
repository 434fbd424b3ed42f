package tooltext

import (
	"fmt"
	"sort"
)

// FleetFinding is a Finding of one server of a fleet.
type FleetFinding struct {
	ServiceID string
	Finding
}

// AnalyzeFleet analyses every tool spec of a fleet (service id to document)
// and adds what one document cannot show: a tool name equal to, or
// confusable with, another server's (UTS #39 skeletons), and text that names
// a tool only another server has. A document that cannot be read is an error
// naming its service id: a gate must fail closed.
func AnalyzeFleet(specs map[string][]byte) ([]FleetFinding, error) {
	ids := make([]string, 0, len(specs))
	for id := range specs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	docs := make(map[string]*analysis, len(ids))
	var out []FleetFinding
	for _, id := range ids {
		tools, err := decodeTools(specs[id])
		if err != nil {
			return nil, fmt.Errorf("tool spec of %q: %w", id, err)
		}
		a := newAnalysis(tools)
		a.run()
		docs[id] = a
	}
	owners := toolOwners(ids, docs)
	for _, id := range ids {
		a := docs[id]
		a.crossServer(id, owners)
		sortFindings(a.findings)
		for _, f := range a.findings {
			out = append(out, FleetFinding{ServiceID: id, Finding: f})
		}
	}
	return out, nil
}

// owner is a server's tool, by name.
type owner struct {
	service, name string
}

// fleetIndex finds, for a name, the servers that have it and the servers
// whose tools look like it.
type fleetIndex struct {
	byName     map[string][]owner
	bySkeleton map[string][]owner
	names      map[string]map[string]bool // service id to its tool names
}

func toolOwners(ids []string, docs map[string]*analysis) fleetIndex {
	idx := fleetIndex{byName: map[string][]owner{}, bySkeleton: map[string][]owner{}, names: map[string]map[string]bool{}}
	for _, id := range ids {
		idx.names[id] = docs[id].names
		for _, t := range docs[id].info {
			if t.name == "" {
				continue
			}
			idx.byName[t.name] = append(idx.byName[t.name], owner{id, t.name})
			sk := skeleton(t.name)
			idx.bySkeleton[sk] = append(idx.bySkeleton[sk], owner{id, t.name})
		}
	}
	return idx
}

// crossServer adds the fleet rules' findings to one server's analysis.
func (a *analysis) crossServer(id string, idx fleetIndex) {
	for i, t := range a.info {
		if t.name == "" {
			continue
		}
		p := toolPointer(i) + "/name"
		for _, o := range idx.bySkeleton[skeleton(t.name)] {
			if o.service == id {
				continue
			}
			other := idx.names[o.service]
			switch {
			case other[t.name]:
				a.add(i, p, "fleet-duplicate-name", fmt.Sprintf("%q also has a tool %s", o.service, quote(escapeHidden(t.name))))
			default:
				a.add(i, p, "fleet-confusable-name", fmt.Sprintf("%s looks like %q's tool %s", quote(escapeHidden(t.name)),
					o.service, quote(escapeHidden(o.name))))
			}
		}
	}
	for _, r := range a.refs {
		if a.names[r.ident] {
			continue
		}
		for _, o := range idx.byName[r.ident] {
			if o.service != id {
				a.add(r.tool, r.pointer, "fleet-cross-server-reference", fmt.Sprintf("%s is a tool of %q, not of this server",
					quote(escapeHidden(r.ident)), o.service))
				break
			}
		}
	}
}
