// Command agentregistry-server runs the bundled Agent Registry server: a local,
// persistent implementation of the Google Agent Registry v1 and App Hub v1
// subset that the provider uses.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

// tokenEnv holds the bearer token. It is the way to pass one: a flag's value
// is visible to every local user in ps and /proc.
const tokenEnv = "AGENTREGISTRY_SERVER_TOKEN"

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
	case err != nil:
		fmt.Fprintln(os.Stderr, "agentregistry-server:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) (err error) {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	srv, err := registryserver.New(registryserver.Options{
		Token: cfg.token, DataPath: cfg.data, OperationDelay: cfg.opDelay, Logger: logger,
		MaxInFlight: cfg.maxInFlight, SearchTimeout: cfg.searchTimeout, MaxUploads: cfg.maxUploads,
		AppHubWritable: cfg.appHubWritable,
	})
	if err != nil {
		return err
	}
	// Closing flushes and unlocks the data file: its error is the run's when
	// nothing failed before.
	defer func() {
		if cerr := srv.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("closing the data file: %w", cerr)
		}
	}()
	return serve(cfg, srv, logger, stdout)
}

// config is what the flags and the environment set.
type config struct {
	listen, data, token string
	opDelay             time.Duration
	// Timeouts and caps: a client that sends a request slowly, or never
	// reads its answer, or keeps an idle connection, must not hold the
	// server's resources for ever, and a flood must not queue without bound.
	readHeaderTimeout, readTimeout, writeTimeout, idleTimeout, searchTimeout time.Duration
	maxConns, maxInFlight, maxUploads                                        int
	appHubWritable                                                           bool
}

// parseFlags reads the command line, and the token from the environment
// when no flag gives one.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("agentregistry-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.listen, "listen", "127.0.0.1:8787", "address to listen on (host:port; port 0 picks a free port)")
	fs.StringVar(&c.data, "data", "", "bbolt data file; empty keeps everything in memory")
	fs.StringVar(&c.token, "token", "", "bearer token required on every request; prefer $"+tokenEnv+", since a flag's value shows in ps (default $"+tokenEnv+"; empty = no auth)")
	fs.DurationVar(&c.opDelay, "operation-delay", 0, "time a long-running operation stays done:false (e.g. 2s); a created resource is visible once it is done")
	fs.DurationVar(&c.readHeaderTimeout, "read-header-timeout", 5*time.Second, "time allowed to read a request's headers")
	fs.DurationVar(&c.readTimeout, "read-timeout", 10*time.Second, "time allowed to read a whole request, body included (bodies are at most 1 MiB, skill uploads 13.4 MiB)")
	fs.DurationVar(&c.writeTimeout, "write-timeout", 30*time.Second, "time allowed from the end of reading a request to the end of writing its response; keep it above -search-timeout")
	fs.DurationVar(&c.idleTimeout, "idle-timeout", 60*time.Second, "time an idle keep-alive connection stays open")
	fs.IntVar(&c.maxConns, "max-connections", 256, "most connections open at once; at the cap the connection idle the longest is closed for a new one, and when none is idle a new one waits to be accepted (0 = no cap)")
	fs.IntVar(&c.maxInFlight, "max-in-flight", 64, "most requests handled at once; further ones get 503 with Retry-After: 1 (0 = no cap)")
	fs.DurationVar(&c.searchTimeout, "search-timeout", 10*time.Second, "time allowed to evaluate one search or list filter before it fails with DEADLINE_EXCEEDED")
	fs.IntVar(&c.maxUploads, "max-uploads", 4, "most skill uploads (skill and revision creates, bodies of up to 13.4 MiB held in memory while checked) handled at once; further ones get 503 with Retry-After: 1 (at least 1)")
	fs.BoolVar(&c.appHubWritable, "apphub-writable", false, "accept writes of a workload's extendedMetadata (App Hub AgentProperties), to seed what App Hub would derive from a deployed agent; by default they are ignored and nothing is stored, as Google's App Hub does (the field is output only)")
	fs.Usage = func() {
		_, _ = fmt.Fprintf(fs.Output(), `Usage: agentregistry-server [flags]

Serves the Google Agent Registry v1 and App Hub v1 subset that the
terraform-provider-agentregistry provider uses, for local and CI tests.

Environment:
  %s  bearer token required on every request ("Authorization: Bearer <token>").
      Use it rather than -token: the value of a flag is visible to other users in ps.

Flags:
`, tokenEnv)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if c.token == "" {
		c.token = os.Getenv(tokenEnv)
	}
	if c.maxUploads < 1 {
		return c, fmt.Errorf("-max-uploads is %d; it must be at least 1 (uploads are always capped: each holds its body in memory)", c.maxUploads)
	}
	return c, nil
}

// serve listens, says where, and serves srv until the listener fails or
// SIGINT or SIGTERM asks for a shutdown.
func serve(cfg config, srv http.Handler, logger *slog.Logger, stdout io.Writer) error {
	// Listen before announcing, so the printed URL is already reachable and
	// carries the real port when -listen ends in :0.
	ln, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		return err
	}
	var capped *capListener
	if cfg.maxConns > 0 {
		capped = newCapListener(ln, cfg.maxConns)
		ln = capped
	}
	// Scripts and tests wait for this line to learn the address.
	if _, err := fmt.Fprintf(stdout, "agentregistry-server listening on http://%s\n", ln.Addr()); err != nil {
		return err
	}

	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: cfg.readHeaderTimeout,
		ReadTimeout:       cfg.readTimeout,
		WriteTimeout:      cfg.writeTimeout,
		IdleTimeout:       cfg.idleTimeout,
	}
	if capped != nil {
		hs.ConnState = capped.connState
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return hs.Shutdown(sctx)
}
