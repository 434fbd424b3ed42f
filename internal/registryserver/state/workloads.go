package state

// App Hub v1 subset: workloads (get, list, patch, delete).
//
// Google populates workloadProperties.extendedMetadata itself and serves it
// read-only; so does this server unless Options.AppHubWritable, which accepts
// writes of the entry so tests can seed it (apphub_output_only.go): PATCH with
// an update mask naming the map (workloadProperties.extendedMetadata) or the entry
// (workloadProperties.extendedMetadata.`apphub.googleapis.com/AgentProperties`,
// backticks optional), and allowMissing=true creates the workload (AIP-134).
// Naming the entry in the mask while leaving it out of the body removes it.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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
	// AgentPropertiesKey is the extendedMetadata entry of a workload that
	// holds its AgentProperties, and the id of the schema that describes it.
	AgentPropertiesKey = "apphub.googleapis.com/AgentProperties"
	typeWorkload       = "type.googleapis.com/google.cloud.apphub.v1.Workload"
	apField            = `workload_properties.extended_metadata["` + AgentPropertiesKey + `"].metadata_struct`
)

var workloadIDRE = regexp.MustCompile(`^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$`)

// workloadPaths are what "*" names in a workload PATCH's update mask.
var workloadPaths = []string{"display_name", "description", "attributes", "workload_properties.extended_metadata"}

// agentPropertiesUnquoted is the AgentProperties key as maskPaths leaves
// it when a mask names it without the backquotes AIP-161 asks for (the
// capitals snake_cased), which this server accepts too.
var agentPropertiesUnquoted = maskPaths(AgentPropertiesKey)[0]

// workloadMaskPath classifies one path of maskPaths: "display_name",
// "description", "attributes", "metadata" (the whole extendedMetadata map) or
// "entry" (the AgentProperties entry). Anything else is an error.
func workloadMaskPath(p string) (string, error) {
	switch p {
	case "display_name", "description", "attributes":
		return p, nil
	case "workload_properties", "workload_properties.extended_metadata":
		return "metadata", nil
	}
	if key, ok := strings.CutPrefix(p, "workload_properties.extended_metadata."); ok {
		key = strings.Trim(key, "`")
		if key == AgentPropertiesKey || key == agentPropertiesUnquoted {
			return "entry", nil
		}
		return "", fmt.Errorf("only the %s entry of extendedMetadata is writable on this server, not %q", AgentPropertiesKey, key)
	}
	return "", fmt.Errorf("%q is not an updatable field of Workload; use displayName, description, attributes or workloadProperties.extendedMetadata.`%s`", p, AgentPropertiesKey)
}

// validateAgentProperties checks and normalises one AgentProperties entry.
func validateAgentProperties(em resource.ExtendedMetadata) (json.RawMessage, []FieldViolation) {
	raw := trimNull(em.MetadataStruct)
	if len(raw) == 0 {
		return nil, []FieldViolation{{Field: apField, Description: "is required: the AgentProperties document (a JSON object)"}}
	}
	if raw[0] != '{' {
		return nil, []FieldViolation{{Field: apField, Description: "must be a JSON object"}}
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return nil, []FieldViolation{{Field: apField, Description: "is not valid JSON: " + err.Error()}}
	}
	if compact.Len() > spec.MaxDocumentBytes {
		return nil, []FieldViolation{{Field: apField, Description: fmt.Sprintf("is %d bytes of compact JSON; the limit is %d bytes (10 KB)", compact.Len(), spec.MaxDocumentBytes)}}
	}
	res := spec.ValidateAgentProperties(compact.Bytes())
	var v []FieldViolation
	for _, p := range res.Errors() {
		v = append(v, FieldViolation{Field: apField + p.Pointer, Description: p.Message})
	}
	if len(v) > 0 {
		return nil, v
	}
	if len(res.Compact) > 0 {
		return res.Compact, nil
	}
	return compact.Bytes(), nil
}

// Caps on a workload's attributes, which App Hub's document leaves open:
// owners per list, and the lengths of a contact's name and email.
const (
	maxOwners       = 16
	maxEmailLength  = 254 // RFC 5321's path limit
	criticalityEnum = "TYPE_UNSPECIFIED MISSION_CRITICAL HIGH MEDIUM LOW"
	environmentEnum = "TYPE_UNSPECIFIED PRODUCTION STAGING TEST DEVELOPMENT"
)

