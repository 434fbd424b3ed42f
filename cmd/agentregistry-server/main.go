// Command agentregistry-server runs the bundled Agent Registry server: a local,
// persistent implementation of the Google Agent Registry v1 and App Hub v1
// subset that the provider uses.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "agentregistry-server:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("agentregistry-server", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:8787", "address to listen on (host:port; port 0 picks a free port)")
	data := fs.String("data", "", "bbolt data file; empty keeps everything in memory")
	token := fs.String("token", "", "bearer token required on every request (default $AGENTREGISTRY_SERVER_TOKEN; empty = no auth)")
	opDelay := fs.Duration("operation-delay", 0, "time a long-running operation stays done:false (e.g. 2s)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *token == "" {
		*token = os.Getenv("AGENTREGISTRY_SERVER_TOKEN")
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	srv, err := registryserver.New(registryserver.Options{
		Token: *token, DataPath: *data, OperationDelay: *opDelay, Logger: logger,
	})
	if err != nil {
		return err
	}
	defer srv.Close()

	// Listen before announcing, so the printed URL is already reachable and
	// carries the real port when -listen ends in :0.
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	fmt.Printf("agentregistry-server listening on http://%s\n", ln.Addr())

	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
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
