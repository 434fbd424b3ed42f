package livedoc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// Bounds of an MCP server run as a process (the stdio transport), beside
// those shared with HTTP (MaxResponseBytes per message, MaxCollectedBytes,
// MaxPages, the timeout).
const (
	// MaxStdoutBytes bounds everything the process writes on stdout: a server
	// that writes without end (notifications, say) is stopped there rather
	// than read until the timeout.
	MaxStdoutBytes = 32 << 20
	// StderrTailBytes is how much of the end of the process's stderr is kept
	// to quote in errors; the rest is read and dropped.
	StderrTailBytes = 2048
	// stopGrace is how long a server has to exit once its stdin is closed,
	// and again once its process group got SIGTERM, before the next step of
	// MCP's stdio shutdown (SIGTERM, then SIGKILL).
	stopGrace = 2 * time.Second
	// termGrace is the least time a server has after SIGTERM, even when the
	// fetch's deadline has passed: a server that cleans up on SIGTERM (stops
	// a browser it started in a session of its own) gets to do it.
	termGrace = time.Second
)

// Command is an MCP server started as a process that speaks MCP over its
// stdin and stdout. No shell is involved: Args[0] is the program (looked up
// in PATH when it has no slash) and the rest are its arguments.
type Command struct {
	Args []string
	// Env is added to the environment the server inherits (and overrides
	// it). Its values are treated as secrets: never shown in messages.
	Env map[string]string
	// InheritEnv names the variables of this process's environment the
	// server inherits besides DefaultInheritedEnv: names, or name prefixes
	// with one trailing "*". The provider's credentials (withheld) are never
	// inherited.
	InheritEnv []string
	// Dir is the working directory; empty means this process's.
	Dir string
}

func (c Command) check() error {
	if len(c.Args) == 0 || c.Args[0] == "" {
		return errors.New("the command is empty: expected the program and its arguments, such as [\"npx\", \"-y\", \"@modelcontextprotocol/server-memory\"]")
	}
	if err := CheckInheritEnv(c.InheritEnv); err != nil {
		return err
	}
	if c.Dir != "" {
		if fi, err := os.Stat(c.Dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("the working directory %q of the MCP server command is not a directory", c.Dir)
		}
	}
	return nil
}

// FetchToolSpecCommand starts the MCP server c, speaks MCP with it over its
// stdin and stdout, lists its tools following every nextCursor, and stops it
// and every process it started (its process group). All of it happens
// within the timeout; the result is shaped as FetchToolSpec shapes it. opts'
// Headers, Transport and SSE do not apply.
func FetchToolSpecCommand(ctx context.Context, c Command, opts ToolSpecOptions) (*ToolSpec, error) {
	secrets := secretsOf(opts.Options)
	for _, v := range c.Env {
		secrets.Add("a value of env", v)
	}
	ts, err := fetchToolSpecCommand(ctx, c, opts, secrets)
	return ts, secrets.Error(err)
}

func fetchToolSpecCommand(ctx context.Context, c Command, opts ToolSpecOptions, secrets *redact.Secrets) (*ToolSpec, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if err := opts.check(); err != nil {
		return nil, err
	}
	filter, err := newToolFilter(opts.IncludeTools, opts.ExcludeTools)
	if err != nil {
		return nil, err
	}
	f := &mcpFetch{parent: ctx, target: c.Describe(secrets) + " (run as a process)", timeout: opts.timeout(), started: time.Now(), secrets: secrets}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	proc, err := startServer(c)
	if err != nil {
		return nil, startError(c, err, secrets)
	}
	f.proc = proc
	defer proc.stop(f.started.Add(f.timeout))
	// When the deadline passes, the shutdown starts at once (stdin closed,
	// SIGTERM); stop then gives the group termGrace before SIGKILL.
	defer context.AfterFunc(ctx, proc.terminate)()
	f.tools = &rawToolsTransport{Transport: &mcp.IOTransport{Reader: proc.stdout, Writer: proc.stdin, MaxLineLength: MaxResponseBytes + 1}}
	session, err := mcp.NewClient(clientInfo(), nil).Connect(ctx, f.tools, &mcp.ClientSessionOptions{ProtocolVersion: offeredVersion})
	if err != nil {
		return nil, f.fail(handshake, err)
	}
	defer func() { _ = session.Close() }() // the tools are read; stop() ends the process whatever Close says
	return f.collect(ctx, session, filter, opts.DropOutputSchemas)
}

