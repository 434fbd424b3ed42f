package registryserver

// Services: the only writable Agent Registry resource. Each write validates
// the whole resulting Service (lengths, exactly one spec, immutable spec
// type, documents through internal/spec), commits it with its operation, and
// refreshes the derived Agent or McpServer record and its search index.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

const (
	typeService = "type.googleapis.com/google.cloud.agentregistry.v1.Service"
	typeEmpty   = "type.googleapis.com/google.protobuf.Empty"

	maxDisplayName = 63
	maxDescription = 2048
	// maxInterfaces bounds a service's interfaces: a service has a handful
	// (one per protocol binding and version); thousands only cost memory.
	maxInterfaces = 32

	// maxServicesPerLocation, maxBindingsPerLocation and
	// maxWorkloadsPerLocation bound what one client can make the server
	// hold, and a list scan, per location (429 RESOURCE_EXHAUSTED beyond).
	maxServicesPerLocation  = 50000
	maxBindingsPerLocation  = 50000
	maxWorkloadsPerLocation = 50000
)

var serviceIDRE = regexp.MustCompile(`^[a-z][a-z0-9-]{2,61}[a-z0-9]$`)

// specKind is which of the three specs a service carries.
type specKind string

const (
	specNone     specKind = ""
	specAgent    specKind = "agent_spec"
	specMCP      specKind = "mcp_server_spec"
	specEndpoint specKind = "endpoint_spec"
)

func serviceKind(s *agentregistry.Service) specKind {
	switch {
	case s.AgentSpec != nil:
		return specAgent
	case s.McpServerSpec != nil:
		return specMCP
	case s.EndpointSpec != nil:
		return specEndpoint
	}
	return specNone
}

// specOf returns the (type, content) of the service's spec.
func specOf(s *agentregistry.Service) (string, json.RawMessage) {
	typ, content, _ := specIn(s, serviceKind(s))
	return typ, content
}

// specIn returns the (type, content) of the service's spec of kind k, and
// whether the service has one.
func specIn(s *agentregistry.Service, k specKind) (string, json.RawMessage, bool) {
	switch {
	case k == specAgent && s.AgentSpec != nil:
		return s.AgentSpec.Type, json.RawMessage(s.AgentSpec.Content), true
	case k == specMCP && s.McpServerSpec != nil:
		return s.McpServerSpec.Type, json.RawMessage(s.McpServerSpec.Content), true
	case k == specEndpoint && s.EndpointSpec != nil:
		return s.EndpointSpec.Type, json.RawMessage(s.EndpointSpec.Content), true
	}
	return "", nil, false
}

// validateService checks a complete service and normalises its spec content
// in place (compact, keys sorted), which is how the registry sends it back.
func validateService(svc *agentregistry.Service) []fieldViolation {
	var v violations
	if n := utf8.RuneCountInString(svc.DisplayName); n > maxDisplayName {
		v.add("display_name", "must be at most %d characters, got %d", maxDisplayName, n)
	}
	if n := utf8.RuneCountInString(svc.Description); n > maxDescription {
		v.add("description", "must be at most %d characters, got %d", maxDescription, n)
	}
	if n := len(svc.Interfaces); n > maxInterfaces {
		v.add("interfaces", "must hold at most %d interfaces, got %d", maxInterfaces, n)
		return v
	}
	validateInterfaces(&v, svc.Interfaces)
	n := 0
	for _, set := range []bool{svc.AgentSpec != nil, svc.McpServerSpec != nil, svc.EndpointSpec != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		v.add("agent_spec", "exactly one of agent_spec, mcp_server_spec and endpoint_spec must be set, got %d", n)
		return v
	}
	validateSpec(&v, svc)
	return v
}

// violations collects field violations.
type violations []fieldViolation

func (v *violations) add(field, format string, args ...any) {
	*v = append(*v, fieldViolation{Field: field, Description: fmt.Sprintf(format, args...)})
}