// validateAttributes checks a workload's attributes: the types are the
// discovery document's enums, and every string and list has a cap.
func validateAttributes(a *resource.Attributes) []FieldViolation {
	if a == nil {
		return nil
	}
	var v []FieldViolation
	enum := func(field, typ, values string) {
		if typ != "" && !slices.Contains(strings.Fields(values), typ) {
			v = append(v, FieldViolation{Field: field, Description: fmt.Sprintf("must be one of %s, got %q", strings.ReplaceAll(values, " ", ", "), Clip(typ))})
		}
	}
	if a.Criticality != nil {
		enum("attributes.criticality.type", a.Criticality.Type, criticalityEnum)
	}
	if a.Environment != nil {
		enum("attributes.environment.type", a.Environment.Type, environmentEnum)
	}
	for field, owners := range map[string][]*resource.ContactInfo{"business_owners": a.BusinessOwners,
		"developer_owners": a.DeveloperOwners, "operator_owners": a.OperatorOwners} {
		if len(owners) > maxOwners {
			v = append(v, FieldViolation{Field: "attributes." + field, Description: fmt.Sprintf("must hold at most %d contacts, got %d", maxOwners, len(owners))})
			continue
		}
		for i, c := range owners {
			f := fmt.Sprintf("attributes.%s[%d]", field, i)
			if c == nil {
				continue
			}
			if n := utf8.RuneCountInString(c.DisplayName); n > maxDisplayName {
				v = append(v, FieldViolation{Field: f + ".display_name", Description: fmt.Sprintf("must be at most %d characters, got %d", maxDisplayName, n)})
			}
			if len(c.Email) > maxEmailLength {
				v = append(v, FieldViolation{Field: f + ".email", Description: fmt.Sprintf("must be at most %d bytes, got %d", maxEmailLength, len(c.Email))})
			}
		}
	}
	slices.SortFunc(v, func(a, b FieldViolation) int { return strings.Compare(a.Field, b.Field) })
	return v
}

func cloneWorkload(w *resource.Workload) *resource.Workload {
	b, _ := json.Marshal(w)
	var out resource.Workload
	_ = json.Unmarshal(b, &out)
	return &out
}

// Workload is the workload name, or NOT_FOUND.
func (s *State) Workload(name string) (*resource.Workload, error) {
	return get(s, s.workloads, name, "Workload")
}

// UpdateWorkload applies the paths of the update mask rule (updatePaths,
// mask as sent), less those App Hub treats as output only
// (ignoreOutputOnly), to the workload name; allowMissing creates it when
// it is missing (AIP-134).
func (s *State) UpdateWorkload(requestID, name, mask string, allowMissing bool, in *resource.Workload) (Operation, error) {
	paths := updatePaths(mask, workloadPaths, map[string]bool{
		"display_name": in.DisplayName != "", "description": in.Description != "", "attributes": in.Attributes != nil,
		"workload_properties.extended_metadata": in.WorkloadProperties != nil && in.WorkloadProperties.ExtendedMetadata != nil})
	paths, ignored := s.ignoreOutputOnly(paths, in)
	paths, entry, v := workloadPatchPaths(paths, in)
	if v = append(v, workloadFieldViolations(in)...); len(v) > 0 {
		return nil, Violations(violationMessage("workload update", v), v)
	}
	p := workloadPatch{allowMissing: allowMissing, ignored: ignored, in: in, paths: paths, entry: entry}
	return s.write(writeReq{requestID, "update", name}, func() (*change, error) {
		return s.planWorkloadPatch(name, p)
	})
}

// workloadFieldViolations checks the lengths of a workload's own fields.
func workloadFieldViolations(in *resource.Workload) []FieldViolation {
	var v []FieldViolation
	if n := utf8.RuneCountInString(in.DisplayName); n > maxDisplayName {
		v = append(v, FieldViolation{Field: "display_name", Description: fmt.Sprintf("must be at most %d characters, got %d", maxDisplayName, n)})
	}
	v = append(v, validateAttributes(in.Attributes)...)
	if n := utf8.RuneCountInString(in.Description); n > maxDescription {
		v = append(v, FieldViolation{Field: "description", Description: fmt.Sprintf("must be at most %d characters, got %d", maxDescription, n)})
	}
	return v
}

// workloadPatchPaths classifies a workload patch's paths (workloadMaskPath)
// and checks the AgentProperties entry of the body when a path touches it:
// the classified paths, the checked entry (nil to remove it) and the
// violations. It depends on the request only, so it runs before the lock.
func workloadPatchPaths(mask []string, in *resource.Workload) ([]string, json.RawMessage, []FieldViolation) {
	var paths []string
	var v []FieldViolation
	touchesEntry := false
	for _, p := range mask {
		c, err := workloadMaskPath(p)
		if err != nil {
			v = append(v, FieldViolation{Field: "update_mask", Description: err.Error()})
			continue
		}
		paths = append(paths, c)
		touchesEntry = touchesEntry || c == "entry" || c == "metadata"
	}
	var bodyEntry *resource.ExtendedMetadata
	if in.WorkloadProperties != nil {
		for k, em := range in.WorkloadProperties.ExtendedMetadata {
			if k != AgentPropertiesKey {
				v = append(v, FieldViolation{Field: fmt.Sprintf("workload_properties.extended_metadata[%q]", k),
					Description: "only " + AgentPropertiesKey + " is writable on this server"})
				continue
			}
			bodyEntry = &em
		}
	}
	var entry json.RawMessage
	if touchesEntry && bodyEntry != nil {
		var ev []FieldViolation
		entry, ev = validateAgentProperties(*bodyEntry)
		v = append(v, ev...)
	}
	return paths, entry, v
}

