package registryserver

// App Hub v1 subset: workloads (get, list, patch, delete) and the
// extendedMetadataSchemas that describe AgentProperties.
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
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"google.golang.org/api/apphub/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

const (
	agentPropertiesKey = "apphub.googleapis.com/AgentProperties"
	typeWorkload       = "type.googleapis.com/google.cloud.apphub.v1.Workload"
	apField            = `workload_properties.extended_metadata["` + agentPropertiesKey + `"].metadata_struct`
)

var workloadIDRE = regexp.MustCompile(`^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$`)

// workloadPaths are what "*" names in a workload PATCH's update mask.
var workloadPaths = []string{"display_name", "description", "attributes", "workload_properties.extended_metadata"}

// agentPropertiesUnquoted is the AgentProperties key as maskPaths leaves
// it when a mask names it without the backquotes AIP-161 asks for (the
// capitals snake_cased), which this server accepts too.
var agentPropertiesUnquoted = maskPaths(agentPropertiesKey)[0]

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
		if key == agentPropertiesKey || key == agentPropertiesUnquoted {
			return "entry", nil
		}
		return "", fmt.Errorf("only the %s entry of extendedMetadata is writable on this server, not %q", agentPropertiesKey, key)
	}
	return "", fmt.Errorf("%q is not an updatable field of Workload; use displayName, description, attributes or workloadProperties.extendedMetadata.`%s`", p, agentPropertiesKey)
}

// validateAgentProperties checks and normalises one AgentProperties entry.
func validateAgentProperties(em resource.ExtendedMetadata) (json.RawMessage, []fieldViolation) {
	raw := trimNull(json.RawMessage(em.MetadataStruct))
	if len(raw) == 0 {
		return nil, []fieldViolation{{Field: apField, Description: "is required: the AgentProperties document (a JSON object)"}}
	}
	if raw[0] != '{' {
		return nil, []fieldViolation{{Field: apField, Description: "must be a JSON object"}}
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return nil, []fieldViolation{{Field: apField, Description: "is not valid JSON: " + err.Error()}}
	}
	if compact.Len() > spec.MaxDocumentBytes {
		return nil, []fieldViolation{{Field: apField, Description: fmt.Sprintf("is %d bytes of compact JSON; the limit is %d bytes (10 KB)", compact.Len(), spec.MaxDocumentBytes)}}
	}
	res := spec.ValidateAgentProperties(compact.Bytes())
	var v []fieldViolation
	for _, p := range res.Errors() {
		v = append(v, fieldViolation{Field: apField + p.Pointer, Description: p.Message})
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
func validateAttributes(a *resource.Attributes) []fieldViolation {
	if a == nil {
		return nil
	}
	var v []fieldViolation
	enum := func(field, typ, values string) {
		if typ != "" && !slices.Contains(strings.Fields(values), typ) {
			v = append(v, fieldViolation{Field: field, Description: fmt.Sprintf("must be one of %s, got %q", strings.ReplaceAll(values, " ", ", "), clip(typ))})
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
			v = append(v, fieldViolation{Field: "attributes." + field, Description: fmt.Sprintf("must hold at most %d contacts, got %d", maxOwners, len(owners))})
			continue
		}
		for i, c := range owners {
			f := fmt.Sprintf("attributes.%s[%d]", field, i)
			if c == nil {
				continue
			}
			if n := utf8.RuneCountInString(c.DisplayName); n > maxDisplayName {
				v = append(v, fieldViolation{Field: f + ".display_name", Description: fmt.Sprintf("must be at most %d characters, got %d", maxDisplayName, n)})
			}
			if len(c.Email) > maxEmailLength {
				v = append(v, fieldViolation{Field: f + ".email", Description: fmt.Sprintf("must be at most %d bytes, got %d", maxEmailLength, len(c.Email))})
			}
		}
	}
	slices.SortFunc(v, func(a, b fieldViolation) int { return strings.Compare(a.Field, b.Field) })
	return v
}

func cloneWorkload(w *resource.Workload) *resource.Workload {
	b, _ := json.Marshal(w)
	var out resource.Workload
	_ = json.Unmarshal(b, &out)
	return &out
}

// patchWorkload applies the paths of the update mask rule (updatePaths),
// less those App Hub treats as output only (ignoreOutputOnly).
func (s *Server) patchWorkload(w http.ResponseWriter, r *http.Request, name string) {
	var in resource.Workload
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, err)
		return
	}
	paths := updatePaths(r.URL.Query().Get("updateMask"), workloadPaths, map[string]bool{
		"display_name": in.DisplayName != "", "description": in.Description != "", "attributes": in.Attributes != nil,
		"workload_properties.extended_metadata": in.WorkloadProperties != nil && in.WorkloadProperties.ExtendedMetadata != nil})
	paths, ignored := s.ignoreOutputOnly(paths, &in)
	paths, entry, v := workloadPatchPaths(paths, &in)
	if v = append(v, workloadFieldViolations(&in)...); len(v) > 0 {
		s.writeError(w, errViolations(violationMessage("workload update", v), v))
		return
	}
	p := workloadPatch{allowMissing: r.URL.Query().Get("allowMissing") == "true", ignored: ignored, in: &in, paths: paths, entry: entry}
	s.write(w, newWriteReq(r, "update", name), func() (*change, error) {
		return s.planWorkloadPatch(name, p)
	})
}

