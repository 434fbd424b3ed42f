package registryclient

import (
	"crypto/rand"
	"fmt"
)

// NewRequestID returns a random (version 4) UUID for the requestId idempotency
// key of a create, patch or delete. Generate it once per logical operation and
// reuse it for every retry of that operation.
func NewRequestID() string {
	var b [16]byte
	// crypto/rand.Read never returns an error (Go 1.24+); it panics on failure.
	_, _ = rand.Read(b[:])
	b[6] = (b[6] & 0x0f) | 0x40 // version 4
	b[8] = (b[8] & 0x3f) | 0x80 // RFC 4122 variant
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
