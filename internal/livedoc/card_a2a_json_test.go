package livedoc

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// negotiating serves testCard as application/a2a+json to a request that
// accepts it, and refuses with 406 one that does not, as an A2A 1.0.1 agent
// that serves only the media type its HTTP binding prefers does.
func negotiating(w http.ResponseWriter, r *http.Request) {
	if !strings.Contains(r.Header.Get("Accept"), "application/a2a+json") {
		http.Error(w, "not acceptable: application/a2a+json only", http.StatusNotAcceptable)
		return
	}
	w.Header().Set("Content-Type", "application/a2a+json; charset=utf-8")
	_, _ = w.Write([]byte(testCard))
}

func TestFetchAgentCardAsA2AJSON(t *testing.T) {
	srv := serve(t, map[string]http.HandlerFunc{wellKnownCard: negotiating})
	card, err := FetchAgentCard(context.Background(), srv.URL, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if string(card.Body) != testCard || card.ContentType != "application/a2a+json; charset=utf-8" {
		t.Errorf("card %s as %q", card.Body, card.ContentType)
	}
}

func TestFetchAgentCardA2AJSONThatIsNotJSON(t *testing.T) {
	srv := serve(t, map[string]http.HandlerFunc{wellKnownCard: func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html>"))
	}})
	_, err := FetchAgentCard(context.Background(), srv.URL, Options{})
	if err == nil {
		t.Fatal("want an error")
	}
	wantContains(t, err.Error(), `content type "text/html"`, "expected the agent card as application/a2a+json or application/json")
}
