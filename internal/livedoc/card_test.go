package livedoc

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

const testCard = `{"name":"weather","url":"https://agent.example/a2a"}`

// The servers are livedoctest's, shared with the provider's acceptance tests.
var (
	serve    = livedoctest.Serve
	jsonBody = livedoctest.JSON
)

func fetchErr(t *testing.T, url string, opts Options) string {
	t.Helper()
	card, err := FetchAgentCard(context.Background(), url, opts)
	if err == nil {
		t.Fatalf("FetchAgentCard(%s) = %q, want an error", url, card.Body)
	}
	return err.Error()
}

// transportOf is the transport of srv's client, which trusts its certificate.
func transportOf(t *testing.T, srv *httptest.Server) *http.Transport {
	t.Helper()
	tr, ok := srv.Client().Transport.(*http.Transport)
	if !ok {
		t.Fatalf("the test server's client has a %T", srv.Client().Transport)
	}
	return tr
}

var wantContains = livedoctest.WantContains

func TestFetchAgentCardWellKnown(t *testing.T) {
	srv := serve(t, map[string]http.HandlerFunc{wellKnownCard: jsonBody(testCard)})
	card, err := FetchAgentCard(context.Background(), srv.URL, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if string(card.Body) != testCard || card.URL != srv.URL+wellKnownCard ||
		card.ETag != `"v1"` || card.ContentType != "application/json" {
		t.Errorf("got %+v", card)
	}
}

func TestFetchAgentCardFallsBackToA2A02(t *testing.T) {
	srv := serve(t, map[string]http.HandlerFunc{wellKnownCardV02: jsonBody(testCard)})
	card, err := FetchAgentCard(context.Background(), srv.URL+"/", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if card.URL != srv.URL+wellKnownCardV02 {
		t.Errorf("URL = %s, want the 0.2 location", card.URL)
	}
}

func TestFetchAgentCardNeitherLocation(t *testing.T) {
	srv := serve(t, nil)
	wantContains(t, fetchErr(t, srv.URL, Options{}),
		"no agent card at "+srv.URL, wellKnownCard, wellKnownCardV02, "404 Not Found")
}

func TestFetchAgentCardFullURLFetchedAsIs(t *testing.T) {
	var wellKnownHits atomic.Int32
	srv := serve(t, map[string]http.HandlerFunc{
		"/agents/weather/card": jsonBody(testCard),
		"/.well-known/":        func(http.ResponseWriter, *http.Request) { wellKnownHits.Add(1) },
	})
	card, err := FetchAgentCard(context.Background(), srv.URL+"/agents/weather/card", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if string(card.Body) != testCard || wellKnownHits.Load() != 0 {
		t.Errorf("body %q, well-known hits %d", card.Body, wellKnownHits.Load())
	}
}

func TestFetchAgentCardNon2xx(t *testing.T) {
	srv := serve(t, map[string]http.HandlerFunc{wellKnownCard: func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	}})
	wantContains(t, fetchErr(t, srv.URL, Options{}),
		"GET "+srv.URL+wellKnownCard+" answered 500 Internal Server Error")
}

func TestFetchAgentCardRejectsNonJSON(t *testing.T) {
	srv := serve(t, map[string]http.HandlerFunc{
		"/html.json": func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = fmt.Fprint(w, "<html>login</html>")
		},
		"/text.json": func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			_, _ = fmt.Fprint(w, testCard)
		},
	})
	wantContains(t, fetchErr(t, srv.URL+"/html.json", Options{}),
		`content type "text/html"`, `not JSON (it starts "<html>login</html>")`)
	// A JSON body under a wrong content type is accepted: the validator judges it.
	if _, err := FetchAgentCard(context.Background(), srv.URL+"/text.json", Options{}); err != nil {
		t.Errorf("text/plain with a JSON body: %v", err)
	}
}

// redirectChain serves /r/N redirecting to /r/N-1 and /r/0 with the card.
func redirectChain(t *testing.T) *httptest.Server {
	return livedoctest.RedirectChain(t, jsonBody(testCard))
}

func TestFetchAgentCardRedirects(t *testing.T) {
	srv := redirectChain(t)
	card, err := FetchAgentCard(context.Background(), srv.URL+"/r/5", Options{})
	if err != nil {
		t.Fatalf("5 redirects: %v", err)
	}
	if card.URL != srv.URL+"/r/0" {
		t.Errorf("URL after redirects = %s", card.URL)
	}
	wantContains(t, fetchErr(t, srv.URL+"/r/6", Options{}),
		"refusing to follow more than 5 redirects", "started at "+srv.URL+"/r/6")
}

