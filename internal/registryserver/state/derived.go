package state

// Derived records. Google's registry turns each Service into a read-only
// Agent (agent_spec), McpServer (mcp_server_spec) or Endpoint (endpoint_spec). Here the derived record
// is a pure function of the service, so it is recomputed on every write and
// at start instead of being stored. Its resource id is the service id, which keeps
// names predictable: services/foo -> agents/foo, mcpServers/foo or endpoints/foo;
// its agentId, mcpServerId or endpointId is a URN (urn.go).
//
// The output-only fields the server has the information for are filled:
// Agent.location is the location the agent is registered in (the bundled
// server knows no other place an agent is hosted), and the attributes carry
// agentregistry.googleapis.com/system/RuntimeReference, the full resource
// name of the service that defines the record, the one resource behind it
// the server knows. The Framework and RuntimeIdentity attributes describe a
// runtime the server does not see, so they are never set.

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// DerivedKind is a kind of record derived from services: agents, MCP
// servers or endpoints.
type DerivedKind int

// The kinds of derived records.
const (
	KindAgent DerivedKind = iota
	KindMCP
	KindEndpoint
)

// Collection is the collection of the kind's records in a name.
func (k DerivedKind) Collection() string {
	switch k {
	case KindAgent:
		return "agents"
	case KindEndpoint:
		return "endpoints"
	}
	return "mcpServers"
}

// Title is the record's type name, for messages.
func (k DerivedKind) Title() string {
	switch k {
	case KindAgent:
		return "Agent"
	case KindEndpoint:
		return "Endpoint"
	}
	return "McpServer"
}

// derivedKindOf is the kind of record a service derives.
func derivedKindOf(svc *resource.Service) (DerivedKind, bool) {
	switch serviceKind(svc) {
	case specAgent:
		return KindAgent, true
	case specMCP:
		return KindMCP, true
	case specEndpoint:
		return KindEndpoint, true
	}
	return 0, false
}

// registryResource names the derived record of a service.
func registryResource(svc *resource.Service) string {
	k, ok := derivedKindOf(svc)
	if !ok {
		return ""
	}
	return recordName(svc, k)
}

// recordName is the name of the record of kind k derived from svc: its
// resource id is the service id.
func recordName(svc *resource.Service, k DerivedKind) string {
	return ParentOf(svc.Name) + "/" + k.Collection() + "/" + LastSegment(svc.Name)
}

// uidFor is a stable UUID-shaped id for a record, derived from its name and
// creation time, so it survives restarts and differs after re-creation.
func uidFor(name, created string) string {
	h := sha256.Sum256([]byte(name + "\x00" + created))
	h[6] = h[6]&0x0f | 0x50 // version 5-style
	h[8] = h[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// cardInterfaces reads the transport of each interface of a card, which
// spec.AgentCard does not expose: 0.3 has url + preferredTransport and
// additionalInterfaces[{url, transport}]; 1.0 has supportedInterfaces[{url,
// protocolBinding, protocolVersion}] (or supported_interfaces[{url,
// protocol_binding, protocol_version}]).
type cardTransports struct {
	URL                  string `json:"url"`
	PreferredTransport   string `json:"preferredTransport"`
	ProtocolVersion      string `json:"protocolVersion"`
	AdditionalInterfaces []struct {
		URL       string `json:"url"`
		Transport string `json:"transport"`
	} `json:"additionalInterfaces"`
	SupportedInterfaces []cardInterface10 `json:"supportedInterfaces"`
	// The same in ProtoJSON's other spelling, the proto field names.
	SupportedInterfacesProtoNames []cardInterface10ProtoNames `json:"supported_interfaces"`
}

type cardInterface10 struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
	ProtocolVersion string `json:"protocolVersion"`
}

type cardInterface10ProtoNames struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocol_binding"`
	ProtocolVersion string `json:"protocol_version"`
}

// runtimeReferenceKey is the attribute that names the resource behind a record.
const runtimeReferenceKey = "agentregistry.googleapis.com/system/RuntimeReference"

// attributesOf are the attributes of the record derived from svc.
func attributesOf(svc *resource.Service) map[string]json.RawMessage {
	uri, _ := json.Marshal(map[string]string{"uri": "//agentregistry.googleapis.com/" + svc.Name})
	return map[string]json.RawMessage{runtimeReferenceKey: uri}
}

