package livedoc

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/quote"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// maxKeptErrorBytes bounds what is kept of a JSON-RPC error's message and
// data until an error quotes them.
const maxKeptErrorBytes = 8 << 10

// wireError is a JSON-RPC error the server sent, with the method it
// answered; message and data are kept up to maxKeptErrorBytes.
type wireError struct {
	method  string
	code    int64
	message string
	data    []byte
}

func newWireError(method string, e *jsonrpc.Error) wireError {
	w := wireError{method: method, code: e.Code, message: e.Message}
	if len(w.message) > maxKeptErrorBytes {
		w.message = w.message[:maxKeptErrorBytes]
	}
	var compact bytes.Buffer
	if json.Compact(&compact, e.Data) == nil { // what compacts is not empty
		w.data = compact.Bytes()[:min(compact.Len(), maxKeptErrorBytes)]
	}
	return w
}

// quoted is "<method> with JSON-RPC error <code>: <message> (data: <data>)".
func (w wireError) quoted(s *redact.Secrets) string {
	q := fmt.Sprintf("%s with JSON-RPC error %d: %s", w.method, w.code, quote.Excerpt(s, w.message, quote.MaxRunes))
	if len(w.data) > 0 {
		q += " (data: " + quote.Excerpt(s, string(w.data), quote.MaxRunes) + ")"
	}
	return q
}
