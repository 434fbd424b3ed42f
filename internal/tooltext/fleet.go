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

// fleetIndex finds, for a tool name, the servers that have it, and the
// names that share its UTS #39 skeleton.
type fleetIndex struct {
	services   map[string][]string            // tool name to the servers that have it
	bySkeleton map[string]map[string]struct{} // skeleton to the names that have it
}

func toolOwners(ids []string, docs map[string]*analysis) fleetIndex {
	idx := fleetIndex{services: map[string][]string{}, bySkeleton: map[string]map[string]struct{}{}}
	for _, id := range ids {
		for name := range docs[id].names {
			idx.services[name] = append(idx.services[name], id)
			sk := skeleton(name)
			if idx.bySkeleton[sk] == nil {
				idx.bySkeleton[sk] = map[string]struct{}{}
			}
			idx.bySkeleton[sk][name] = struct{}{}
		}
	}
	return idx
}

// otherService is a server other than id that has the tool name, or "".
// Each name's servers are in id order and id is among them at most once, so
// the first two are enough.
func (idx fleetIndex) otherService(name, id string) string {
	for _, s := range idx.services[name][:min(2, len(idx.services[name]))] {
		if s != id {
			return s
		}
	}
	return ""
}

// crossServer adds the fleet rules' findings to one server's analysis.
func (a *analysis) crossServer(id string, idx fleetIndex) {
	for i, t := range a.info {
		if t.name == "" {
			continue
		}
		p := toolPointer(i) + "/name"
		if other := idx.otherService(t.name, id); other != "" {
			a.add(i, p, "fleet-duplicate-name", fmt.Sprintf("%q also has a tool %s", other, quote(escapeHidden(t.name))))
		}
		for _, look := range sortedNames(idx.bySkeleton[skeleton(t.name)]) {
			if other := idx.otherService(look, id); look != t.name && other != "" {
				a.add(i, p, "fleet-confusable-name", fmt.Sprintf("%s looks like %q's tool %s", quote(escapeHidden(t.name)),
					other, quote(escapeHidden(look))))
				break
			}
		}
	}
	for _, r := range a.refs {
		if a.names[r.ident] {
			continue
		}
		if other := idx.otherService(r.ident, id); other != "" {
			a.add(r.tool, r.pointer, "fleet-cross-server-reference", fmt.Sprintf("%s is a tool of %q, not of this server",
				quote(escapeHidden(r.ident)), other))
		}
	}
}

func sortedNames(m map[string]struct{}) []string {
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