func binding(t string) string {
	switch t {
	case "GRPC", "grpc":
		return "GRPC"
	case "HTTP+JSON", "HTTP_JSON", "REST", "http+json":
		return "HTTP_JSON"
	}
	// JSON-RPC is A2A's default transport.
	return "JSONRPC"
}

// cardProtocol is the A2A protocol of a card (content): its version, and
// its URLs (urls, as spec parsed them) with the binding the card gives each.
func cardProtocol(content []byte, a2aVersion string, urls []string) *resource.Protocol {
	var ct cardTransports
	_ = json.Unmarshal(content, &ct)
	p := &resource.Protocol{Type: "A2A_AGENT", ProtocolVersion: ct.ProtocolVersion}
	if p.ProtocolVersion == "" {
		p.ProtocolVersion = a2aVersion
	}
	bind := map[string]string{}
	if ct.URL != "" {
		bind[ct.URL] = binding(ct.PreferredTransport)
	}
	for _, ai := range ct.AdditionalInterfaces {
		if _, ok := bind[ai.URL]; !ok {
			bind[ai.URL] = binding(ai.Transport)
		}
	}
	for _, si := range ct.SupportedInterfacesProtoNames {
		ct.SupportedInterfaces = append(ct.SupportedInterfaces, cardInterface10(si))
	}
	for _, si := range ct.SupportedInterfaces {
		if _, ok := bind[si.URL]; !ok {
			bind[si.URL] = binding(si.ProtocolBinding)
		}
	}
	for _, u := range urls {
		p.Interfaces = append(p.Interfaces, &resource.Interface{Url: u, ProtocolBinding: bind[u]})
	}
	return p
}

// header is what every record derived from a service carries, whatever its
// kind: its name and id (a URN), the attributes that name the service, and
// the service's display name, description and times.
type header struct {
	name, id                                         string
	attributes                                       map[string]json.RawMessage
	displayName, description, createTime, updateTime string
}

// headerOf is the header of the record of kind k derived from svc.
func headerOf(svc *resource.Service, k DerivedKind) header {
	return header{name: recordName(svc, k), id: recordURN(k, ParentOf(svc.Name), LastSegment(svc.Name)), attributes: attributesOf(svc),
		displayName: svc.DisplayName, description: svc.Description, createTime: svc.CreateTime, updateTime: svc.UpdateTime}
}

// fields are the search fields of the header, its id under idField.
func (h header) fields(idField string) docFields {
	return docFields{idField: {h.id}, "name": {h.name}, "displayName": {h.displayName}, "description": {h.description}}
}

// deriveAgent is the Agent record of an agent_spec service: the header, then
// what its card says (its name and description over the service's, its
// version, skills and interfaces) or, without a card, its interfaces.
func deriveAgent(svc *resource.Service, h header) (*resource.Agent, docFields) {
	a := &resource.Agent{Name: h.name, AgentId: h.id, Attributes: h.attributes, DisplayName: h.displayName,
		Description: h.description, CreateTime: h.createTime, UpdateTime: h.updateTime,
		Location: LastSegment(ParentOf(svc.Name)), Uid: uidFor(h.name, h.createTime)}
	if svc.AgentSpec != nil && svc.AgentSpec.Type == "A2A_AGENT_CARD" && len(svc.AgentSpec.Content) > 0 {
		content := []byte(svc.AgentSpec.Content)
		a.Card = &resource.Card{Type: "A2A_AGENT_CARD", Content: svc.AgentSpec.Content}
		if card, err := spec.ParseAgentCard(content); err == nil && card != nil {
			if card.Name != "" {
				a.DisplayName = card.Name
			}
			if card.Description != "" {
				a.Description = card.Description
			}
			a.Version = card.Version
			for _, sk := range card.Skills {
				a.Skills = append(a.Skills, &resource.A2ASkill{
					Id: sk.ID, Name: sk.Name, Description: sk.Description, Tags: sk.Tags, Examples: sk.Examples,
				})
			}
			a.Protocols = []*resource.Protocol{cardProtocol(content, card.A2AVersion, card.URLs)}
		}
	} else if len(svc.Interfaces) > 0 {
		a.Protocols = []*resource.Protocol{{Type: "CUSTOM", Interfaces: svc.Interfaces}}
	}
	doc := searchquery.Agent{AgentID: a.AgentId, Name: a.Name, DisplayName: a.DisplayName, Description: a.Description}
	for _, sk := range a.Skills {
		doc.Skills = append(doc.Skills, searchquery.AgentSkill{ID: sk.Id, Name: sk.Name, Description: sk.Description, Tags: sk.Tags, Examples: sk.Examples})
	}
	return a, doc.Fields()
}

