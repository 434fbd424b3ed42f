package registryserver_test

import (
	"testing"

	"google.golang.org/api/apphub/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

const validProps = `{"displayName":"Invoice Helper","version":"1.0.0"}`

// By default the server answers a write of a workload's extendedMetadata as
// Google's App Hub does (the field is output only: AIP-203 says the mask path
// and the body's value are ignored, without an error) and stores nothing.
func TestWorkloadExtendedMetadataIsOutputOnlyByDefault(t *testing.T) {
	e := start(t, registryserver.Options{})
	masks := []string{
		"workloadProperties.extendedMetadata",
		"workloadProperties.extendedMetadata.`" + propsKey + "`",
		"workload_properties.extended_metadata",
		"workloadProperties.extendedMetadata.`apphub.googleapis.com/Other`",
	}
	// A missing workload: nothing left to write, so nothing is created.
	for _, mask := range masks {
		err := patchWorkload(e, withProps(&apphub.Workload{}, validProps), mask)
		apiErr(t, err, 404, "NOT_FOUND")
	}
	if _, err := e.ah.Projects.Locations.Applications.Workloads.Get(workloadWL).Do(); err == nil {
		t.Fatal("a PATCH that named only output-only fields created the workload")
	}

	// An existing workload: the PATCH succeeds, the writable fields beside
	// the metadata are applied, and the metadata is not stored, even when it
	// is invalid (an ignored value is not validated).
	if err := patchWorkload(e, &apphub.Workload{DisplayName: "Invoices"}, "displayName"); err != nil {
		t.Fatal(err)
	}
	before := getWorkload(t, e).UpdateTime
	for _, mask := range masks[:2] { // a PATCH left with nothing to write changes nothing, updateTime included
		if err := patchWorkload(e, withProps(&apphub.Workload{}, validProps), mask); err != nil {
			t.Fatal(err)
		}
	}
	if after := getWorkload(t, e).UpdateTime; after != before {
		t.Errorf("updateTime %s -> %s after PATCHes that wrote nothing", before, after)
	}
	for _, mask := range masks {
		if err := patchWorkload(e, withProps(&apphub.Workload{}, validProps), mask); err != nil {
			t.Errorf("mask %s: %v, want success (ignored)", mask, err)
		}
	}
	if err := patchWorkload(e, withProps(&apphub.Workload{DisplayName: "Invoices", Description: "kept"}, `{"dispalyName":1}`), "*"); err != nil {
		t.Errorf(`mask "*" with an invalid entry: %v, want success (entry ignored)`, err)
	}
	if err := patchWorkload(e, withProps(&apphub.Workload{}, validProps), ""); err != nil {
		t.Errorf("no mask: %v", err)
	}
	w := getWorkload(t, e)
	if w.WorkloadProperties != nil {
		t.Errorf("workloadProperties stored: %+v", w.WorkloadProperties)
	}
	if w.DisplayName != "Invoices" || w.Description != "kept" {
		t.Errorf("the writable fields: %+v", w)
	}
}

// With AppHubWritable the same PATCH stores the entry, so tests can seed it.
func TestWorkloadExtendedMetadataWritableOption(t *testing.T) {
	e := start(t, registryserver.Options{AppHubWritable: true})
	if err := patchWorkload(e, withProps(&apphub.Workload{}, validProps), "workloadProperties.extendedMetadata"); err != nil {
		t.Fatal(err)
	}
	w := getWorkload(t, e)
	if w.WorkloadProperties == nil || string(w.WorkloadProperties.ExtendedMetadata[propsKey].MetadataStruct) != validProps {
		t.Fatalf("entry not stored: %+v", w.WorkloadProperties)
	}
}

// A PATCH without a mask whose body carries only output-only fields other
// than the metadata (gcpProject) names nothing to write either: a missing
// workload is not created. An empty body names nothing output only, and
// creates the workload.
func TestWorkloadPatchOfOutputOnlyFieldsAlone(t *testing.T) {
	e := start(t, registryserver.Options{})
	err := patchWorkload(e, &apphub.Workload{WorkloadProperties: &apphub.WorkloadProperties{GcpProject: "other"}}, "")
	apiErr(t, err, 404, "NOT_FOUND")
	if err := patchWorkload(e, &apphub.Workload{}, ""); err != nil {
		t.Errorf("an empty PATCH with allowMissing: %v, want the workload created", err)
	}
	if w := getWorkload(t, e); w.WorkloadProperties != nil {
		t.Errorf("workloadProperties stored: %+v", w.WorkloadProperties)
	}
}