// serverProcess is a running MCP server and the bounded views of its output.
type serverProcess struct {
	cmd     *exec.Cmd
	stdin   *os.File
	stdout  *boundedStdout
	stderr  *tailBuffer
	exited  chan struct{} // closed when Wait returned
	waitErr error         // Wait's result, once exited is closed
	killed  sync.Once
	termed  sync.Once
}

// startServer starts c in a process group of its own, with pipes made here
// (not by exec.Cmd) so that Wait, run at once to learn of an early exit,
// never closes the stdout the SDK is still reading.
func startServer(c Command) (*serverProcess, error) {
	cmd := exec.Command(c.Args[0], c.Args[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = commandEnv(c.InheritEnv, c.Env)
	setProcessGroup(cmd)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, err
	}
	p := &serverProcess{cmd: cmd, stdin: inW, stderr: &tailBuffer{}, exited: make(chan struct{})}
	p.stdout = &boundedStdout{f: outR}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, p.stderr
	// Wait stops copying stderr this long after the process exits, when a
	// child it left behind still holds the pipe.
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	closeAll(inR, outW) // the child's ends: ours would keep the pipes open after it exits
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close() // a pipe end of our own, never written to disk
	}
}

func startError(c Command, err error, secrets *redact.Secrets) error {
	if errors.Is(err, exec.ErrNotFound) {
		return fmt.Errorf("cannot start the MCP server %s: the program %s was not found in PATH; "+
			"give its full path, or install it where Terraform runs", c.Describe(secrets), quoteArg(secrets, c.Args[0]))
	}
	return fmt.Errorf("cannot start the MCP server %s: %v", c.Describe(secrets), err)
}

// kill ends the whole process group at once.
func (p *serverProcess) kill() { p.killed.Do(func() { killProcessGroup(p.cmd) }) }

// terminate closes the server's stdin and sends SIGTERM to its process group.
func (p *serverProcess) terminate() {
	p.termed.Do(func() {
		_ = p.stdin.Close() // asks the server to exit, as MCP's stdio transport does first
		terminateProcessGroup(p.cmd)
	})
}

// stop ends the server as MCP's stdio transport specifies: close its stdin
// and wait for it to exit; then SIGTERM to its process group and wait; then
// SIGKILL to the group (children it started included) and reap it. Each wait
// is stopGrace, cut short by the fetch's deadline, except that a server
// always has termGrace after SIGTERM.
func (p *serverProcess) stop(deadline time.Time) {
	_ = p.stdin.Close() // asks the server to exit; closing it twice is harmless
	if !p.exitWithin(min(stopGrace, time.Until(deadline))) {
		p.terminate()
		p.exitWithin(min(stopGrace, max(time.Until(deadline), termGrace)))
	}
	p.kill() // whatever remains of the group
	<-p.exited
	_ = p.stdout.f.Close() // our read end; every reader is done
}

// exitWithin waits at most d for the server to exit and says whether it did.
func (p *serverProcess) exitWithin(d time.Duration) bool {
	if d <= 0 {
		select {
		case <-p.exited:
			return true
		default:
			return false
		}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// exitedEarly says how the process ended when it has (or does within a short
// moment), "" when it still runs.
func (p *serverProcess) exitedEarly() string {
	select {
	case <-p.exited:
	case <-time.After(200 * time.Millisecond):
		return ""
	}
	if p.waitErr == nil {
		return "exited with status 0"
	}
	var ee *exec.ExitError
	if errors.As(p.waitErr, &ee) {
		return "exited (" + ee.String() + ")"
	}
	return "ended: " + p.waitErr.Error()
}

// stderrNote quotes the end of the server's stderr for an error message,
// with the secrets blanked out (a server that complains about its token
// often prints it), the first bytes included: they may be the end of one
// that the tail cut.
func (p *serverProcess) stderrNote(secrets *redact.Secrets) string {
	tail := strings.TrimSpace(multiline(secrets, p.stderr.String()))
	if tail == "" {
		return "; it wrote nothing on stderr"
	}
	return fmt.Sprintf("; the end of its stderr:\n%s", tail)
}

// explain turns an error of the given MCP step into one that says what the
// process did: wrote too much, did not answer in time, or exited.
func (p *serverProcess) explain(f *mcpFetch, step string) error {
	if f.parent.Err() == nil && f.deadlinePassed() {
		return fmt.Errorf("the MCP server %s did not answer %s within %s; stopped it%s", f.target, step, f.timeout, p.stderrNote(f.secrets))
	}
	if how := p.exitedEarly(); how != "" {
		return fmt.Errorf("the MCP server %s %s before answering %s%s", f.target, how, step, p.stderrNote(f.secrets))
	}
	return nil
}