// deriveMCP is the McpServer record of an mcp_server_spec service: the
// header, its interfaces, and the tools of its tool spec.
func deriveMCP(svc *resource.Service, h header) (*resource.McpServer, docFields) {
	m := &resource.McpServer{Name: h.name, McpServerId: h.id, Attributes: h.attributes, DisplayName: h.displayName,
		Description: h.description, CreateTime: h.createTime, UpdateTime: h.updateTime, Interfaces: svc.Interfaces}
	if svc.McpServerSpec != nil && svc.McpServerSpec.Type == "TOOL_SPEC" && len(svc.McpServerSpec.Content) > 0 {
		if tools, err := spec.ParseToolSpec([]byte(svc.McpServerSpec.Content)); err == nil {
			for _, t := range tools {
				m.Tools = append(m.Tools, &resource.Tool{
					Name: t.Name, Description: t.Description,
					Annotations: &resource.Annotations{
						Title: t.Title, ReadOnlyHint: t.ReadOnlyHint, DestructiveHint: t.DestructiveHint,
						IdempotentHint: t.IdempotentHint, OpenWorldHint: t.OpenWorldHint,
					},
				})
			}
		}
	}
	d := h.fields("mcpServerId")
	for _, t := range m.Tools {
		d["tools.name"] = append(d["tools.name"], t.Name)
		d["tools.description"] = append(d["tools.description"], t.Description)
	}
	return m, d
}

// deriveEndpoint is the Endpoint record of an endpoint_spec service: the
// header and its interfaces.
func deriveEndpoint(svc *resource.Service, h header) (*resource.Endpoint, docFields) {
	e := &resource.Endpoint{Name: h.name, EndpointId: h.id, Attributes: h.attributes, DisplayName: h.displayName,
		Description: h.description, CreateTime: h.createTime, UpdateTime: h.updateTime, Interfaces: svc.Interfaces}
	d := h.fields("endpointId")
	for _, in := range e.Interfaces {
		if in != nil {
			d["interfaces.url"] = append(d["interfaces.url"], in.Url)
			d["interfaces.protocolBinding"] = append(d["interfaces.protocolBinding"], in.ProtocolBinding)
		}
	}
	return e, d
}

// derive computes the derived record of svc, its name, its search fields
// and its kind (ok false: svc derives none).
func derive(svc *resource.Service) (rec any, name string, d docFields, k DerivedKind, ok bool) {
	if k, ok = derivedKindOf(svc); !ok {
		return nil, "", nil, k, false
	}
	h := headerOf(svc, k)
	switch k {
	case KindAgent:
		rec, d = deriveAgent(svc, h)
	case KindMCP:
		rec, d = deriveMCP(svc, h)
	default:
		rec, d = deriveEndpoint(svc, h)
	}
	return rec, h.name, d, k, true
}

// orderValues are the values of the fields a derived record's list can be
// ordered by (DerivedKind.OrderFields).
func orderValues(rec any) search.SortValues {
	switch r := rec.(type) {
	case *resource.Agent:
		return search.SortValues{"name": r.Name, "agentId": r.AgentId, "displayName": r.DisplayName, "description": r.Description,
			"version": r.Version, "createTime": search.TimeKey(r.CreateTime), "updateTime": search.TimeKey(r.UpdateTime)}
	case *resource.McpServer:
		return search.SortValues{"name": r.Name, "mcpServerId": r.McpServerId, "displayName": r.DisplayName, "description": r.Description,
			"createTime": search.TimeKey(r.CreateTime), "updateTime": search.TimeKey(r.UpdateTime)}
	}
	return nil
}