func TestFetchAgentCardRefusesHTTPSToHTTP(t *testing.T) {
	plain := serve(t, map[string]http.HandlerFunc{"/card.json": jsonBody(testCard)})
	tlsSrv := httptest.NewTLSServer(http.RedirectHandler(plain.URL+"/card.json", http.StatusFound))
	t.Cleanup(tlsSrv.Close)
	wantContains(t, fetchErr(t, tlsSrv.URL+"/card.json", Options{Transport: transportOf(t, tlsSrv)}),
		"refusing a redirect from https to http", tlsSrv.URL+"/card.json redirected to "+plain.URL)
}

func TestFetchAgentCardTLSErrors(t *testing.T) {
	srv := httptest.NewTLSServer(jsonBody(testCard))
	t.Cleanup(srv.Close)
	// The default transport does not trust httptest's self-signed certificate.
	wantContains(t, fetchErr(t, srv.URL+"/card.json", Options{}),
		"TLS error talking to "+srv.URL, "certificate signed by unknown authority")
	// Trusted, but the certificate names 127.0.0.1 and example.com, not localhost.
	local := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	wantContains(t, fetchErr(t, local+"/card.json", Options{Transport: transportOf(t, srv)}),
		"TLS error talking to "+local, "not localhost")
	if _, err := FetchAgentCard(context.Background(), srv.URL+"/card.json", Options{Transport: transportOf(t, srv)}); err != nil {
		t.Errorf("trusted server: %v", err)
	}
}

func TestFetchAgentCardOversize(t *testing.T) {
	var written atomic.Int64
	srv := serve(t, map[string]http.HandlerFunc{
		// No Content-Length: the body streams until the client hangs up.
		"/stream.json": livedoctest.Endless(256<<20, &written),
		"/declared.json": func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Length", fmt.Sprint(MaxCardBytes+1))
			_, _ = w.Write([]byte("{"))
		},
	})
	// A declared length over the limit is refused before reading.
	wantContains(t, fetchErr(t, srv.URL+"/declared.json", Options{}), "over the 1048576-byte (1 MiB) limit")
	wantContains(t, fetchErr(t, srv.URL+"/stream.json", Options{}),
		"agent card at "+srv.URL+"/stream.json is over the 1048576-byte (1 MiB) limit; stopped reading")
	srv.Close() // waits for the handler, which ends when the client hung up
	if w := written.Load(); w >= 64<<20 {
		t.Errorf("the server wrote %d bytes: the client read far past the limit", w)
	}
}

func TestFetchAgentCardTimeout(t *testing.T) {
	srv := serve(t, map[string]http.HandlerFunc{"/slow.json": livedoctest.Stall(5 * time.Second)})
	start := time.Now()
	wantContains(t, fetchErr(t, srv.URL+"/slow.json", Options{Timeout: 100 * time.Millisecond}),
		"timed out after 100ms waiting for "+srv.URL+"/slow.json")
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s", d)
	}
}

const secret = "Bearer s3cret-token"

func TestFetchAgentCardHeadersStayOnTheStartingHost(t *testing.T) {
	var otherGot atomic.Value
	other := serve(t, map[string]http.HandlerFunc{"/card.json": func(w http.ResponseWriter, r *http.Request) {
		otherGot.Store(r.Header.Get("Authorization") + r.Header.Get("X-Api-Key"))
		jsonBody(testCard)(w, r)
	}})
	var start *httptest.Server
	start = serve(t, map[string]http.HandlerFunc{
		"/same": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, start.URL+"/card.json", http.StatusFound)
		},
		"/card.json": func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != secret || r.Header.Get("X-Api-Key") != "k" {
				http.Error(w, "no", http.StatusUnauthorized)
				return
			}
			jsonBody(testCard)(w, r)
		},
		"/cross": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/card.json", http.StatusFound)
		},
	})
	opts := Options{Headers: map[string]string{"Authorization": secret, "X-Api-Key": "k"}}
	if _, err := FetchAgentCard(context.Background(), start.URL+"/same", opts); err != nil {
		t.Errorf("same-host redirect lost the headers: %v", err)
	}
	if _, err := FetchAgentCard(context.Background(), start.URL+"/cross", opts); err != nil {
		t.Fatal(err)
	}
	if got := otherGot.Load(); got != "" {
		t.Errorf("the other host received %q", got)
	}
}

func TestFetchAgentCardErrorsNeverShowHeaders(t *testing.T) {
	srv := serve(t, map[string]http.HandlerFunc{"/card.json": func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "denied", http.StatusForbidden)
	}})
	msg := fetchErr(t, srv.URL+"/card.json", Options{Headers: map[string]string{"Authorization": secret}})
	wantContains(t, msg, "403 Forbidden")
	if strings.Contains(msg, "s3cret") {
		t.Errorf("message shows the header: %s", msg)
	}
}

