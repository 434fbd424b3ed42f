package state

// Google's App Hub marks workloadProperties (extendedMetadata, functionalType,
// gcpProject...) "Output only" in the apphub/v1 discovery document: App Hub
// derives AgentProperties from the deployed agent and never takes it from a
// client. AIP-203 says how a front end treats such a field: a value in the
// request body is cleared without an error, and the field's presence in an
// update mask is ignored. So by default this server does the same: a PATCH
// whose mask names the extended metadata succeeds and stores none of it.
// Options.AppHubWritable (-apphub-writable) accepts the write instead, so that
// a test can seed what App Hub would have derived.

import (
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
)

// ignoreOutputOnly removes what App Hub treats as output only from a workload
// PATCH, unless the server accepts App Hub writes: the workload_properties
// paths (of maskPaths; "*" has named them too) and the body's
// workloadProperties. It reports whether the request named anything it
// removed.
func (s *State) ignoreOutputOnly(paths []string, in *resource.Workload) ([]string, bool) {
	if s.opts.AppHubWritable {
		return paths, false
	}
	ignored := in.WorkloadProperties != nil
	in.WorkloadProperties = nil
	kept := make([]string, 0, len(paths))
	for _, p := range paths {
		if strings.HasPrefix(p, "workload_properties") {
			ignored = true
			continue
		}
		kept = append(kept, p)
	}
	return kept, ignored
}

// ignoredOnlyNotFound answers a PATCH of a missing workload that named only
// output-only fields: after ignoring them there is nothing to create.
func ignoredOnlyNotFound(name string) error {
	return errNotFound("Workload %q was not found, and this update names only workloadProperties, which App Hub "+
		"derives itself (output only: ignored, as Google's App Hub does), so there is nothing to create. "+
		"Start the server with -apphub-writable to seed what App Hub would derive.", name)
}
