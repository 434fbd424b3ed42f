package state

// Bindings: user-defined links from a source agent (optional) to a target
// agent, MCP server or endpoint, with the auth provider the source uses to
// reach it. create / patch / delete are long-running operations with a
// request id, like services. The bundled server checks the shape of every
// identifier (URNs, the auth provider's name) but not that the agent, MCP
// server or auth provider exists: it has no publisher namespaces and no auth
// providers of its own.

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

const (
	typeBinding = "type.googleapis.com/google.cloud.agentregistry.v1.Binding"
	// maxScopes and maxScopeLength bound an auth provider binding's scopes,
	// which the API leaves open.
	maxScopes      = 64
	maxScopeLength = 512
	maxURILength   = 2048
)

var (
	// BindingRule: 4 to 63 characters, ^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$.
	BindingRule = IDRule{"binding_id", regexp.MustCompile(`^[a-z][a-z0-9-]{2,61}[a-z0-9]$`), 63,
		"4 to 63 lower-case letters, digits and hyphens, starting with a letter and not ending with a hyphen"}
	authProviderRE = regexp.MustCompile(`^projects/[^/]+/locations/[^/]+/authProviders/[^/]+$`)
	// BindingOrder are the fields bindings.list orders by, and
	// BindingFields those it filters on.
	BindingOrder  = []string{"name", "displayName", "description", "createTime", "updateTime"}
	BindingFields = searchquery.NewSchema("bindings",
		[]string{"name", "displayName", "description", "source.identifier", "target.identifier", "authProviderBinding.authProvider"}, nil,
		[]string{"name", "displayName", "description"})
)

// validateBinding lists what is wrong with a binding to store.
func validateBinding(b *resource.Binding) []FieldViolation {
	var v []FieldViolation
	add := func(field, format string, args ...any) {
		v = append(v, FieldViolation{Field: field, Description: fmt.Sprintf(format, args...)})
	}
	if n := utf8.RuneCountInString(b.DisplayName); n > maxDisplayName {
		add("display_name", "must be at most %d characters, got %d", maxDisplayName, n)
	}
	if n := utf8.RuneCountInString(b.Description); n > maxDescription {
		add("description", "must be at most %d characters, got %d", maxDescription, n)
	}
	if b.Source != nil && b.Source.Identifier != "" && urnKind(b.Source.Identifier) != "agent" {
		add("source.identifier", "must be an agent URN, urn:agent:{publisher}:{namespace}:{name}")
	}
	if b.Target == nil || b.Target.Identifier == "" {
		add("target.identifier", "is required: urn:agent:..., urn:mcp:... or urn:endpoint:...")
	} else if urnKind(b.Target.Identifier) == "" {
		add("target.identifier", "must be urn:{agent|mcp|endpoint}:{publisher}:{namespace}:{name}")
	}
	if a := b.AuthProviderBinding; a != nil {
		v = append(v, validateAuthProviderBinding(a)...)
	}
	return v
}

func validateAuthProviderBinding(a *resource.AuthProviderBinding) []FieldViolation {
	var v []FieldViolation
	add := func(field, format string, args ...any) {
		v = append(v, FieldViolation{Field: "auth_provider_binding." + field, Description: fmt.Sprintf(format, args...)})
	}
	if len(a.AuthProvider) > maxURILength || !authProviderRE.MatchString(a.AuthProvider) {
		add("auth_provider", "is required: projects/{project}/locations/{location}/authProviders/{auth_provider}")
	}
	if len(a.Scopes) > maxScopes {
		add("scopes", "must hold at most %d scopes, got %d", maxScopes, len(a.Scopes))
	}
	for i, sc := range a.Scopes {
		if sc == "" || len(sc) > maxScopeLength || strings.ContainsAny(sc, " \t\r\n") {
			add(fmt.Sprintf("scopes[%d]", i), "must be a non-empty scope without spaces, at most %d bytes", maxScopeLength)
		}
	}
	if a.ContinueUri != "" {
		if u, err := url.Parse(a.ContinueUri); err != nil || len(a.ContinueUri) > maxURILength || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			add("continue_uri", "must be an absolute http:// or https:// URL")
		}
	}
	return v
}

// bindingRepo is the bindings' part of the write pipeline.
func (s *State) bindingRepo() *repo[*resource.Binding] {
	return &repo[*resource.Binding]{s: s, c: s.bindings, bucket: bucketBindings, typeURL: typeBinding, title: "Binding",
		plural: "bindings", fam: familyAgentRegistry, max: maxBindingsPerLocation}
}

// Binding is the binding name, or NOT_FOUND.
func (s *State) Binding(name string) (*resource.Binding, error) {
	return get(s, s.bindings, name, "Binding")
}

// CreateBinding creates the binding id of parent that in describes, under
// the request id requestID ("" for none).
func (s *State) CreateBinding(requestID, parent, id string, in *resource.Binding) (Operation, error) {
	if err := BindingRule.Check(id); err != nil {
		return nil, err
	}
	name := parent + "/bindings/" + id
	b, invalid := s.newBinding(name, in)
	return s.bindingRepo().create(requestID, name, b, invalid)
}

// newBinding is the binding name that in describes, and what is wrong with
// it (nil when it can be stored). It holds no lock (see repo.create).
func (s *State) newBinding(name string, in *resource.Binding) (*resource.Binding, error) {
	s.validating(name)
	now := s.timestamp()
	b := &resource.Binding{
		Name: name, DisplayName: in.DisplayName, Description: in.Description,
		Source: in.Source, Target: in.Target, AuthProviderBinding: in.AuthProviderBinding,
		CreateTime: now, UpdateTime: now,
	}
	if v := validateBinding(b); len(v) > 0 {
		return nil, Violations(violationMessage("binding", v), v)
	}
	return b, nil
}