// workloadFieldViolations checks the lengths of a workload's own fields.
func workloadFieldViolations(in *resource.Workload) []fieldViolation {
	var v []fieldViolation
	if n := utf8.RuneCountInString(in.DisplayName); n > maxDisplayName {
		v = append(v, fieldViolation{Field: "display_name", Description: fmt.Sprintf("must be at most %d characters, got %d", maxDisplayName, n)})
	}
	v = append(v, validateAttributes(in.Attributes)...)
	if n := utf8.RuneCountInString(in.Description); n > maxDescription {
		v = append(v, fieldViolation{Field: "description", Description: fmt.Sprintf("must be at most %d characters, got %d", maxDescription, n)})
	}
	return v
}

// workloadPatchPaths classifies a workload patch's paths (workloadMaskPath)
// and checks the AgentProperties entry of the body when a path touches it:
// the classified paths, the checked entry (nil to remove it) and the
// violations. It depends on the request only, so it runs before the lock.
func workloadPatchPaths(mask []string, in *resource.Workload) ([]string, json.RawMessage, []fieldViolation) {
	var paths []string
	var v []fieldViolation
	touchesEntry := false
	for _, p := range mask {
		c, err := workloadMaskPath(p)
		if err != nil {
			v = append(v, fieldViolation{Field: "update_mask", Description: err.Error()})
			continue
		}
		paths = append(paths, c)
		touchesEntry = touchesEntry || c == "entry" || c == "metadata"
	}
	var bodyEntry *resource.ExtendedMetadata
	if in.WorkloadProperties != nil {
		for k, em := range in.WorkloadProperties.ExtendedMetadata {
			if k != agentPropertiesKey {
				v = append(v, fieldViolation{Field: fmt.Sprintf("workload_properties.extended_metadata[%q]", k),
					Description: "only " + agentPropertiesKey + " is writable on this server"})
				continue
			}
			bodyEntry = &em
		}
	}
	var entry json.RawMessage
	if touchesEntry && bodyEntry != nil {
		var ev []fieldViolation
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
func (s *Server) planWorkloadPatch(name string, p workloadPatch) (*change, error) {
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
				delete(upd.WorkloadProperties.ExtendedMetadata, agentPropertiesKey)
				if len(upd.WorkloadProperties.ExtendedMetadata) == 0 {
					upd.WorkloadProperties.ExtendedMetadata = nil
				}
			} else {
				if upd.WorkloadProperties.ExtendedMetadata == nil {
					upd.WorkloadProperties.ExtendedMetadata = map[string]resource.ExtendedMetadata{}
				}
				upd.WorkloadProperties.ExtendedMetadata[agentPropertiesKey] = resource.ExtendedMetadata{MetadataStruct: []byte(entry)}
			}
		}
	}
	if upd.WorkloadProperties != nil && upd.WorkloadProperties.ExtendedMetadata == nil &&
		upd.WorkloadProperties.FunctionalType == nil && upd.WorkloadProperties.GcpProject == "" {
		upd.WorkloadProperties = nil
	}
}