func TestFetchAgentCardNeverFollowsTheCardsURLs(t *testing.T) {
	var hits atomic.Int32
	inner := serve(t, map[string]http.HandlerFunc{"/": func(http.ResponseWriter, *http.Request) { hits.Add(1) }})
	card := fmt.Sprintf(`{"name":"x","url":%q,"supportedInterfaces":[{"url":%q}]}`, inner.URL, inner.URL+"/.well-known/agent-card.json")
	srv := serve(t, map[string]http.HandlerFunc{wellKnownCard: jsonBody(card)})
	if _, err := FetchAgentCard(context.Background(), srv.URL, Options{}); err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 0 {
		t.Errorf("a URL from the card was fetched %d times", hits.Load())
	}
}

func TestFetchAgentCardRejectsBadURLs(t *testing.T) {
	wantContains(t, fetchErr(t, "ftp://example.com/card.json", Options{}),
		"invalid URL ftp://example.com/card.json: expected an absolute http:// or https:// URL")
	wantContains(t, fetchErr(t, "/relative", Options{}), "expected an absolute")
}

// A body that echoes the request's credential is quoted blanked, the part of
// it that the 64-byte excerpt cuts included.
func TestFetchAgentCardBlanksAnEchoedHeader(t *testing.T) {
	const token = "Bearer 0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ" // cut by the 64-byte excerpt
	srv := serve(t, map[string]http.HandlerFunc{"/card.json": func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("debug: you sent " + r.Header.Get("Authorization") + " and nothing else"))
	}})
	msg := fetchErr(t, srv.URL+"/card.json", Options{Headers: map[string]string{"Authorization": token}})
	wantContains(t, msg, `it starts "debug: you sent (a value of headers)..."`)
	if strings.Contains(msg, "0123") {
		t.Errorf("the error shows the token: %s", msg)
	}
}

// Headers go to the origin of url only: not to the same host and port
// reached over another scheme.
func TestFetchAgentCardHeadersStayOnTheOrigin(t *testing.T) {
	var got atomic.Value
	dual := livedoctest.ServeBothSchemes(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil {
			http.Redirect(w, r, "https://"+r.Host+"/card.json", http.StatusFound)
			return
		}
		got.Store(r.Header.Get("Authorization"))
		jsonBody(testCard)(w, r)
	}))
	opts := Options{Headers: map[string]string{"Authorization": secret}, Transport: dual.Transport()}
	if _, err := FetchAgentCard(context.Background(), dual.HTTPURL+"/card.json", opts); err != nil {
		t.Fatal(err)
	}
	if v, _ := got.Load().(string); v != "" {
		t.Errorf("https on the same host and port received Authorization %q", v)
	}
}

// Every 2xx status carries the card.
func TestFetchAgentCardAny2xx(t *testing.T) {
	srv := serve(t, map[string]http.HandlerFunc{"/card.json": func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(299)
		_, _ = io.WriteString(w, testCard)
	}})
	if _, err := FetchAgentCard(context.Background(), srv.URL+"/card.json", Options{}); err != nil {
		t.Errorf("a card answered 299: %v", err)
	}
}

// A card of exactly MaxCardBytes is read, whether its length is declared or
// it is streamed.
func TestFetchAgentCardOfExactlyTheLimit(t *testing.T) {
	card := testCard + strings.Repeat(" ", MaxCardBytes-len(testCard))
	srv := serve(t, map[string]http.HandlerFunc{
		"/declared.json": func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", fmt.Sprint(len(card)))
			_, _ = io.WriteString(w, card)
		},
		"/streamed.json": func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, card[:10])
			_ = http.NewResponseController(w).Flush() // no Content-Length: chunked
			_, _ = io.WriteString(w, card[10:])
		},
	})
	for _, path := range []string{"/declared.json", "/streamed.json"} {
		got, err := FetchAgentCard(context.Background(), srv.URL+path, Options{})
		if err != nil || len(got.Body) != MaxCardBytes {
			t.Errorf("%s: %v", path, err)
		}
	}
}

// A body served as JSON is returned as it is: whether it is a valid card
// is the validator's to say, with its own messages.
func TestFetchAgentCardLeavesJSONToTheValidator(t *testing.T) {
	for _, ct := range []string{"application/json", "application/a2a+json; charset=utf-8"} {
		srv := serve(t, map[string]http.HandlerFunc{"/card.json": livedoctest.Typed(ct, "{not json")})
		got, err := FetchAgentCard(context.Background(), srv.URL+"/card.json", Options{})
		if err != nil || string(got.Body) != "{not json" || got.ContentType != ct {
			t.Errorf("%s: %+v, %v", ct, got, err)
		}
	}
}
