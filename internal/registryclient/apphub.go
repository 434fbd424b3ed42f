package registryclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"

	"google.golang.org/api/apphub/v1"
	"google.golang.org/api/googleapi"
)

// AgentPropertiesKey is the extendedMetadata key of App Hub AgentProperties.
const AgentPropertiesKey = "apphub.googleapis.com/AgentProperties"

const extendedMetadataMask = "workloadProperties.extendedMetadata"

// GetWorkload reads an App Hub workload
// (projects/*/locations/*/applications/*/workloads/*).
func (c *Client) GetWorkload(ctx context.Context, name string) (*apphub.Workload, error) {
	w, err := c.apphub.Projects.Locations.Applications.Workloads.Get(name).Context(ctx).Do()
	return w, wrapError(apiAppHub, err)
}

// SetWorkloadMetadata sets (value != nil) or removes (value == nil) one
// workloadProperties.extendedMetadata entry of a workload, keeping the other
// entries: it reads the workload, changes the map and PATCHes it with the
// update mask "workloadProperties.extendedMetadata", then waits for the
// operation. value is the entry's metadataStruct (a JSON object).
//
// With allowMissing the PATCH carries allowMissing=true, so a missing workload
// is created (AIP-134; the bundled server supports it, Google's App Hub
// populates AgentProperties itself and serves it read-only). Removing an entry
// from a workload that does not exist is a NOT_FOUND error (see IsNotFound);
// removing an absent entry is a no-op that returns the workload unchanged.
func (c *Client) SetWorkloadMetadata(ctx context.Context, workload, key string, value json.RawMessage, allowMissing bool) (*apphub.Workload, error) {
	if key == "" {
		return nil, fmt.Errorf("SetWorkloadMetadata: empty metadata key")
	}
	if value != nil && !json.Valid(value) {
		return nil, fmt.Errorf("SetWorkloadMetadata: the value for %s is not valid JSON", key)
	}
	current, err := c.GetWorkload(ctx, workload)
	switch {
	case err == nil:
	case IsNotFound(err) && allowMissing && value != nil:
		current = &apphub.Workload{Name: workload}
	default:
		return nil, err
	}

	entries, changed, err := withMetadataEntry(current, key, value)
	if err != nil {
		return nil, err
	}
	if !changed {
		return current, nil
	}
	resp, err := c.patchExtendedMetadata(ctx, workload, entries, allowMissing)
	if err != nil {
		return nil, err
	}
	return decodeResponse(resp, func(w *apphub.Workload) string { return w.Name }, func() (*apphub.Workload, error) { return c.GetWorkload(ctx, workload) })
}

// withMetadataEntry returns a copy of the workload's extendedMetadata with
// key set to value (compacted), or removed when value is nil, and whether
// that changed anything (removing an absent entry does not).
func withMetadataEntry(w *apphub.Workload, key string, value json.RawMessage) (map[string]apphub.ExtendedMetadata, bool, error) {
	var entries map[string]apphub.ExtendedMetadata
	if w.WorkloadProperties != nil {
		entries = maps.Clone(w.WorkloadProperties.ExtendedMetadata)
	}
	if entries == nil {
		entries = map[string]apphub.ExtendedMetadata{}
	}
	if value == nil {
		if _, ok := entries[key]; !ok {
			return nil, false, nil
		}
		delete(entries, key)
		return entries, true, nil
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, value); err != nil {
		return nil, false, fmt.Errorf("SetWorkloadMetadata: %w", err)
	}
	entries[key] = apphub.ExtendedMetadata{MetadataStruct: googleapi.RawMessage(compact.Bytes())}
	return entries, true, nil
}

// patchExtendedMetadata PATCHes the workload's whole extendedMetadata map
// (its update mask) and waits for the operation; it returns its response.
func (c *Client) patchExtendedMetadata(ctx context.Context, workload string, entries map[string]apphub.ExtendedMetadata, allowMissing bool) (googleapi.RawMessage, error) {
	patch := &apphub.Workload{
		Name: workload,
		WorkloadProperties: &apphub.WorkloadProperties{
			ExtendedMetadata: entries,
			// An empty map must still be sent: it clears the last entry.
			ForceSendFields: []string{"ExtendedMetadata"},
		},
	}
	var opts []googleapi.CallOption
	if allowMissing {
		opts = append(opts, googleapi.QueryParameter("allowMissing", "true"))
	}
	resp, _, err := writeAndWait(ctx, "patch "+workload, func(ctx context.Context, requestID string) (googleapi.RawMessage, error) {
		op, err := c.apphub.Projects.Locations.Applications.Workloads.Patch(workload, patch).
			UpdateMask(extendedMetadataMask).RequestId(requestID).Context(ctx).Do(opts...)
		if err != nil {
			return nil, wrapError(apiAppHub, err)
		}
		return c.awaitAppHub(ctx, op)
	})
	return resp, err
}