// workloadRepo is the workloads' part of the write pipeline.
func (s *Server) workloadRepo() *repo[*resource.Workload] {
	return &repo[*resource.Workload]{s: s, c: s.workloads, bucket: bucketWorkloads, typeURL: typeWorkload, title: "Workload",
		plural: "workloads", fam: familyAppHub, max: maxWorkloadsPerLocation}
}

func (s *Server) deleteWorkload(w http.ResponseWriter, r *http.Request, name string) {
	s.workloadRepo().delete(w, r, name)
}

// workloadFields and workloadOrder are what workloads.list filters and orders by.
var (
	workloadFields = newListSchema("workloads", "name", "displayName", "description", "state")
	workloadOrder  = []string{"name", "displayName", "description", "state", "createTime", "updateTime"}
)

// workloadKey is a workload's sort key in one of workloadOrder's fields.
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

func (s *Server) listWorkloads(w http.ResponseWriter, r *http.Request, app string) {
	filter, match, err := listFilter(r, workloadFields, func(wl *resource.Workload) docFields {
		return docFields{"name": {wl.Name}, "displayName": {wl.DisplayName}, "description": {wl.Description}, "state": {wl.State}}
	})
	if err != nil {
		s.writeError(w, err)
		return
	}
	page, next, err := listOrdered(s, r, s.workloads, app, "workloads", filter, match, workloadOrder, workloadKey,
		func(wl *resource.Workload) string { return wl.Name })
	if err != nil {
		s.writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, &resource.ListWorkloadsResponse{Workloads: page, NextPageToken: next})
}

// Extended metadata schemas. The schema id contains a slash
// ("apphub.googleapis.com/AgentProperties"); the generated client sends it
// unescaped ({+name}), and a client that escapes it as %2F reaches the same
// path after decoding.

func (s *Server) agentPropertiesSchema(parent string) *apphub.ExtendedMetadataSchema {
	return &apphub.ExtendedMetadataSchema{
		Name:          parent + "/extendedMetadataSchemas/" + agentPropertiesKey,
		JsonSchema:    string(spec.AgentPropertiesSchema()),
		SchemaVersion: 1,
	}
}

func (s *Server) getSchema(w http.ResponseWriter, r *http.Request, name string) {
	parent, id, _ := strings.Cut(name, "/extendedMetadataSchemas/")
	if id != agentPropertiesKey {
		s.writeError(w, errNotFound("ExtendedMetadataSchema %q was not found; this server has %s.", name, agentPropertiesKey))
		return
	}
	writeJSON(w, http.StatusOK, s.agentPropertiesSchema(parent))
}

func (s *Server) listSchemas(w http.ResponseWriter, r *http.Request, parent string) {
	if _, err := queryPageSize(r); err != nil {
		s.writeError(w, err)
		return
	}
	// There is one schema, so one page, and this server never issues a
	// token here; a token is still decoded, so that a malformed one is a 400
	// as on every other list.
	after, err := decodePageToken(r.URL.Query().Get("pageToken"), queryHash("extendedMetadataSchemas", parent))
	if err != nil {
		s.writeError(w, err)
		return
	}
	resp := &apphub.ListExtendedMetadataSchemasResponse{}
	if schema := s.agentPropertiesSchema(parent); schema.Name > after {
		resp.ExtendedMetadataSchemas = []*apphub.ExtendedMetadataSchema{schema}
	}
	writeJSON(w, http.StatusOK, resp)
}
