// Package stdio starts a program that serves MCP on its stdin and stdout, on
// this machine, and stops it: its environment (an allowlist, never the
// provider's credentials), its process group (killed with it), and bounded
// views of what it writes. It knows nothing of MCP's messages, nor of HTTP.
package stdio

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/quote"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

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
	// read's deadline has passed: a server that cleans up on SIGTERM (stops
	// a browser it started in a session of its own) gets to do it.
	termGrace = time.Second
	// maxQuotedArgs bounds the arguments of a command a message quotes.
	maxQuotedArgs = 16
)

// Command is a program started as a process that speaks MCP over its stdin
// and stdout. No shell is involved: Args[0] is the program (looked up in PATH
// when it has no slash) and the rest are its arguments.
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

// Check refuses a command that cannot be started as given.
func (c Command) Check() error {
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

// Describe is the command as messages show it: its arguments quoted as in
// HCL, at most 16 of them and 128 characters each, with secrets blanked.
func (c Command) Describe(s *redact.Secrets) string {
	parts := make([]string, 0, min(len(c.Args), maxQuotedArgs+1))
	for i, a := range c.Args {
		if i == maxQuotedArgs {
			parts = append(parts, fmt.Sprintf("... (%d more)", len(c.Args)-i))
			break
		}
		parts = append(parts, strconv.Quote(quote.Arg(s, a)))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Process is a running MCP server and the bounded views of its output.
type Process struct {
	cmd     *exec.Cmd
	stdin   *os.File
	stdout  *boundedStdout
	stderr  *tailBuffer
	exited  chan struct{} // closed when Wait returned
	waitErr error         // Wait's result, once exited is closed
	killed  sync.Once
	termed  sync.Once
}

// Start starts c in a process group of its own; a line it writes on stdout
// (a message of the stdio transport) may be at most maxLine bytes long. Its
// error says what could not start, with secrets blanked.
func Start(c Command, maxLine int, secrets *redact.Secrets) (*Process, error) {
	p, err := start(c, maxLine)
	if err != nil {
		return nil, startError(c, err, secrets)
	}
	return p, nil
}

// start makes the pipes here (not by exec.Cmd) so that Wait, run at once to
// learn of an early exit, never closes the stdout the SDK is still reading.
func start(c Command, maxLine int) (*Process, error) {
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
	p := &Process{cmd: cmd, stdin: inW, stderr: &tailBuffer{}, exited: make(chan struct{})}
	p.stdout = &boundedStdout{f: outR, maxLine: maxLine}
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
			"give its full path, or install it where Terraform runs", c.Describe(secrets), strconv.Quote(quote.Arg(secrets, c.Args[0])))
	}
	return fmt.Errorf("cannot start the MCP server %s: %v", c.Describe(secrets), err)
}

// Stdin is the server's stdin; Stdout its stdout, bounded.
func (p *Process) Stdin() io.WriteCloser { return p.stdin }

// Stdout is the server's stdout, which fails a read past MaxStdoutBytes in
// all or past the longest line (OverLimit says which).
func (p *Process) Stdout() io.ReadCloser { return p.stdout }

// OverLimit says what went over a bound of stdout ("" when nothing did).
func (p *Process) OverLimit() string { return p.stdout.overLimit() }

// kill ends the whole process group at once.
func (p *Process) kill() { p.killed.Do(func() { killProcessGroup(p.cmd) }) }

// Terminate closes the server's stdin and sends SIGTERM to its process group.
func (p *Process) Terminate() {
	p.termed.Do(func() {
		_ = p.stdin.Close() // asks the server to exit, as MCP's stdio transport does first
		terminateProcessGroup(p.cmd)
	})
}

// Stop ends the server as MCP's stdio transport specifies: close its stdin
// and wait for it to exit; then SIGTERM to its process group and wait; then
// SIGKILL to the group (children it started included) and reap it. Each wait
// is stopGrace, cut short by the read's deadline, except that a server
// always has termGrace after SIGTERM.
func (p *Process) Stop(deadline time.Time) {
	_ = p.stdin.Close() // asks the server to exit; closing it twice is harmless
	if !p.exitWithin(min(stopGrace, time.Until(deadline))) {
		p.Terminate()
		p.exitWithin(min(stopGrace, max(time.Until(deadline), termGrace)))
	}
	p.kill() // whatever remains of the group
	<-p.exited
	_ = p.stdout.f.Close() // our read end; every reader is done
}

// exitWithin waits at most d for the server to exit and says whether it did.
func (p *Process) exitWithin(d time.Duration) bool {
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

// ExitedEarly says how the process ended when it has (or does within a short
// moment), "" when it still runs.
func (p *Process) ExitedEarly() string {
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

// StderrNote quotes the end of the server's stderr for an error message,
// with the secrets blanked out (a server that complains about its token
// often prints it), the first bytes included: they may be the end of one
// that the tail cut.
func (p *Process) StderrNote(secrets *redact.Secrets) string {
	tail := strings.TrimSpace(quote.Lines(secrets, p.stderr.String()))
	if tail == "" {
		return "; it wrote nothing on stderr"
	}
	return fmt.Sprintf("; the end of its stderr:\n%s", tail)
}