// validateInterfaces checks a service's interfaces: where clients reach the
// service, so only web URLs of bounded length, never javascript:, file: or
// data: that a consumer might follow.
func validateInterfaces(v *violations, ifs []*agentregistry.Interface) {
	for i, in := range ifs {
		f := fmt.Sprintf("interfaces[%d]", i)
		if in == nil {
			v.add(f, "must not be null")
			continue
		}
		if len(in.Url) > maxURILength {
			v.add(f+".url", "must be at most %d bytes, got %d", maxURILength, len(in.Url))
		} else if u, err := url.Parse(in.Url); in.Url == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			v.add(f+".url", "must be an absolute http:// or https:// URL, got %q", in.Url)
		}
		switch in.ProtocolBinding {
		case "JSONRPC", "GRPC", "HTTP_JSON":
		case "", "PROTOCOL_BINDING_UNSPECIFIED":
			v.add(f+".protocol_binding", "is required: one of JSONRPC, GRPC, HTTP_JSON")
		default:
			v.add(f+".protocol_binding", "must be one of JSONRPC, GRPC, HTTP_JSON, got %q", in.ProtocolBinding)
		}
	}
}

// specRule is what a spec kind allows: its types, and the validator of
// the documents of type typ (nil: the type has no document).
func specRule(kind specKind, typ string) (allowed []string, validate func([]byte) *spec.Result) {
	switch kind {
	case specAgent:
		if typ == "A2A_AGENT_CARD" {
			validate = spec.ValidateAgentCard
		}
		return []string{"NO_SPEC", "A2A_AGENT_CARD"}, validate
	case specMCP:
		if typ == "TOOL_SPEC" {
			validate = spec.ValidateToolSpec
		}
		return []string{"NO_SPEC", "TOOL_SPEC"}, validate
	}
	return []string{"NO_SPEC"}, nil
}

// validateSpec checks the one spec of svc: its type, and its document
// through internal/spec, which it normalises in place.
func validateSpec(v *violations, svc *agentregistry.Service) {
	kind := serviceKind(svc)
	typ, content := specOf(svc)
	content = trimNull(content)
	allowed, validate := specRule(kind, typ)
	if kind == specAgent && typ == "A2A_AGENT_CARD" && len(svc.Interfaces) > 0 {
		v.add("interfaces", "must be empty when agent_spec.type is A2A_AGENT_CARD: the interfaces come from the agent card")
	}
	field := string(kind)
	switch {
	case !slices.Contains(allowed, typ) && (typ == "" || typ == "TYPE_UNSPECIFIED"):
		v.add(field+".type", "is required: one of %s", strings.Join(allowed, ", "))
	case !slices.Contains(allowed, typ):
		v.add(field+".type", "must be one of %s, got %q", strings.Join(allowed, ", "), typ)
	case validate == nil:
		if len(content) > 0 {
			v.add(field+".content", "must be empty when %s.type is NO_SPEC", field)
		}
		setContent(svc, nil)
	case len(content) == 0:
		v.add(field+".content", "is required when %s.type is %s", field, typ)
	default:
		validateDocument(v, svc, field, content, validate)
	}
}

// validateDocument checks a spec's document: a JSON object of at most
// spec.MaxDocumentBytes, valid for its type; when it is, the service
// carries its normal form.
func validateDocument(v *violations, svc *agentregistry.Service, field string, content json.RawMessage, validate func([]byte) *spec.Result) {
	if content[0] != '{' {
		v.add(field+".content", "must be a JSON object")
		return
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, content); err != nil {
		v.add(field+".content", "is not valid JSON: %v", err)
		return
	}
	if compact.Len() > spec.MaxDocumentBytes {
		v.add(field+".content", "is %d bytes of compact JSON; the limit is %d bytes (10 KB)", compact.Len(), spec.MaxDocumentBytes)
		return
	}
	res := validate(compact.Bytes())
	for _, p := range res.Errors() {
		v.add(field+".content"+p.Pointer, "%s", p.Message)
	}
	if len(*v) == 0 {
		norm := res.Compact
		if len(norm) == 0 {
			norm = compact.Bytes()
		}
		setContent(svc, norm)
	}
}