// UpdateBinding applies the fields of the update mask (mask as sent; every
// field present in in without one, AIP-134) to the binding name.
func (s *State) UpdateBinding(requestID, name, mask string, in *resource.Binding) (Operation, error) {
	paths := updatePaths(mask, []string{"display_name", "description", "source", "target", "auth_provider_binding"},
		map[string]bool{"display_name": in.DisplayName != "", "description": in.Description != "", "source": in.Source != nil,
			"target": in.Target != nil, "auth_provider_binding": in.AuthProviderBinding != nil})
	return s.bindingRepo().update(requestID, name, func(old *resource.Binding) (*resource.Binding, error) {
		upd := *old
		if v := applyBindingMask(&upd, in, paths); len(v) > 0 {
			return nil, Violations(violationMessage("update", v), v)
		}
		if v := validateBinding(&upd); len(v) > 0 {
			return nil, Violations(violationMessage("binding", v), v)
		}
		upd.UpdateTime = s.timestamp()
		return &upd, nil
	})
}

// applyBindingMask copies the masked fields of in into upd. Sub-messages are
// replaced whole (a mask of auth_provider_binding.scopes replaces the
// auth provider binding too, which the provider never sends).
func applyBindingMask(upd, in *resource.Binding, paths []string) []FieldViolation {
	var v []FieldViolation
	for _, p := range paths {
		switch strings.SplitN(p, ".", 2)[0] {
		case "display_name":
			upd.DisplayName = in.DisplayName
		case "description":
			upd.Description = in.Description
		case "source":
			upd.Source = in.Source
		case "target":
			upd.Target = in.Target
		case "auth_provider_binding":
			upd.AuthProviderBinding = in.AuthProviderBinding
		case "name", "create_time", "update_time":
			v = append(v, FieldViolation{Field: p, Description: "is output only or immutable and cannot be in the update mask"})
		default:
			v = append(v, FieldViolation{Field: p, Description: "is not a field of Binding that can be updated; updatable fields: " +
				"display_name, description, source, target, auth_provider_binding"})
		}
	}
	return v
}

// DeleteBinding deletes the binding name.
func (s *State) DeleteBinding(requestID, name string) (Operation, error) {
	return s.bindingRepo().delete(requestID, name)
}

func bindingDoc(b *resource.Binding) docFields {
	d := docFields{"name": {b.Name}, "displayName": {b.DisplayName}, "description": {b.Description}}
	if b.Source != nil {
		d["source.identifier"] = []string{b.Source.Identifier}
	}
	if b.Target != nil {
		d["target.identifier"] = []string{b.Target.Identifier}
	}
	if b.AuthProviderBinding != nil {
		d["authProviderBinding.authProvider"] = []string{b.AuthProviderBinding.AuthProvider}
	}
	return d
}

// bindingKey is a binding's sort key in one of bindingOrder's fields.
func bindingKey(b *resource.Binding, field string) string {
	switch field {
	case "displayName":
		return b.DisplayName
	case "description":
		return b.Description
	case "createTime":
		return search.TimeKey(b.CreateTime)
	case "updateTime":
		return search.TimeKey(b.UpdateTime)
	}
	return b.Name
}

// ListBindings is the page of size of the bindings of parent that match
// filter (nil: all), ordered by o (empty: by name), after after (nil: the
// first page), and where the next page starts after (nil when this one is
// the last).
func (s *State) ListBindings(ctx context.Context, parent string, filter searchquery.Node, o search.Ordering, after *search.Position, size int) ([]*resource.Binding, *search.Position, error) {
	return listOrdered(ctx, s, s.bindings, parent, o, after, size, matcher(filter, BindingFields, bindingDoc), bindingKey,
		func(b *resource.Binding) string { return b.Name })
}

// CheckAvailableQuery checks the identifiers of a bindings:fetchAvailable:
// a source agent's URN and a target's, each optional.
func CheckAvailableQuery(source, target string) error {
	var v []FieldViolation
	if source != "" && urnKind(source) != "agent" {
		v = append(v, FieldViolation{Field: "source_identifier", Description: "must be an agent URN, urn:agent:{publisher}:{namespace}:{name}"})
	}
	if target != "" && urnKind(target) == "" {
		v = append(v, FieldViolation{Field: "target_identifier", Description: "must be urn:{agent|mcp|endpoint}:{publisher}:{namespace}:{name}"})
	}
	if len(v) > 0 {
		return Violations(violationMessage("request", v), v)
	}
	return nil
}

// FetchAvailableBindings is the page of the bindings of parent that a source
// agent can use (CheckAvailableQuery checks the identifiers): those whose
// source is the given agent or unset (a binding without a source is
// available to every agent), narrowed to one target when one is given. This
// is the bundled server's reading of bindings:fetchAvailable, whose
// semantics the API reference does not spell out.
func (s *State) FetchAvailableBindings(ctx context.Context, parent, source, target string, after *search.Position, size int) ([]*resource.Binding, *search.Position, error) {
	return list(ctx, s, s.bindings, parent, after, size, func(b *resource.Binding) bool {
		src := ""
		if b.Source != nil {
			src = b.Source.Identifier
		}
		return (src == "" || source == "" || src == source) && (target == "" || (b.Target != nil && b.Target.Identifier == target))
	})
}
