package tooltext

import (
	"strconv"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// resolvePointer follows an RFC 6901 pointer in a value decoded by
// encoding/json, independently of the package's own walk.
func resolvePointer(v any, pointer string) (any, bool) {
	for _, tok := range jsoncanon.SplitPointer(pointer) {
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[tok]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) || strconv.Itoa(i) != tok {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}