func trimNull(b json.RawMessage) json.RawMessage {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	return b
}

func setContent(svc *agentregistry.Service, c []byte) {
	switch {
	case svc.AgentSpec != nil:
		svc.AgentSpec.Content = c
	case svc.McpServerSpec != nil:
		svc.McpServerSpec.Content = c
	case svc.EndpointSpec != nil:
		svc.EndpointSpec.Content = c
	}
}

// cloneService deep-copies a service. Stored services are never mutated in
// place (readers hold them without the lock after lookup), so every write
// works on a copy.
func cloneService(s *agentregistry.Service) *agentregistry.Service {
	b, _ := json.Marshal(s)
	var out agentregistry.Service
	_ = json.Unmarshal(b, &out)
	return &out
}

// createRequest describes a create method's id and collection to beginCreate.
type createRequest struct {
	idParam, collection, title string
	rule                       segmentRule
	exists                     func(name string) bool  // called with s.mu held
	full                       func(name string) error // called with s.mu held
}

// beginCreate reads the body into in, checks the id, takes s.mu for writing
// and checks the request id and that the name is free. When ok, the caller
// holds s.mu and releases it; otherwise the response is written and the
// lock is not held.
func (s *Server) beginCreate(w http.ResponseWriter, r *http.Request, parent string, in any, c createRequest) (name, reqID string, ok bool) {
	q := r.URL.Query()
	id := q.Get(c.idParam)
	reqID = q.Get("requestId")
	if err := readJSON(w, r, in); err != nil {
		s.writeError(w, err)
		return "", "", false
	}
	if err := c.rule.check(id); err != nil {
		s.writeError(w, err)
		return "", "", false
	}
	name = parent + "/" + c.collection + "/" + id
	s.mu.Lock()
	if op, err := s.replay(reqID, "create", name); err != nil || op != nil {
		s.mu.Unlock()
		s.respondOp(w, op, err)
		return "", "", false
	}
	if c.exists(name) {
		s.mu.Unlock()
		s.writeError(w, errAlreadyExists("%s %q already exists.", c.title, name))
		return "", "", false
	}
	if err := c.full(name); err != nil {
		s.mu.Unlock()
		s.writeError(w, err)
		return "", "", false
	}
	return name, reqID, true
}

func (s *Server) createService(w http.ResponseWriter, r *http.Request, parent string) {
	var in agentregistry.Service
	c := createRequest{idParam: "serviceId", rule: serviceRule, collection: "services", title: "Service",
		exists: func(name string) bool { _, ok := s.services.get(name); return ok },
		full:   func(name string) error { return s.services.full(name, "services", maxServicesPerLocation) }}
	name, reqID, ok := s.beginCreate(w, r, parent, &in, c)
	if !ok {
		return
	}
	defer s.mu.Unlock()
	now := s.timestamp()
	svc := &agentregistry.Service{
		Name: name, DisplayName: in.DisplayName, Description: in.Description, Interfaces: in.Interfaces,
		AgentSpec: in.AgentSpec, McpServerSpec: in.McpServerSpec, EndpointSpec: in.EndpointSpec,
		CreateTime: now, UpdateTime: now,
	}
	if v := validateService(svc); len(v) > 0 {
		s.writeError(w, errViolations(violationMessage("service", v), v))
		return
	}
	svc.RegistryResource = registryResource(svc)
	s.commitServiceWrite(w, "create", name, reqID, svc, nil)
}