// workloadPatch is a checked workload PATCH: the fields of in that paths name
// (entry the checked AgentProperties, nil to remove it), whether a missing
// workload may be created, and whether output-only fields were ignored.
type workloadPatch struct {
	allowMissing, ignored bool
	in                    *resource.Workload
	paths                 []string
	entry                 json.RawMessage
}

// planWorkloadPatch is the change a patch makes to the workload name,
// creating the workload when it is missing and allowMissing is set. Call with
// s.mu held.
func (s *State) planWorkloadPatch(name string, p workloadPatch) (*change, error) {
	rp := s.workloadRepo()
	old, exists := s.workloads.get(name)
	var upd *resource.Workload
	now := s.timestamp()
	verb := "update"
	if exists {
		upd = cloneWorkload(old)
	} else {
		if !p.allowMissing {
			return nil, errNotFound("Workload %q was not found; set allowMissing=true to create it.", name)
		}
		if p.ignored && len(p.paths) == 0 {
			return nil, ignoredOnlyNotFound(name)
		}
		if err := s.workloads.full(name, "workloads", maxWorkloadsPerLocation); err != nil {
			return nil, err
		}
		verb = "create"
		upd = &resource.Workload{Name: name, CreateTime: now, State: "ACTIVE", Uid: uidFor(name, now)}
	}
	applyWorkloadPaths(upd, p.in, p.paths, p.entry)
	if len(p.paths) > 0 || !exists { // a PATCH that writes nothing leaves the workload as it was
		upd.UpdateTime = now
	}
	// The request id is recorded as "update" (what the client called), while
	// the operation's verb says whether the patch created the workload.
	return rp.put(verb, name, old, upd, exists)
}

// applyWorkloadPaths copies the fields of in that paths name into upd.
func applyWorkloadPaths(upd, in *resource.Workload, paths []string, entry json.RawMessage) {
	for _, p := range paths {
		switch p {
		case "display_name":
			upd.DisplayName = in.DisplayName
		case "description":
			upd.Description = in.Description
		case "attributes":
			upd.Attributes = in.Attributes
		case "metadata", "entry":
			if upd.WorkloadProperties == nil {
				upd.WorkloadProperties = &resource.WorkloadProperties{}
			}
			if entry == nil {
				delete(upd.WorkloadProperties.ExtendedMetadata, AgentPropertiesKey)
				if len(upd.WorkloadProperties.ExtendedMetadata) == 0 {
					upd.WorkloadProperties.ExtendedMetadata = nil
				}
			} else {
				if upd.WorkloadProperties.ExtendedMetadata == nil {
					upd.WorkloadProperties.ExtendedMetadata = map[string]resource.ExtendedMetadata{}
				}
				upd.WorkloadProperties.ExtendedMetadata[AgentPropertiesKey] = resource.ExtendedMetadata{MetadataStruct: []byte(entry)}
			}
		}
	}
	if upd.WorkloadProperties != nil && upd.WorkloadProperties.ExtendedMetadata == nil &&
		upd.WorkloadProperties.FunctionalType == nil && upd.WorkloadProperties.GcpProject == "" {
		upd.WorkloadProperties = nil
	}
}

// workloadRepo is the workloads' part of the write pipeline.
func (s *State) workloadRepo() *repo[*resource.Workload] {
	return &repo[*resource.Workload]{s: s, c: s.workloads, bucket: bucketWorkloads, typeURL: typeWorkload, title: "Workload",
		plural: "workloads", fam: familyAppHub, max: maxWorkloadsPerLocation}
}

// DeleteWorkload deletes the workload name.
func (s *State) DeleteWorkload(requestID, name string) (Operation, error) {
	return s.workloadRepo().delete(requestID, name)
}

// WorkloadFields and WorkloadOrder are what workloads.list filters and orders by.
var (
	WorkloadFields = search.NewListSchema("workloads", "name", "displayName", "description", "state")
	WorkloadOrder  = []string{"name", "displayName", "description", "state", "createTime", "updateTime"}
)

func workloadDoc(wl *resource.Workload) docFields {
	return docFields{"name": {wl.Name}, "displayName": {wl.DisplayName}, "description": {wl.Description}, "state": {wl.State}}
}

// workloadKey is a workload's sort key in one of WorkloadOrder's fields.
func workloadKey(wl *resource.Workload, field string) string {
	switch field {
	case "displayName":
		return wl.DisplayName
	case "description":
		return wl.Description
	case "state":
		return wl.State
	case "createTime":
		return search.TimeKey(wl.CreateTime)
	case "updateTime":
		return search.TimeKey(wl.UpdateTime)
	}
	return wl.Name
}

// ListWorkloads is the page of size of the workloads of the application
// app that match filter (nil: all), ordered by o (empty: by name), after
// after (nil: the first page), and where the next page starts after (nil
// when this one is the last).
func (s *State) ListWorkloads(ctx context.Context, app string, filter searchquery.Node, o search.Ordering, after *search.Position, size int) ([]*resource.Workload, *search.Position, error) {
	return listOrdered(ctx, s, s.workloads, app, o, after, size, matcher(filter, WorkloadFields, workloadDoc), workloadKey,
		func(wl *resource.Workload) string { return wl.Name })
}
