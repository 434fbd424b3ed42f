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
	fs := flag.NewFlagSet("agentregistry-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:8787", "address to listen on (host:port; port 0 picks a free port)")
	data := fs.String("data", "", "bbolt data file; empty keeps everything in memory")
	token := fs.String("token", "", "bearer token required on every request; prefer $"+tokenEnv+", since a flag's value shows in ps (default $"+tokenEnv+"; empty = no auth)")
	opDelay := fs.Duration("operation-delay", 0, "time a long-running operation stays done:false (e.g. 2s); a created resource is visible once it is done")
	// Timeouts and caps: a client that sends a request slowly, or never reads
	// its answer, or keeps an idle connection, must not hold the server's
	// resources for ever, and a flood must not queue without bound.
	readHeaderTimeout := fs.Duration("read-header-timeout", 5*time.Second, "time allowed to read a request's headers")
	readTimeout := fs.Duration("read-timeout", 10*time.Second, "time allowed to read a whole request, body included (bodies are at most 1 MiB, skill uploads 13.4 MiB)")
	writeTimeout := fs.Duration("write-timeout", 30*time.Second, "time allowed from the end of reading a request to the end of writing its response; keep it above -search-timeout")
	idleTimeout := fs.Duration("idle-timeout", 60*time.Second, "time an idle keep-alive connection stays open")
	maxConns := fs.Int("max-connections", 256, "most connections open at once; at the cap the connection idle the longest is closed for a new one, and when none is idle a new one waits to be accepted (0 = no cap)")
	maxInFlight := fs.Int("max-in-flight", 64, "most requests handled at once; further ones get 503 with Retry-After: 1 (0 = no cap)")
	searchTimeout := fs.Duration("search-timeout", 10*time.Second, "time allowed to evaluate one search or list filter before it fails with DEADLINE_EXCEEDED")
	maxUploads := fs.Int("max-uploads", 4, "most skill uploads (skill and revision creates, bodies of up to 13.4 MiB held in memory while checked) handled at once; further ones get 503 with Retry-After: 1 (at least 1)")
	appHubWritable := fs.Bool("apphub-writable", false, "accept writes of a workload's extendedMetadata (App Hub AgentProperties), to seed what App Hub would derive from a deployed agent; by default they are ignored and nothing is stored, as Google's App Hub does (the field is output only)")
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
		return err
	}
	if *token == "" {
		*token = os.Getenv(tokenEnv)
	}
	if *maxUploads < 1 {
		return fmt.Errorf("-max-uploads is %d; it must be at least 1 (uploads are always capped: each holds its body in memory)", *maxUploads)
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	srv, err := registryserver.New(registryserver.Options{
		Token: *token, DataPath: *data, OperationDelay: *opDelay, Logger: logger,
		MaxInFlight: *maxInFlight, SearchTimeout: *searchTimeout, MaxUploads: *maxUploads,
		AppHubWritable: *appHubWritable,
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

	// Listen before announcing, so the printed URL is already reachable and
	// carries the real port when -listen ends in :0.
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	var capped *capListener
	if *maxConns > 0 {
		capped = newCapListener(ln, *maxConns)
		ln = capped
	}
	// Scripts and tests wait for this line to learn the address.
	if _, err := fmt.Fprintf(stdout, "agentregistry-server listening on http://%s\n", ln.Addr()); err != nil {
		return err
	}

	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: *readHeaderTimeout,
		ReadTimeout:       *readTimeout,
		WriteTimeout:      *writeTimeout,
		IdleTimeout:       *idleTimeout,
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