// indexes is the per-parent index map of a kind of derived record.
func (s *State) indexes(k DerivedKind) map[string]*search.Index {
	switch k {
	case KindAgent:
		return s.agentIx
	case KindEndpoint:
		return s.endpointIx
	}
	return s.mcpIx
}

// putDerived (re)computes the derived record of svc and indexes it.
// Call with s.mu held for writing.
func (s *State) putDerived(svc *resource.Service) {
	rec, name, d, k, ok := derive(svc)
	if !ok {
		return
	}
	parent := ParentOf(svc.Name)
	if b, ok := s.cacheJSON(name, rec); ok {
		ixs := s.indexes(k)
		ixs[parent] = s.indexOf(ixs, parent, k.Fields()).Put(name, d, b, orderValues(rec))
	}
}

// indexOf returns the index of parent in ixs, creating it.
func (s *State) indexOf(ixs map[string]*search.Index, parent string, fs *searchquery.Schema) *search.Index {
	ix := ixs[parent]
	if ix == nil {
		ix = search.NewIndex(fs)
		ixs[parent] = ix
	}
	return ix
}

func (s *State) removeDerived(svc *resource.Service) {
	k, ok := derivedKindOf(svc)
	if !ok {
		return
	}
	name := registryResource(svc)
	parent := ParentOf(svc.Name)
	delete(s.encoded, name)
	ixs := s.indexes(k)
	if ix := ixs[parent]; ix != nil {
		ixs[parent] = ix.Remove(name)
	}
}

// cacheJSON keeps the encoded form of a derived record. Encoding the
// generated types (and re-compacting the embedded card) dominated search
// latency; records change only on writes, so they are encoded once there.
func (s *State) cacheJSON(name string, v any) ([]byte, bool) {
	b, err := json.Marshal(v)
	if err != nil {
		s.log.Error("encode derived record", "name", Clip(name), "err", Clip(err.Error()))
		delete(s.encoded, name)
		return nil, false
	}
	s.encoded[name] = b
	return b, true
}

// Derived is the JSON of the record of kind k called name, or NOT_FOUND.
func (s *State) Derived(k DerivedKind, name string) ([]byte, error) {
	// The name's collection (agents/, mcpServers/ or endpoints/) comes from
	// the route, so a record found under it is of kind k.
	s.mu.RLock()
	b, ok := s.encoded[name]
	s.mu.RUnlock()
	if !ok {
		return nil, errNotFound("%s %q was not found.", k.Title(), name)
	}
	return b, nil
}

// Snapshot captures the index of the records of kind k of parent, which a
// search evaluates without the state's lock (see search/index.go): a slow
// search never holds up a write. A parent without records has an empty
// index: nothing matches.
func (s *State) Snapshot(k DerivedKind, parent string) *search.Snapshot {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ix := s.indexes(k)[parent]
	if ix == nil {
		ix = search.NewIndex(k.Fields())
	}
	return ix.Snapshot()
}

// Fields are the fields a search of k's records, or a filter of their
// list, names.
func (k DerivedKind) Fields() *searchquery.Schema {
	switch k {
	case KindAgent:
		return searchquery.Agents
	case KindEndpoint:
		return endpointFields
	}
	return searchquery.McpServers
}

// OrderFields are the fields the list of k can be ordered by (endpoints.list
// takes no orderBy).
func (k DerivedKind) OrderFields() []string {
	switch k {
	case KindAgent:
		return []string{"name", "agentId", "displayName", "description", "version", "createTime", "updateTime"}
	case KindMCP:
		return []string{"name", "mcpServerId", "displayName", "description", "createTime", "updateTime"}
	}
	return nil
}

// endpoints.list takes a filter (AIP-160) over these fields; endpoints have
// no search method. The document's example interfaces.transport is the
// protocol binding (Interface has no transport field); its version and the
// services' labels are fields the v1 Endpoint and Service do not have, so a
// filter on them is refused as a filter on any unknown field.
var endpointFields = searchquery.NewSchema("endpoints",
	[]string{"endpointId", "name", "displayName", "description", "interfaces.url", "interfaces.protocolBinding"},
	map[string][]string{"interfaces": {"interfaces.url", "interfaces.protocolBinding"}, "interfaces.transport": {"interfaces.protocolBinding"}},
	[]string{"endpointId", "name", "displayName", "description", "interfaces.url"})