// commitServiceWrite persists newSvc (nil = delete old) with its operation.
func (s *Server) commitServiceWrite(w http.ResponseWriter, verb, name, reqID string, newSvc, old *agentregistry.Service) {
	ms, resp, err := writeMutation(bucketServices, name, typeService, newSvc)
	if err != nil {
		s.writeError(w, err)
		return
	}
	op, rr, opMs, err := s.newOperation(familyAgentRegistry, verb, name, reqID, resp)
	if err != nil {
		s.writeError(w, err)
		return
	}
	err = s.commitOperation(op, rr, append(ms, opMs...), func() {
		if old != nil {
			s.removeDerived(old)
		}
		if newSvc != nil {
			s.services.put(name, newSvc)
			s.putDerived(newSvc)
		} else {
			s.services.delete(name)
		}
	})
	s.respondOp(w, op, err)
}

func (s *Server) respondOp(w http.ResponseWriter, op *opRecord, err error) {
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.writeOperation(w, op)
}

func violationMessage(what string, v []fieldViolation) string {
	parts := make([]string, 0, len(v))
	for _, fv := range v {
		parts = append(parts, fv.Field+": "+fv.Description)
	}
	return fmt.Sprintf("invalid %s: %s", what, strings.Join(parts, "; "))
}

func (s *Server) listServices(w http.ResponseWriter, r *http.Request, parent string) {
	filter, match, err := listFilter(r, serviceFilterFields, func(svc *agentregistry.Service) docFields {
		return docFields{"name": {svc.Name}, "displayName": {svc.DisplayName}, "description": {svc.Description}}
	})
	if err != nil {
		s.writeError(w, err)
		return
	}
	page, next, err := listPage(s, r, s.services, parent, "services", filter, match)
	if err != nil {
		s.writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, &agentregistry.ListServicesResponse{Services: page, NextPageToken: next})
}

// maskPaths turns an update mask into snake_case paths (the REST mapping
// sends camelCase; both spellings are accepted).
func maskPaths(mask string) []string {
	var out []string
	for _, p := range strings.Split(mask, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		var b strings.Builder
		for _, c := range p {
			if c >= 'A' && c <= 'Z' {
				b.WriteByte('_')
				c += 'a' - 'A'
			}
			b.WriteRune(c)
		}
		out = append(out, b.String())
	}
	return out
}

// beginChange starts a patch (in set: the body is read into it) or a delete
// (in nil) of name: it takes s.mu for writing, answers a replayed request id,
// and finds the record. When ok, the caller holds s.mu and releases it;
// otherwise the response is written and the lock is not held.
func beginChange[T any](s *Server, w http.ResponseWriter, r *http.Request, verb, name, title string, in any, get func(string) (T, bool)) (old T, reqID string, ok bool) {
	reqID = r.URL.Query().Get("requestId")
	if in != nil {
		if err := readJSON(w, r, in); err != nil {
			s.writeError(w, err)
			return old, "", false
		}
	}
	s.mu.Lock()
	if op, err := s.replay(reqID, verb, name); err != nil || op != nil {
		s.mu.Unlock()
		s.respondOp(w, op, err)
		return old, "", false
	}
	if old, ok = get(name); !ok {
		s.mu.Unlock()
		s.writeError(w, errNotFound("%s %q was not found.", title, name))
	}
	return old, reqID, ok
}

