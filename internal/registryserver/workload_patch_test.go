package registryserver_test

// The workload PATCH's update mask and limits, which the mutation run
// (make mutation) found untested: "*", a mask that leaves out what the body
// also carries, an entry outside the mask, and the size limits at the edge.

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strings"
	"testing"

	"google.golang.org/api/apphub/v1"
	"google.golang.org/api/googleapi"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

const (
	propsKey   = "apphub.googleapis.com/AgentProperties"
	workloadWL = parent + "/applications/app1/workloads/wl"
)

func patchWorkload(e *env, w *apphub.Workload, mask string) error {
	call := e.ah.Projects.Locations.Applications.Workloads.Patch(workloadWL, w)
	if mask != "" {
		call = call.UpdateMask(mask)
	}
	_, err := call.Do(googleapi.QueryParameter("allowMissing", "true"))
	return err
}

func getWorkload(t *testing.T, e *env) *apphub.Workload {
	t.Helper()
	w, err := e.ah.Projects.Locations.Applications.Workloads.Get(workloadWL).Do()
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func withProps(w *apphub.Workload, props string) *apphub.Workload {
	w.WorkloadProperties = &apphub.WorkloadProperties{ExtendedMetadata: map[string]apphub.ExtendedMetadata{
		propsKey: {MetadataStruct: googleapi.RawMessage(props)},
	}}
	return w
}

func is400(err error) bool {
	var ge *googleapi.Error
	return errors.As(err, &ge) && ge.Code == http.StatusBadRequest
}

func TestWorkloadPatchMask(t *testing.T) {
	e := start(t, registryserver.Options{AppHubWritable: true})
	if err := patchWorkload(e, &apphub.Workload{DisplayName: "First", Description: "kept"}, "*"); err != nil {
		t.Fatalf(`mask "*": %v`, err)
	}
	if w := getWorkload(t, e); w.DisplayName != "First" || w.Description != "kept" {
		t.Fatalf(`after mask "*": %+v`, w)
	}
	// The mask names displayName: the description in the body is not applied.
	if err := patchWorkload(e, &apphub.Workload{DisplayName: "Second", Description: "ignored"}, "displayName"); err != nil {
		t.Fatal(err)
	}
	if w := getWorkload(t, e); w.DisplayName != "Second" || w.Description != "kept" {
		t.Errorf("after mask displayName: %+v, want the description kept", w)
	}
	// An entry outside the mask is not validated, nor written.
	if err := patchWorkload(e, withProps(&apphub.Workload{DisplayName: "Third"}, `{"skills":"not a list"}`), "displayName"); err != nil {
		t.Errorf("an invalid entry outside the mask: %v", err)
	}
	if w := getWorkload(t, e); w.WorkloadProperties != nil && len(w.WorkloadProperties.ExtendedMetadata) > 0 {
		t.Errorf("an entry outside the mask was written: %+v", w.WorkloadProperties)
	}
	// Inside the mask it is.
	if err := patchWorkload(e, withProps(&apphub.Workload{}, `{"skills":"not a list"}`), "workloadProperties.extendedMetadata"); !is400(err) {
		t.Errorf("an invalid entry in the mask: err = %v, want 400", err)
	}
}

func TestWorkloadPatchLimits(t *testing.T) {
	e := start(t, registryserver.Options{AppHubWritable: true})
	for _, tt := range []struct {
		w  *apphub.Workload
		ok bool
	}{
		{&apphub.Workload{DisplayName: strings.Repeat("é", 63)}, true},
		{&apphub.Workload{DisplayName: strings.Repeat("é", 64)}, false},
		{&apphub.Workload{Description: strings.Repeat("é", 2048)}, true},
		{&apphub.Workload{Description: strings.Repeat("é", 2049)}, false},
	} {
		err := patchWorkload(e, tt.w, "")
		if tt.ok && err != nil || !tt.ok && !is400(err) {
			t.Errorf("display name %d, description %d characters: err = %v, want ok = %v",
				len([]rune(tt.w.DisplayName)), len([]rune(tt.w.Description)), err, tt.ok)
		}
	}

	// AgentProperties at exactly 10,240 compact bytes is accepted, one more is not.
	raw, err := os.ReadFile("../spec/testdata/properties/valid.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	padded := func(size int) string {
		m["description"] = ""
		base, _ := json.Marshal(m)
		m["description"] = strings.Repeat("x", size-len(base))
		b, _ := json.Marshal(m)
		if len(b) != size {
			t.Fatalf("padded to %d bytes, want %d", len(b), size)
		}
		return string(b)
	}
	if err := patchWorkload(e, withProps(&apphub.Workload{}, padded(10240)), ""); err != nil {
		t.Errorf("AgentProperties of 10240 bytes: %v", err)
	}
	if err := patchWorkload(e, withProps(&apphub.Workload{}, padded(10241)), ""); !is400(err) || !strings.Contains(err.Error(), "10241 bytes") {
		t.Errorf("AgentProperties of 10241 bytes: err = %v, want 400", err)
	}
}

// A workload's contacts at their caps are accepted, one past them is not:
// 16 owners per list, a name of 63 characters and an email of 254 bytes.
func TestWorkloadAttributeLimits(t *testing.T) {
	e := start(t, registryserver.Options{})
	owners := func(n int, c apphub.ContactInfo) *apphub.Attributes {
		var list []*apphub.ContactInfo
		for range n {
			list = append(list, &c)
		}
		return &apphub.Attributes{OperatorOwners: list}
	}
	email := func(size int) string { return strings.Repeat("e", size-len("@example.test")) + "@example.test" }
	for _, tt := range []struct {
		attrs *apphub.Attributes
		ok    bool
	}{
		{owners(16, apphub.ContactInfo{Email: "a@example.test"}), true},
		{owners(17, apphub.ContactInfo{Email: "a@example.test"}), false},
		{owners(1, apphub.ContactInfo{DisplayName: strings.Repeat("é", 63), Email: email(254)}), true},
		{owners(1, apphub.ContactInfo{DisplayName: strings.Repeat("é", 64), Email: "a@example.test"}), false},
		{owners(1, apphub.ContactInfo{Email: email(255)}), false},
	} {
		c := tt.attrs.OperatorOwners[0]
		err := patchWorkload(e, &apphub.Workload{Attributes: tt.attrs}, "attributes")
		if tt.ok && err != nil || !tt.ok && !is400(err) {
			t.Errorf("%d owners, a name of %d characters, an email of %d bytes: err = %v, want ok = %v",
				len(tt.attrs.OperatorOwners), len([]rune(c.DisplayName)), len(c.Email), err, tt.ok)
		}
	}
}

// The entry is stored in the validator's normal form, not as sent.
func TestWorkloadEntryIsStoredNormalised(t *testing.T) {
	e := start(t, registryserver.Options{AppHubWritable: true})
	if err := patchWorkload(e, withProps(&apphub.Workload{}, `{"description":"\u0041gent","version":"1.0"}`), ""); err != nil {
		t.Fatal(err)
	}
	w := getWorkload(t, e)
	got := string(w.WorkloadProperties.ExtendedMetadata[propsKey].MetadataStruct)
	if !strings.Contains(got, `"Agent"`) {
		t.Errorf("stored entry = %s, want the escape written out", got)
	}
}

// Removing the last entry leaves no workloadProperties at all (on a server
// that accepts the entry: on a default one it is never written).
func TestWorkloadEntryRemovedLeavesNoProperties(t *testing.T) {
	e := start(t, registryserver.Options{AppHubWritable: true})
	if err := patchWorkload(e, withProps(&apphub.Workload{DisplayName: "W"}, `{"description":"x"}`), ""); err != nil {
		t.Fatal(err)
	}
	empty := &apphub.Workload{WorkloadProperties: &apphub.WorkloadProperties{
		ExtendedMetadata: map[string]apphub.ExtendedMetadata{}, ForceSendFields: []string{"ExtendedMetadata"}}}
	if w := getWorkload(t, e); w.WorkloadProperties == nil {
		t.Fatal("the entry was not written")
	}
	if err := patchWorkload(e, empty, "workloadProperties.extendedMetadata"); err != nil {
		t.Fatal(err)
	}
	if w := getWorkload(t, e); w.WorkloadProperties != nil {
		t.Errorf("workloadProperties after removing the last entry = %+v, want none", w.WorkloadProperties)
	}
}

// Listing workloads a page at a time.
func TestListWorkloadsPages(t *testing.T) {
	e := start(t, registryserver.Options{})
	app := parent + "/applications/app1"
	for _, id := range []string{"wa", "wb"} {
		if _, err := e.ah.Projects.Locations.Applications.Workloads.Patch(app+"/workloads/"+id, &apphub.Workload{DisplayName: id}).
			UpdateMask("displayName").Do(googleapi.QueryParameter("allowMissing", "true")); err != nil {
			t.Fatal(err)
		}
	}
	p1, err := e.ah.Projects.Locations.Applications.Workloads.List(app).PageSize(1).Do()
	if err != nil || len(p1.Workloads) != 1 || p1.NextPageToken == "" {
		t.Fatalf("first page = %+v, %v; want one workload and a token", p1, err)
	}
	p2, err := e.ah.Projects.Locations.Applications.Workloads.List(app).PageSize(1).PageToken(p1.NextPageToken).Do()
	if err != nil || len(p2.Workloads) != 1 || p2.NextPageToken != "" || p2.Workloads[0].Name == p1.Workloads[0].Name {
		t.Fatalf("second page = %+v, %v; want the other workload and no token", p2, err)
	}
}

// Without a mask, only the fields the body sets are written.
func TestWorkloadPatchWithoutAMask(t *testing.T) {
	e := start(t, registryserver.Options{})
	attrs := &apphub.Attributes{Criticality: &apphub.Criticality{Type: "MISSION_CRITICAL"}}
	if err := patchWorkload(e, &apphub.Workload{DisplayName: "A", Description: "B", Attributes: attrs}, "*"); err != nil {
		t.Fatal(err)
	}
	if err := patchWorkload(e, &apphub.Workload{DisplayName: "C"}, ""); err != nil {
		t.Fatal(err)
	}
	if w := getWorkload(t, e); w.DisplayName != "C" || w.Description != "B" || w.Attributes == nil {
		t.Errorf("after a display name alone: %+v", w)
	}
	if err := patchWorkload(e, &apphub.Workload{Description: "D"}, ""); err != nil {
		t.Fatal(err)
	}
	if w := getWorkload(t, e); w.DisplayName != "C" || w.Description != "D" || w.Attributes == nil {
		t.Errorf("after a description alone: %+v", w)
	}
}

// A workload PATCH carries its update mask to the state's rule (AIP-134;
// every case of the rule is in state/workloads_test.go): here the rows where
// the wire matters, a mask in the query, "*" and none, and a backquoted key
// (AIP-161) escaped in the URL. entry is the displayName of the
// AgentProperties entry stored after the PATCH ("" for none); the workload
// starts with "First" on a writable server, and the PATCH sends "Second"
// when props is set.
func TestWorkloadPatchFollowsTheMaskRule(t *testing.T) {
	for _, tt := range []struct {
		mask              string
		writable, props   bool
		name, desc, entry string
		attrs             bool // attributes kept
	}{
		{mask: "display_name", writable: true, props: true, name: "C", desc: "B", attrs: true, entry: "First"},
		{mask: "*", writable: true, props: true, name: "C", entry: "Second"},
		{mask: "", writable: true, name: "C", desc: "B", attrs: true, entry: "First"},
		{mask: "workloadProperties.extendedMetadata.`" + propsKey + "`,description", writable: true, props: true, name: "A", attrs: true, entry: "Second"},
	} {
		e := start(t, registryserver.Options{AppHubWritable: tt.writable})
		first := &apphub.Workload{DisplayName: "A", Description: "B", Attributes: &apphub.Attributes{Criticality: &apphub.Criticality{Type: "HIGH"}}}
		if tt.writable {
			first = withProps(first, `{"displayName":"First"}`)
		}
		if err := patchWorkload(e, first, ""); err != nil {
			t.Fatal(err)
		}
		second := &apphub.Workload{DisplayName: "C"}
		if tt.props {
			second = withProps(second, `{"displayName":"Second"}`)
		}
		if err := patchWorkload(e, second, tt.mask); err != nil {
			t.Errorf("mask %q (writable %v): %v", tt.mask, tt.writable, err)
			continue
		}
		w := getWorkload(t, e)
		var entry struct{ DisplayName string }
		if w.WorkloadProperties != nil {
			_ = json.Unmarshal(w.WorkloadProperties.ExtendedMetadata[propsKey].MetadataStruct, &entry)
		}
		if w.DisplayName != tt.name || w.Description != tt.desc || (w.Attributes != nil) != tt.attrs || entry.DisplayName != tt.entry {
			t.Errorf("mask %q (writable %v, entry sent %v): %q %q, attributes %v, entry %q; want %q %q, %v, %q",
				tt.mask, tt.writable, tt.props, w.DisplayName, w.Description, w.Attributes != nil, entry.DisplayName, tt.name, tt.desc, tt.attrs, tt.entry)
		}
	}
}
