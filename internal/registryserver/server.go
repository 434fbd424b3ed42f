// Package registryserver is the bundled Agent Registry server: a real,
// persistent twin of the Google Agent Registry v1 REST API and of the App
// Hub v1 subset that the provider uses, wire-compatible with the generated
// clients in google.golang.org/api (agentregistry/v1, apphub/v1). Every
// method of both discovery documents is answered on purpose (routes.go):
// served, or refused with 501 UNIMPLEMENTED. It lets a module be tested end
// to end without a cloud account.
package registryserver

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/state"
)

// Options configure a Server.
type Options struct {
	// Token, when set, is required as "Authorization: Bearer <Token>" on every
	// request; otherwise requests are unauthenticated. It is never logged.
	Token string
	// DataPath is the bbolt file that holds the state; "" keeps it in memory.
	DataPath string
	// OperationDelay is how long a long-running operation reports done:false
	// before completing; a resource it creates is visible once it is done.
	// 0 returns operations that are already done.
	OperationDelay time.Duration
	// Logger receives one line per request (method, path, status, duration).
	// nil discards.
	Logger *slog.Logger
	// Now is the clock, for operation times and the expiry of operations and
	// request ids; nil is time.Now.
	Now func() time.Time
	// MaxInFlight caps the requests handled at once; past it a request is
	// answered 503 UNAVAILABLE with Retry-After: 1 at once (clients retry),
	// so that a flood costs neither memory nor a queue. 0 means no cap.
	MaxInFlight int
	// SearchTimeout bounds the evaluation of one search or list of derived
	// records; past it the request fails with DEADLINE_EXCEEDED. 0 selects
	// 10 seconds.
	SearchTimeout time.Duration
	// MaxUploads caps the skill and revision creates handled at once: each
	// holds its body and archive in memory while they are checked. Past it
	// a create is answered 503 UNAVAILABLE with Retry-After: 1. 0 selects 4.
	MaxUploads int
	// AppHubWritable accepts writes of a workload's extendedMetadata (the
	// AgentProperties entry), so that tests can seed what App Hub would derive
	// from a deployed agent. Off, the server answers as Google's App Hub does:
	// the field is output only, and a PATCH naming it stores nothing.
	AppHubWritable bool
}

// maxBodyBytes caps request bodies. A document is at most 10 KB; the cap
// leaves room for JSON escaping and the rest of the resource while keeping a
// hostile client from making the server buffer arbitrary amounts.
const maxBodyBytes = 1 << 20

// Server implements http.Handler. It is safe for concurrent use.
type Server struct {
	opts    Options
	log     *slog.Logger
	st      *state.State   // what the registry holds
	mux     *http.ServeMux // the routing table (routes.go)
	handler http.Handler   // the middleware (log, in-flight cap, token) around serve
}

// New returns a server, loading its state from Options.DataPath when set.
func New(opts Options) (*Server, error) {
	s := &Server{opts: opts, log: opts.Logger}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	st, err := state.Open(state.Options{DataPath: opts.DataPath, OperationDelay: opts.OperationDelay, Logger: s.log,
		Now: opts.Now, MaxUploads: opts.MaxUploads, AppHubWritable: opts.AppHubWritable})
	if err != nil {
		return nil, err
	}
	s.st = st
	s.mux = s.newRouter(slices.Clone(routes))
	s.handler = s.logRequests(s.limitInFlight(s.requireToken(http.HandlerFunc(s.serve))))
	return s, nil
}

// Close releases the data file. The server must not serve requests after.
func (s *Server) Close() error { return s.st.Close() }

// ServeHTTP authenticates the request and routes it. It keeps nothing of a
// request beyond its effect on the registry (the log line aside): a server
// that remembered requests could be made to grow without bound, even by
// clients without the token. Tests that need a request log or injected faults
// wrap the server (see package registryservertest).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// serve routes an accepted request, with the creates done by now applied.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.st.Settle()
	s.route(w, r)
}

// logRequests is the request log middleware: one line per request, every
// value clipped.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			s.log.Info("request", "method", state.Clip(r.Method), "path", state.Clip(r.URL.Path), "status", sw.status, "duration", time.Since(start))
		}()
		next.ServeHTTP(sw, r)
	})
}

// limitInFlight is the in-flight cap middleware: past Options.MaxInFlight
// requests a request is answered 503 at once.
func (s *Server) limitInFlight(next http.Handler) http.Handler {
	if s.opts.MaxInFlight <= 0 {
		return next
	}
	inFlight := make(chan struct{}, s.opts.MaxInFlight)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case inFlight <- struct{}{}:
			defer func() { <-inFlight }()
			next.ServeHTTP(w, r)
		default:
			s.writeError(w, &apiError{HTTP: http.StatusServiceUnavailable, Status: "UNAVAILABLE", RetryAfter: time.Second,
				Message: fmt.Sprintf("the server is handling %d requests, its limit; retry shortly", s.opts.MaxInFlight)})
		}
	})
}

// requireToken is the authentication middleware (Authorized).
func (s *Server) requireToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.Authorized(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="agentregistry-server"`)
			s.writeError(w, &apiError{HTTP: http.StatusUnauthorized, Status: "UNAUTHENTICATED",
				Message: "Request is missing a valid bearer token: send \"Authorization: Bearer <token>\" with the server's token."})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Authorized reports whether r carries the server's token (always true for a
// server without one), so that a handler wrapping the server can act only on
// requests the server accepts. The token is compared in constant time, so
// response timing does not reveal how much of a guessed token was right.
func (s *Server) Authorized(r *http.Request) bool {
	if s.opts.Token == "" {
		return true
	}
	h := r.Header.Get("Authorization")
	const prefix = "bearer "
	if len(h) < len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		return false
	}
	got := strings.TrimSpace(h[len(prefix):])
	return subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.Token)) == 1
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (for hijacking).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// readJSON decodes a request body into v. Unknown fields are rejected, as
// Google's front end does ("Invalid JSON payload received. Unknown name"),
// so a misspelt field fails here as it would against Google.
func readJSON(w http.ResponseWriter, r *http.Request, v any) error {
	return readJSONLimit(w, r, v, maxBodyBytes)
}

// readJSONLimit is readJSON with a body limit of its own, for the requests
// that carry an archive.
func readJSONLimit(w http.ResponseWriter, r *http.Request, v any, maxBodyBytes int64) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &apiError{HTTP: http.StatusRequestEntityTooLarge, Status: "OUT_OF_RANGE",
				Message: fmt.Sprintf("request body exceeds %d bytes", maxBodyBytes)}
		}
		return errInvalid("cannot read request body: %v", err)
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errInvalid("Invalid JSON payload received: %v", err)
	}
	if dec.More() {
		return errInvalid("Invalid JSON payload received: unexpected data after the JSON object")
	}
	// encoding/json keeps the last of repeated names, and other readers the
	// first: which value counts would depend on the reader, so refuse the
	// ambiguity rather than pick one. It also replaces invalid UTF-8 with
	// U+FFFD without a word: refuse that too, rather than store other text.
	if _, err := jsoncanon.Decode(body); err != nil {
		var je *jsoncanon.Error
		if errors.As(err, &je) && errors.Is(err, jsoncanon.ErrDuplicateKey) {
			return errInvalid("Invalid JSON payload received: the name %s appears more than once in its object", je.Pointer)
		}
		return errInvalid("Invalid JSON payload received: %v", err)
	}
	return nil
}
