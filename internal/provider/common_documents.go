package provider

// How configured values and documents compare with the registry's copy, for
// every resource: what counts as drift and what as the same value.

import (
	"crypto/sha256"
	"encoding/hex"

	"strings"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsondoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// refreshString keeps a null (or empty) prior value when the API answers ""
// (it omits empty strings), and otherwise takes the API's value.
func refreshString(prior types.String, api string) types.String {
	if api == "" && (prior.IsNull() || prior.ValueString() == "") {
		return prior
	}
	return types.StringValue(api)
}

// refreshDocument keeps the prior document byte for byte when the registry's
// copy is the same document as stored (it re-orders keys, re-encodes numbers,
// and keeps numbers as doubles), and otherwise takes the registry's copy, so
// that the next plan shows the drift; with no prior document (an import, a
// list result), in the form generated configuration evaluates to.
func refreshDocument(prior jsondoc.Value, api []byte) jsondoc.Value {
	if len(api) == 0 || string(api) == "null" {
		return jsondoc.NewNull()
	}
	if !prior.IsNull() && !prior.IsUnknown() {
		if same, err := jsoncanon.StoredEqual([]byte(prior.ValueString()), api); err == nil && same {
			return prior
		}
	} else if gen, err := generatedConfigForm(api); err == nil {
		// Nothing stored yet (an import, a list result): the form generated
		// configuration evaluates to (common_generated_documents.go).
		return jsondoc.NewValue(string(gen))
	}
	if norm, err := spec.Normalize(api); err == nil {
		return jsondoc.NewValue(string(norm))
	}
	return jsondoc.NewValue(string(api))
}

// compactDocument is the normalised, compact form of a document, as sent to the registry.
func compactDocument(doc jsondoc.Value) ([]byte, error) {
	return spec.Normalize([]byte(doc.ValueString()))
}

// sameString compares two planned/state strings as the API sees them (null and "" alike).
func sameString(a, b types.String) bool {
	if a.IsUnknown() || b.IsUnknown() {
		return false
	}
	return a.ValueString() == b.ValueString()
}

// sameDocument compares two documents semantically; unknown is never the same.
func sameDocument(a, b jsondoc.Value) bool {
	if a.IsUnknown() || b.IsUnknown() {
		return false
	}
	if a.IsNull() || b.IsNull() {
		return a.IsNull() == b.IsNull()
	}
	return jsondoc.SemanticallyEqual(a.ValueString(), b.ValueString())
}

// lastSegment returns what follows the last "/".
func lastSegment(name string) string {
	return name[strings.LastIndex(name, "/")+1:]
}

// documentDigest is the SHA-256 (hex) of a document's RFC 8785 form, in
// which the registry's copy of a document has the same bytes as the copy
// sent (keys sorted, numbers as the doubles the registry keeps); "" for a
// document that does not parse.
func documentDigest(doc []byte) string {
	canonical, err := jsoncanon.Canonical(doc)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}
