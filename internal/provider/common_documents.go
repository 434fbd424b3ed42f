package provider

// How configured values and documents compare with the registry's copy, for
// every resource: what counts as drift and what as the same value; a
// document's canonical form, made once per read; the warnings of planned
// documents.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsondoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

// refreshString keeps a null (or empty) prior value when the API answers ""
// (it omits empty strings), and otherwise takes the API's value.
func refreshString(prior types.String, api string) types.String {
	if api == "" && (prior.IsNull() || prior.ValueString() == "") {
		return prior
	}
	return types.StringValue(api)
}

// optionalString is null for "" (the API omits empty strings), else the string.
func optionalString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// documentWarnings reports the warnings of the planned documents that are known.
func documentWarnings(ctx context.Context, plan tfsdk.Plan, documents map[string]validators.Document) diag.Diagnostics {
	var diags diag.Diagnostics
	for name, d := range documents {
		var doc jsondoc.Value
		diags.Append(plan.GetAttribute(ctx, path.Root(name), &doc)...)
		if !doc.IsNull() && !doc.IsUnknown() {
			diags.Append(d.Warnings(path.Root(name), doc.ValueString())...)
		}
	}
	return diags
}

// refreshDocument keeps the prior document byte for byte when the registry's
// copy (held) is the same document as stored (it re-orders keys, re-encodes
// numbers, and keeps numbers as doubles), and otherwise takes the registry's
// copy, so that the next plan shows the drift; with no prior document (an
// import, a list result), in the form generated configuration evaluates to.
// It also returns the RFC 8785 form of the document it returns when that is
// held's (nil otherwise), so that a check of the result need not make it again.
func refreshDocument(prior jsondoc.Value, held canonicalDocument) (jsondoc.Value, []byte) {
	api := held.raw
	if len(api) == 0 || string(api) == "null" {
		return jsondoc.NewNull(), nil
	}
	if !prior.IsNull() && !prior.IsUnknown() {
		if held.storedEqual([]byte(prior.ValueString())) {
			return prior, held.canonical
		}
	} else if gen, err := generatedConfigForm(api); err == nil {
		// Nothing stored yet (an import, a list result): the form generated
		// configuration evaluates to (common_generated_documents.go), whose
		// strings Terraform normalises: not held's canonical form.
		return jsondoc.NewValue(string(gen)), nil
	}
	if norm, err := spec.Normalize(api); err == nil {
		return jsondoc.NewValue(string(norm)), held.canonical // the same value, numbers as the registry wrote them
	}
	return jsondoc.NewValue(string(api)), nil
}

// canonicalDocument is a document with its RFC 8785 form, made once and
// reused by whatever digests, compares or verifies it. canonical is nil for a
// document that has none (not JSON, or a number beyond the range of doubles):
// every use then decides as it would on the document itself.
type canonicalDocument struct {
	raw, canonical []byte
}

// canonicalize makes a document's RFC 8785 form.
func canonicalize(doc []byte) canonicalDocument {
	if len(doc) == 0 {
		return canonicalDocument{}
	}
	canonical, err := jsoncanon.Canonical(doc)
	if err != nil {
		return canonicalDocument{raw: doc}
	}
	return canonicalDocument{raw: doc, canonical: canonical}
}

// digest is the SHA-256 (hex) of the document's RFC 8785 form, in which the
// registry's copy of a document has the same bytes as the copy sent (keys
// sorted, numbers as the doubles the registry keeps); "" for a document that
// has none.
func (d canonicalDocument) digest() string {
	if d.canonical == nil {
		return ""
	}
	sum := sha256.Sum256(d.canonical)
	return hex.EncodeToString(sum[:])
}

// storedEqual reports whether other is the same document as d once the
// registry stores it (jsoncanon.StoredEqual, with d's form made once).
func (d canonicalDocument) storedEqual(other []byte) bool {
	if d.canonical == nil {
		return false
	}
	canonical, err := jsoncanon.Canonical(other)
	return err == nil && bytes.Equal(canonical, d.canonical)
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
