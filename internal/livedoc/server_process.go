package livedoc

// The stdio transport of a read of tools: a server this read started as a
// process (stdio), spoken to over its stdin and stdout.

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/stdio"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// processServer is an MCP server running as a process of this read.
type processServer struct {
	target  string
	proc    *stdio.Process
	clock   clock
	secrets *redact.Secrets
}

func newProcessServer(c stdio.Command, proc *stdio.Process, clk clock, secrets *redact.Secrets) *processServer {
	return &processServer{target: c.Describe(secrets) + " (run as a process)", proc: proc, clock: clk, secrets: secrets}
}

func (s *processServer) describe() string { return s.target }

func (s *processServer) transport() mcp.Transport {
	return &mcp.IOTransport{Reader: s.proc.Stdout(), Writer: s.proc.Stdin(), MaxLineLength: MaxResponseBytes + 1}
}

func (s *processServer) connected(string) {}

// stopped: the process wrote over a bound of its stdout.
func (s *processServer) stopped(error) error {
	if over := s.proc.OverLimit(); over != "" {
		return fmt.Errorf("the MCP server %s wrote %s on stdout; stopped it%s", s.target, over, s.proc.StderrNote(s.secrets))
	}
	return nil
}

func (s *processServer) aside() string { return s.proc.StderrNote(s.secrets) }

// failed says what the process did: it did not answer in time, or exited.
func (s *processServer) failed(step string) error {
	if s.clock.parent.Err() == nil && s.clock.deadlinePassed() {
		return fmt.Errorf("the MCP server %s did not answer %s within %s; stopped it%s", s.target, step, s.clock.timeout,
			s.proc.StderrNote(s.secrets))
	}
	if how := s.proc.ExitedEarly(); how != "" {
		return fmt.Errorf("the MCP server %s %s before answering %s%s", s.target, how, step, s.proc.StderrNote(s.secrets))
	}
	return nil
}
