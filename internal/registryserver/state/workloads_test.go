package state

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
)

// An AgentProperties entry that is not JSON is refused by name. Through the
// API the body's decoder refuses it first; validateAgentProperties does not
// count on that.
func TestAgentPropertiesNotJSON(t *testing.T) {
	entry, v := validateAgentProperties(resource.ExtendedMetadata{MetadataStruct: []byte(`{"displayName":`)})
	if entry != nil || len(v) != 1 || v[0].Field != apField || !strings.HasPrefix(v[0].Description, "is not valid JSON") {
		t.Errorf("entry %s, violations %+v; want none and one saying it is not valid JSON", entry, v)
	}
}

const workloadName = parent + "/applications/app1/workloads/wl"

// withProps sets the AgentProperties entry of w to props.
func withProps(w *resource.Workload, props string) *resource.Workload {
	w.WorkloadProperties = &resource.WorkloadProperties{ExtendedMetadata: map[string]resource.ExtendedMetadata{
		AgentPropertiesKey: {MetadataStruct: json.RawMessage(props)}}}
	return w
}

// patch updates the workload of the tests, creating it when missing.
func patch(s *State, w *resource.Workload, mask string) error {
	_, err := s.UpdateWorkload("", workloadName, mask, true, w)
	return err
}

// workload is the workload of the tests.
func workload(t *testing.T, s *State) *resource.Workload {
	t.Helper()
	w, err := s.Workload(workloadName)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// entryName is the displayName of the workload's AgentProperties, "" for none.
func entryName(w *resource.Workload) string {
	var entry struct{ DisplayName string }
	if w.WorkloadProperties != nil {
		_ = json.Unmarshal(w.WorkloadProperties.ExtendedMetadata[AgentPropertiesKey].MetadataStruct, &entry)
	}
	return entry.DisplayName
}

// A workload update follows the update mask rule of every collection
// (AIP-134): the mask as given, "*" (every field: those the update leaves
// out are cleared), or without a mask the fields the update carries; on a
// default state and on one that accepts App Hub writes, where "*" and no
// mask also reach the AgentProperties entry. entry is the displayName of
// the entry stored after the update ("" for none); the workload starts with
// "First" on a writable state, and the update sends "Second" when props is
// set.
func TestWorkloadUpdateFollowsTheMaskRule(t *testing.T) {
	for _, tt := range []struct {
		mask              string
		writable, props   bool
		name, desc, entry string
		attrs             bool // attributes kept
	}{
		{mask: "displayName", name: "C", desc: "B", attrs: true},
		{mask: "display_name", writable: true, props: true, name: "C", desc: "B", attrs: true, entry: "First"},
		{mask: "*", props: true, name: "C"},
		{mask: "*", writable: true, name: "C"},
		{mask: "*", writable: true, props: true, name: "C", entry: "Second"},
		{mask: "", props: true, name: "C", desc: "B", attrs: true},
		{mask: "", writable: true, name: "C", desc: "B", attrs: true, entry: "First"},
		{mask: "", writable: true, props: true, name: "C", desc: "B", attrs: true, entry: "Second"},
		{mask: "workloadProperties.extendedMetadata.`" + AgentPropertiesKey + "`,description", writable: true, props: true, name: "A", attrs: true, entry: "Second"},
		{mask: "workload_properties.extended_metadata." + AgentPropertiesKey, writable: true, name: "A", desc: "B", attrs: true},
		{mask: "workloadProperties", writable: true, props: true, name: "A", desc: "B", attrs: true, entry: "Second"},
		{mask: "attributes", name: "A", desc: "B"},
	} {
		s := open(t, Options{AppHubWritable: tt.writable})
		first := &resource.Workload{DisplayName: "A", Description: "B", Attributes: &resource.Attributes{Criticality: &resource.Criticality{Type: "HIGH"}}}
		if tt.writable {
			first = withProps(first, `{"displayName":"First"}`)
		}
		if err := patch(s, first, ""); err != nil {
			t.Fatal(err)
		}
		second := &resource.Workload{DisplayName: "C"}
		if tt.props {
			second = withProps(second, `{"displayName":"Second"}`)
		}
		if err := patch(s, second, tt.mask); err != nil {
			t.Errorf("mask %q (writable %v): %v", tt.mask, tt.writable, err)
			continue
		}
		w := workload(t, s)
		if w.DisplayName != tt.name || w.Description != tt.desc || (w.Attributes != nil) != tt.attrs || entryName(w) != tt.entry {
			t.Errorf("mask %q (writable %v, entry sent %v): %q %q, attributes %v, entry %q; want %q %q, %v, %q",
				tt.mask, tt.writable, tt.props, w.DisplayName, w.Description, w.Attributes != nil, entryName(w), tt.name, tt.desc, tt.attrs, tt.entry)
		}
	}
}

// An update names updatable fields only, and only the AgentProperties entry
// of the extended metadata; an entry outside the mask is not checked, nor
// written; inside it, it is; a missing workload is created only with
// allowMissing, as ACTIVE, with a uid.
func TestWorkloadUpdateChecks(t *testing.T) {
	s := open(t, Options{AppHubWritable: true})
	_, err := s.UpdateWorkload("", workloadName, "displayName", false, &resource.Workload{DisplayName: "W"})
	wantCode(t, err, NotFound, "set allowMissing=true to create it")
	if err := patch(s, &resource.Workload{DisplayName: "W"}, "displayName"); err != nil {
		t.Fatal(err)
	}
	if w := workload(t, s); w.State != "ACTIVE" || w.Uid == "" || w.CreateTime == "" || w.CreateTime != w.UpdateTime {
		t.Errorf("a created workload: %+v", w)
	}
	for mask, want := range map[string]string{
		"labels": `"labels" is not an updatable field of Workload`,
		"workloadProperties.extendedMetadata.`apphub.googleapis.com/Other`": "only the " + AgentPropertiesKey + " entry of extendedMetadata is writable",
	} {
		if got := violationsOf(t, patch(s, &resource.Workload{}, mask))["update_mask"]; !strings.Contains(got, want) {
			t.Errorf("mask %s: %q, want %q", mask, got, want)
		}
	}
	other := &resource.Workload{WorkloadProperties: &resource.WorkloadProperties{ExtendedMetadata: map[string]resource.ExtendedMetadata{"apphub.googleapis.com/Other": {}}}}
	if v := violationsOf(t, patch(s, other, "displayName")); v[`workload_properties.extended_metadata["apphub.googleapis.com/Other"]`] == "" {
		t.Errorf("another entry: %v", v)
	}
	if err := patch(s, withProps(&resource.Workload{DisplayName: "Third"}, `{"skills":"not a list"}`), "displayName"); err != nil {
		t.Errorf("an invalid entry outside the mask: %v", err)
	}
	if w := workload(t, s); w.WorkloadProperties != nil {
		t.Errorf("an entry outside the mask was written: %+v", w.WorkloadProperties)
	}
	for props, why := range map[string]string{`{"skills":"not a list"}`: "", `[1]`: "must be a JSON object", `null`: "is required", `{"a":`: "is not valid JSON"} {
		v := violationsOf(t, patch(s, withProps(&resource.Workload{}, props), "workloadProperties.extendedMetadata"))
		if len(v) == 0 || (why != "" && !strings.Contains(v[apField], why)) {
			t.Errorf("entry %s in the mask: %v, want %q", props, v, why)
		}
	}
	view(t)(s.DeleteWorkload("", workloadName))
	_, err = s.Workload(workloadName)
	wantCode(t, err, NotFound, "Workload")
}

// The limits of a workload's fields and of its entry, at their values and
// one past them.
func TestWorkloadLimits(t *testing.T) {
	s := open(t, Options{AppHubWritable: true})
	for _, tt := range []struct {
		w     *resource.Workload
		field string
	}{
		{&resource.Workload{DisplayName: strings.Repeat("é", 63)}, ""},
		{&resource.Workload{DisplayName: strings.Repeat("é", 64)}, "display_name"},
		{&resource.Workload{Description: strings.Repeat("é", 2048)}, ""},
		{&resource.Workload{Description: strings.Repeat("é", 2049)}, "description"},
	} {
		err := patch(s, tt.w, "")
		if tt.field == "" && err != nil || tt.field != "" && violationsOf(t, err)[tt.field] == "" {
			t.Errorf("display name %d, description %d characters: %v, want %q named", len([]rune(tt.w.DisplayName)), len([]rune(tt.w.Description)), err, tt.field)
		}
	}
	padded := func(size int) string {
		base := `{"displayName":"Invoice Helper","version":"1.0.0","description":""}`
		return strings.Replace(base, `"description":""`, `"description":"`+strings.Repeat("x", size-len(base))+`"`, 1)
	}
	if err := patch(s, withProps(&resource.Workload{}, padded(10240)), ""); err != nil {
		t.Errorf("AgentProperties of 10240 bytes: %v", err)
	}
	if v := violationsOf(t, patch(s, withProps(&resource.Workload{}, padded(10241)), "")); !strings.Contains(v[apField], "10241 bytes") {
		t.Errorf("AgentProperties of 10241 bytes: %v", v)
	}
	owners := func(n int, c resource.ContactInfo) *resource.Attributes {
		var list []*resource.ContactInfo
		for range n {
			list = append(list, &c)
		}
		return &resource.Attributes{OperatorOwners: list}
	}
	email := func(size int) string { return strings.Repeat("e", size-len("@example.test")) + "@example.test" }
	for _, tt := range []struct {
		attrs *resource.Attributes
		field string
	}{
		{owners(16, resource.ContactInfo{Email: "a@example.test"}), ""},
		{owners(17, resource.ContactInfo{Email: "a@example.test"}), "attributes.operator_owners"},
		{owners(1, resource.ContactInfo{DisplayName: strings.Repeat("é", 63), Email: email(254)}), ""},
		{owners(1, resource.ContactInfo{DisplayName: strings.Repeat("é", 64), Email: "a@example.test"}), "attributes.operator_owners[0].display_name"},
		{owners(1, resource.ContactInfo{Email: email(255)}), "attributes.operator_owners[0].email"},
		{&resource.Attributes{OperatorOwners: []*resource.ContactInfo{nil}}, ""},
		{&resource.Attributes{Environment: &resource.Environment{Type: "STAGING"}, Criticality: &resource.Criticality{Type: "LOW"}}, ""},
		{&resource.Attributes{Environment: &resource.Environment{Type: "MARS"}}, "attributes.environment.type"},
		{&resource.Attributes{Criticality: &resource.Criticality{}}, ""},
	} {
		err := patch(s, &resource.Workload{Attributes: tt.attrs}, "attributes")
		if tt.field == "" && err != nil || tt.field != "" && violationsOf(t, err)[tt.field] == "" {
			t.Errorf("attributes %+v: %v, want %q named", tt.attrs, err, tt.field)
		}
	}
}

// The entry is stored in the validator's normal form, and removing the
// last entry leaves no workloadProperties at all.
func TestWorkloadEntryStored(t *testing.T) {
	s := open(t, Options{AppHubWritable: true})
	if err := patch(s, withProps(&resource.Workload{DisplayName: "W"}, `{"description":"\u0041gent","version":"1.0"}`), ""); err != nil {
		t.Fatal(err)
	}
	if got := string(workload(t, s).WorkloadProperties.ExtendedMetadata[AgentPropertiesKey].MetadataStruct); !strings.Contains(got, `"Agent"`) {
		t.Errorf("stored entry = %s, want the escape written out", got)
	}
	empty := &resource.Workload{WorkloadProperties: &resource.WorkloadProperties{ExtendedMetadata: map[string]resource.ExtendedMetadata{}}}
	if err := patch(s, empty, "workloadProperties.extendedMetadata"); err != nil {
		t.Fatal(err)
	}
	if w := workload(t, s); w.WorkloadProperties != nil {
		t.Errorf("workloadProperties after removing the last entry = %+v, want none", w.WorkloadProperties)
	}
}

// By default the extended metadata is output only, as Google's App Hub
// has it (AIP-203): its mask paths and the body's value are ignored without
// an error and nothing is stored; an update that names nothing else creates
// no workload, and one that writes nothing leaves updateTime as it was.
func TestWorkloadExtendedMetadataIsOutputOnly(t *testing.T) {
	clk := newClock()
	s := open(t, Options{Now: clk.Now})
	const props = `{"displayName":"Invoice Helper","version":"1.0.0"}`
	masks := []string{"workloadProperties.extendedMetadata", "workloadProperties.extendedMetadata.`" + AgentPropertiesKey + "`",
		"workload_properties.extended_metadata", "workloadProperties.extendedMetadata.`apphub.googleapis.com/Other`"}
	for _, mask := range masks {
		wantCode(t, patch(s, withProps(&resource.Workload{}, props), mask), NotFound, "output only")
	}
	wantCode(t, patch(s, &resource.Workload{WorkloadProperties: &resource.WorkloadProperties{GcpProject: "other"}}, ""), NotFound)
	if err := patch(s, &resource.Workload{DisplayName: "Invoices"}, "displayName"); err != nil {
		t.Fatal(err)
	}
	before := workload(t, s).UpdateTime
	clk.advance(time.Second)
	for _, mask := range masks {
		if err := patch(s, withProps(&resource.Workload{}, props), mask); err != nil {
			t.Errorf("mask %s: %v, want success (ignored)", mask, err)
		}
	}
	if after := workload(t, s).UpdateTime; after != before {
		t.Errorf("updateTime %s -> %s after updates that wrote nothing", before, after)
	}
	if err := patch(s, withProps(&resource.Workload{DisplayName: "Invoices", Description: "kept"}, `{"dispalyName":1}`), "*"); err != nil {
		t.Errorf(`mask "*" with an invalid entry: %v, want success (entry ignored)`, err)
	}
	if w := workload(t, s); w.WorkloadProperties != nil || w.DisplayName != "Invoices" || w.Description != "kept" || w.UpdateTime == before {
		t.Errorf("after the ignored entry: %+v", w)
	}
	s = open(t, Options{AppHubWritable: true})
	if err := patch(s, withProps(&resource.Workload{}, props), "workloadProperties.extendedMetadata"); err != nil {
		t.Fatal(err)
	}
	if w := workload(t, s); string(w.WorkloadProperties.ExtendedMetadata[AgentPropertiesKey].MetadataStruct) != props {
		t.Errorf("on a writable state the entry is stored: %+v", w.WorkloadProperties)
	}
}

// workloads.list filters, orders and pages the workloads of an application.
func TestListWorkloads(t *testing.T) {
	clk := newClock()
	s := open(t, Options{Now: clk.Now})
	app := parent + "/applications/app1"
	for i, id := range []string{"wa", "wb", "wc"} {
		view(t)(s.UpdateWorkload("", app+"/workloads/"+id, "displayName,description", true, &resource.Workload{DisplayName: "W " + strconv.Itoa(3-i), Description: id}))
		clk.advance(time.Second)
	}
	names := func(list []*resource.Workload) string {
		var out []string
		for _, w := range list {
			out = append(out, LastSegment(w.Name))
		}
		return strings.Join(out, " ")
	}
	for orderBy, want := range map[string]string{"": "wa wb wc", "displayName": "wc wb wa", "createTime desc": "wc wb wa", "description desc": "wc wb wa",
		"state, updateTime desc": "wc wb wa", "name desc": "wc wb wa"} {
		o, err := search.ParseOrderBy(orderBy, WorkloadOrder)
		if err != nil {
			t.Fatal(err)
		}
		if list, _, err := s.ListWorkloads(context.Background(), app, nil, o, nil, 10); err != nil || names(list) != want {
			t.Errorf("orderBy %q: %s %v, want %s", orderBy, names(list), err, want)
		}
	}
	node, _ := search.ParseQuery("displayName:\"W 2\" OR description=wa", WorkloadFields)
	if list, _, err := s.ListWorkloads(context.Background(), app, node, nil, nil, 10); err != nil || names(list) != "wa wb" {
		t.Errorf("filtered: %s %v", names(list), err)
	}
	page, next, err := s.ListWorkloads(context.Background(), app, nil, nil, nil, 2)
	if err != nil || names(page) != "wa wb" || next == nil {
		t.Fatalf("first page: %s %v %v", names(page), next, err)
	}
	if page, next, err = s.ListWorkloads(context.Background(), app, nil, nil, next, 2); err != nil || names(page) != "wc" || next != nil {
		t.Errorf("second page: %s %v %v", names(page), next, err)
	}
}
