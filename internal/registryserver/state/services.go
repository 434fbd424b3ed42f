package state

// Services: the only writable Agent Registry resource. Each write validates
// the whole resulting Service (lengths, exactly one spec, immutable spec
// type, documents through internal/spec), commits it with its operation, and
// refreshes the derived Agent or McpServer record and its search index.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
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

func serviceKind(s *resource.Service) specKind {
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
func specOf(s *resource.Service) (string, json.RawMessage) {
	typ, content, _ := specIn(s, serviceKind(s))
	return typ, content
}

// specIn returns the (type, content) of the service's spec of kind k, and
// whether the service has one.
func specIn(s *resource.Service, k specKind) (string, json.RawMessage, bool) {
	switch {
	case k == specAgent && s.AgentSpec != nil:
		return s.AgentSpec.Type, s.AgentSpec.Content, true
	case k == specMCP && s.McpServerSpec != nil:
		return s.McpServerSpec.Type, s.McpServerSpec.Content, true
	case k == specEndpoint && s.EndpointSpec != nil:
		return s.EndpointSpec.Type, s.EndpointSpec.Content, true
	}
	return "", nil, false
}

// validateService checks a complete service and normalises its spec content
// in place (compact, keys sorted), which is how the registry sends it back.
func validateService(svc *resource.Service) []FieldViolation {
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

// validateInterfaces checks a service's interfaces: where clients reach the
// service, so only web URLs of bounded length, never javascript:, file: or
// data: that a consumer might follow.
func validateInterfaces(v *violations, ifs []*resource.Interface) {
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
func validateSpec(v *violations, svc *resource.Service) {
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
func validateDocument(v *violations, svc *resource.Service, field string, content json.RawMessage, validate func([]byte) *spec.Result) {
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

func setContent(svc *resource.Service, c []byte) {
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
func cloneService(s *resource.Service) *resource.Service {
	b, _ := json.Marshal(s)
	var out resource.Service
	_ = json.Unmarshal(b, &out)
	return &out
}

// serviceRepo is the services' part of the write pipeline: a service's
// derived record and its index entry follow it.
func (s *State) serviceRepo() *repo[*resource.Service] {
	return &repo[*resource.Service]{s: s, c: s.services, bucket: bucketServices, typeURL: typeService, title: "Service",
		plural: "services", fam: familyAgentRegistry, max: maxServicesPerLocation,
		onPut: func(old, svc *resource.Service, had bool) {
			if had {
				s.removeDerived(old)
			}
			s.putDerived(svc)
		},
		onDelete: s.removeDerived}
}

// Service is the service name, or NOT_FOUND.
func (s *State) Service(name string) (*resource.Service, error) {
	return get(s, s.services, name, "Service")
}

// ServiceFields are the fields services.list filters on.
var ServiceFields = searchquery.NewSchema("services",
	[]string{"name", "displayName", "description"}, nil,
	[]string{"name", "displayName", "description"})

func serviceDoc(svc *resource.Service) docFields {
	return docFields{"name": {svc.Name}, "displayName": {svc.DisplayName}, "description": {svc.Description}}
}

// ListServices is the page of size of the services of parent that match
// filter (nil: all), after after (nil: the first page), by name, and where
// the next page starts after (nil when this one is the last).
func (s *State) ListServices(ctx context.Context, parent string, filter searchquery.Node, after *search.Position, size int) ([]*resource.Service, *search.Position, error) {
	return list(ctx, s, s.services, parent, after, size, matcher(filter, ServiceFields, serviceDoc))
}

// CreateService creates the service id of parent that in describes, under
// the request id requestID ("" for none).
func (s *State) CreateService(requestID, parent, id string, in *resource.Service) (Operation, error) {
	if err := ServiceRule.Check(id); err != nil {
		return nil, err
	}
	name := parent + "/services/" + id
	svc, invalid := s.newService(name, in)
	return s.serviceRepo().create(requestID, name, svc, invalid)
}

// newService is the service name that in describes, and what is wrong with
// it (nil when it can be stored). It holds no lock (see repo.create).
func (s *State) newService(name string, in *resource.Service) (*resource.Service, error) {
	s.validating(name)
	now := s.timestamp()
	svc := &resource.Service{
		Name: name, DisplayName: in.DisplayName, Description: in.Description, Interfaces: in.Interfaces,
		AgentSpec: in.AgentSpec, McpServerSpec: in.McpServerSpec, EndpointSpec: in.EndpointSpec,
		CreateTime: now, UpdateTime: now,
	}
	if v := validateService(svc); len(v) > 0 {
		return nil, Violations(violationMessage("service", v), v)
	}
	svc.RegistryResource = registryResource(svc)
	return svc, nil
}

// UpdateService applies the fields of in that the update mask names (mask
// as sent; AIP-134: every field present in in without one) to the service
// name.
func (s *State) UpdateService(requestID, name, mask string, in *resource.Service) (Operation, error) {
	return s.serviceRepo().update(requestID, name, func(old *resource.Service) (*resource.Service, error) {
		paths := updatePaths(mask, []string{"display_name", "description", "interfaces", string(serviceKind(old))},
			map[string]bool{"display_name": in.DisplayName != "", "description": in.Description != "", "interfaces": in.Interfaces != nil,
				string(specAgent): in.AgentSpec != nil, string(specMCP): in.McpServerSpec != nil, string(specEndpoint): in.EndpointSpec != nil})
		upd := cloneService(old)
		if v := applyServiceMask(upd, old, in, paths); len(v) > 0 {
			return nil, Violations(violationMessage("update", v), v)
		}
		if v := validateService(upd); len(v) > 0 {
			return nil, Violations(violationMessage("service", v), v)
		}
		upd.UpdateTime = s.timestamp()
		upd.RegistryResource = registryResource(upd)
		return upd, nil
	})
}

// DeleteService deletes the service name, and its derived record.
func (s *State) DeleteService(requestID, name string) (Operation, error) {
	return s.serviceRepo().delete(requestID, name)
}

// applyServiceMask copies the fields of in that paths name into upd, a
// copy of old; the spec type is immutable.
func applyServiceMask(upd, old, in *resource.Service, paths []string) []FieldViolation {
	var v violations
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
			applySpecPath(&v, upd, old, in, p)
		case "name", "create_time", "update_time", "registry_resource":
			v.add(p, "is output only or immutable and cannot be in the update mask")
		default:
			v.add(p, "is not a field of Service that can be updated; updatable fields: display_name, description, interfaces, agent_spec, mcp_server_spec, endpoint_spec")
		}
	}
	return v
}

// applySpecPath applies one mask path of a spec. The value comes from the
// request's field of the same kind, never from another spec the request
// happens to carry.
func applySpecPath(v *violations, upd, old, in *resource.Service, p string) {
	oldKind := serviceKind(old)
	oldType, _ := specOf(old)
	kind := specKind(strings.SplitN(p, ".", 2)[0])
	if kind != oldKind {
		v.add(p, "%s", fmt.Sprintf("the spec type is immutable: this service has %s, it cannot be changed to %s; delete and re-create the service", oldKind, kind))
		return
	}
	newType, newContent, present := specIn(in, kind)
	switch {
	case !present && strings.HasSuffix(p, ".content"):
		v.add(p, "%s", fmt.Sprintf("is in the update mask but the request has no %s; send the new content in %s.content", kind, kind))
	case !present:
		v.add(p, "%s", fmt.Sprintf("the spec type is immutable: %s is in the update mask but missing from the request; it cannot be removed", kind))
	case !strings.HasSuffix(p, ".content") && newType != oldType:
		v.add(string(kind)+".type", "%s", fmt.Sprintf("the spec type is immutable: it is %s and cannot be changed to %q; delete and re-create the service", oldType, newType))
	case !strings.HasSuffix(p, ".type"):
		setContent(upd, []byte(newContent))
	}
}
