package spec

import "github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"

// Normalize returns the compact form of a document that is sent to the
// registry and stored in Result.Compact: jsoncanon.Compact (the RFC 8785
// form, numbers kept as written). Errors are *jsoncanon.Error, such as a
// duplicate key or invalid UTF-8.
func Normalize(doc []byte) ([]byte, error) { return jsoncanon.Compact(doc) }
