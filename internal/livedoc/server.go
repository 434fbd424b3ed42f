package livedoc

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// server is how a read reaches an MCP server: over HTTP (httpServer, which
// carries OAuth) or as a process it started (processServer). The read speaks
// MCP through transport() and asks the server's side, when the SDK's error
// says less than it knows, what happened.
type server interface {
	// describe is the server as messages name it.
	describe() string
	// transport is the SDK's transport to the server.
	transport() mcp.Transport
	// connected is told the protocol version the handshake agreed on.
	connected(version string)
	// stopped is why the read stopped, when that side stopped it (a refused
	// destination, the OAuth flow, a bound of what the server sends); nil
	// when it did not.
	stopped(err error) error
	// aside is what an error quoting the server's JSON-RPC errors adds ("",
	// or the end of a process's stderr).
	aside() string
	// failed explains a failure of step that nothing else explained (an
	// answer no MCP server gives, a process that exited); nil when that side
	// has nothing to say.
	failed(step string) error
}