func (s *Server) patchService(w http.ResponseWriter, r *http.Request, name string) {
	q := r.URL.Query()
	var in agentregistry.Service
	old, reqID, ok := beginChange(s, w, r, "update", name, "Service", &in, s.services.get)
	if !ok {
		return
	}
	defer s.mu.Unlock()
	paths := maskPaths(q.Get("updateMask"))
	if len(paths) == 0 {
		// AIP-134: without a mask, every field present in the request is updated.
		if in.DisplayName != "" {
			paths = append(paths, "display_name")
		}
		if in.Description != "" {
			paths = append(paths, "description")
		}
		if in.Interfaces != nil {
			paths = append(paths, "interfaces")
		}
		for k, set := range map[specKind]bool{specAgent: in.AgentSpec != nil, specMCP: in.McpServerSpec != nil, specEndpoint: in.EndpointSpec != nil} {
			if set {
				paths = append(paths, string(k))
			}
		}
		sort.Strings(paths)
	} else if slices.Contains(paths, "*") {
		paths = []string{"display_name", "description", "interfaces", string(serviceKind(old))}
	}
	upd := cloneService(old)
	oldKind := serviceKind(old)
	oldType, _ := specOf(old)
	var v []fieldViolation
	immutable := func(field, desc string) {
		v = append(v, fieldViolation{Field: field, Description: desc})
	}
	for _, p := range paths {
		switch p {
		case "display_name":
			upd.DisplayName = in.DisplayName
		case "description":
			upd.Description = in.Description
		case "interfaces":
			upd.Interfaces = in.Interfaces
		case "agent_spec", "mcp_server_spec", "endpoint_spec",
			"agent_spec.type", "mcp_server_spec.type", "endpoint_spec.type",
			"agent_spec.content", "mcp_server_spec.content", "endpoint_spec.content":
			kind := specKind(strings.SplitN(p, ".", 2)[0])
			if kind != oldKind {
				immutable(p, fmt.Sprintf("the spec type is immutable: this service has %s, it cannot be changed to %s; delete and re-create the service", oldKind, kind))
				continue
			}
			// The value comes from the request's field of the same kind,
			// never from another spec the request happens to carry.
			newType, newContent, present := specIn(&in, kind)
			switch {
			case !present && strings.HasSuffix(p, ".content"):
				immutable(p, fmt.Sprintf("is in the update mask but the request has no %s; send the new content in %s.content", kind, kind))
				continue
			case !present:
				immutable(p, fmt.Sprintf("the spec type is immutable: %s is in the update mask but missing from the request; it cannot be removed", kind))
				continue
			}
			if !strings.HasSuffix(p, ".content") && newType != oldType {
				immutable(string(kind)+".type", fmt.Sprintf("the spec type is immutable: it is %s and cannot be changed to %q; delete and re-create the service", oldType, newType))
				continue
			}
			if !strings.HasSuffix(p, ".type") {
				setContent(upd, []byte(newContent))
			}
		case "name", "create_time", "update_time", "registry_resource":
			immutable(p, "is output only or immutable and cannot be in the update mask")
		default:
			immutable(p, "is not a field of Service that can be updated; updatable fields: display_name, description, interfaces, agent_spec, mcp_server_spec, endpoint_spec")
		}
	}
	if len(v) > 0 {
		s.writeError(w, errViolations(violationMessage("update", v), v))
		return
	}
	if v := validateService(upd); len(v) > 0 {
		s.writeError(w, errViolations(violationMessage("service", v), v))
		return
	}
	upd.UpdateTime = s.timestamp()
	upd.RegistryResource = registryResource(upd)
	s.commitServiceWrite(w, "update", name, reqID, upd, old)
}

func (s *Server) deleteService(w http.ResponseWriter, r *http.Request, name string) {
	old, reqID, ok := beginChange(s, w, r, "delete", name, "Service", nil, s.services.get)
	if !ok {
		return
	}
	defer s.mu.Unlock()
	s.commitServiceWrite(w, "delete", name, reqID, nil, old)
}

// writeMutation is the store mutation and the operation response of one write:
// v stored under key (typed typeURL in the response), or, when v is nil, key
// deleted with an empty response.
func writeMutation[T any](bucket, key, typeURL string, v *T) ([]mutation, json.RawMessage, error) {
	if v == nil {
		resp, err := withType(typeEmpty, struct{}{})
		return []mutation{{Bucket: bucket, Key: key}}, resp, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, nil, err
	}
	resp, err := withType(typeURL, v)
	return []mutation{{Bucket: bucket, Key: key, Value: b}}, resp, err
}
