package registryserver

// Issue 34: the third hostile probe's findings, one test each (the
// connection cap's is in cmd/agentregistry-server).

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Finding 1: with -data and -operation-delay, a skill created with its
// first revision keeps that revision's archive (on main it was deleted as
// soon as the request returned, since the revision counted as committed
// only once its delayed operation was done); and a start that finds a
// revision without its archive refuses to serve, naming it.
func TestDelayedSkillCreateKeepsItsArchive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	srv, err := New(Options{DataPath: path, OperationDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	create := `{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE","initialRevision":` + revisionBody(t, "first") + `}`
	if w := do(t, srv, "POST", "/v1/"+archiveParent+"/skills?skillId=pdf-tools", create); w.Code != http.StatusOK {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	if files := archiveFiles(t, path); len(files) != 1 {
		t.Errorf("after an acknowledged create with its first revision, the archives are %v, want one", files)
	}
	mustClose(t, srv)
	srv = openServer(t, path) // every committed record is visible after a restart
	if w := do(t, srv, "GET", "/v1/"+archiveParent+"/skills/pdf-tools/revisions/rev-1", ""); w.Code != http.StatusOK {
		t.Fatalf("the revision after a restart: %d %s", w.Code, w.Body)
	}
	mustClose(t, srv)

	for _, f := range archiveFiles(t, path) {
		if err := os.Remove(filepath.Join(path+".archives", f)); err != nil {
			t.Fatal(err)
		}
	}
	srv, err = New(Options{DataPath: path})
	if err == nil {
		mustClose(t, srv)
		t.Fatal("a start with a revision whose archive is missing served as healthy")
	}
	if msg := err.Error(); !strings.Contains(msg, archiveParent+"/skills/pdf-tools/revisions/rev-1") || !strings.Contains(msg, "archive") {
		t.Errorf("the start's error does not name the revision and its archive: %v", err)
	}
}

// Finding 6: a revision create retried with its request id returns the
// operation of the first, with or without a skillRevisionId (on main the
// retry was refused: "was already used for a different request").
func TestRetriedRevisionCreateReplays(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := do(t, srv, "POST", "/v1/"+archiveParent+"/skills?skillId=pdf-tools", `{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE"}`); w.Code != http.StatusOK {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	for i, query := range []string{"", "&skillRevisionId=chosen-id"} {
		rid := "8a3c1f0e-2b4d-4e6f-8a1b-3c5d7e9f0a1" + strconv.Itoa(i)
		url := "/v1/" + archiveParent + "/skills/pdf-tools/revisions?requestId=" + rid + query
		first := do(t, srv, "POST", url, revisionBody(t, "d"))
		retry := do(t, srv, "POST", url, revisionBody(t, "d"))
		if first.Code != http.StatusOK || retry.Code != http.StatusOK {
			t.Fatalf("%q: first %d %s; retry %d %s", query, first.Code, first.Body, retry.Code, retry.Body)
		}
		if opName(t, first.Body.Bytes()) != opName(t, retry.Body.Bytes()) {
			t.Errorf("%q: the retry got another operation: %s, then %s", query, first.Body, retry.Body)
		}
	}
	w := do(t, srv, "GET", "/v1/"+archiveParent+"/skills/pdf-tools/revisions", "")
	if n := strings.Count(w.Body.String(), `"sha256Hash"`); n != 2 {
		t.Errorf("%d revisions after two creates each sent twice, want 2: %s", n, w.Body)
	}
}

func opName(t *testing.T, body []byte) string {
	t.Helper()
	var op struct{ Name string }
	if err := json.Unmarshal(body, &op); err != nil || op.Name == "" {
		t.Fatalf("not an operation: %s", body)
	}
	return op.Name
}

// Finding 7: every logged value is truncated to a prefix and its length:
// 1 MB paths sent without a token wrote 1 MB log lines on main.
func TestLoggedValuesTruncated(t *testing.T) {
	var buf bytes.Buffer
	srv, err := New(Options{Token: "secret", Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	long := "/v1/" + strings.Repeat("a", 1<<20)
	method := strings.Repeat("M", 1<<16)
	if w := do(t, srv, "GET", long, ""); w.Code != http.StatusUnauthorized {
		t.Fatalf("%d", w.Code)
	}
	if w := do(t, srv, method, "/v1/x", ""); w.Code != http.StatusUnauthorized {
		t.Fatalf("%d", w.Code)
	}
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if len(line) > 2048 {
			t.Errorf("a log line of %d bytes: %.200s...", len(line), line)
		}
	}
	for _, n := range []int{len(long), len(method)} {
		if !strings.Contains(buf.String(), strconv.Itoa(n)+" bytes") {
			t.Errorf("the log does not give the length of a truncated value (%d bytes): %.300s", n, buf.String())
		}
	}
}

// Finding 8: skills.list orders by the fields it can and refuses others, as
// every other list does (on main orderBy was ignored, even "bogus").
func TestSkillsListOrderBy(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sk := range []struct{ id, display string }{{"alpha", "Zed"}, {"beta", "Mid"}, {"gamma", "Ace"}} {
		body := `{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE","displayName":"` + sk.display + `"}`
		if w := do(t, srv, "POST", "/v1/"+archiveParent+"/skills?skillId="+sk.id, body); w.Code != http.StatusOK {
			t.Fatalf("create: %d %s", w.Code, w.Body)
		}
	}
	if w := do(t, srv, "GET", "/v1/"+archiveParent+"/skills?orderBy=bogus", ""); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "order_by") {
		t.Errorf("orderBy=bogus: %d %s, want 400 naming order_by", w.Code, w.Body)
	}
	for orderBy, want := range map[string]string{"displayName": "gamma beta alpha", "name desc": "gamma beta alpha", "display_name desc": "alpha beta gamma", "": "alpha beta gamma"} {
		var got []string
		tok := ""
		for {
			w := do(t, srv, "GET", "/v1/"+archiveParent+"/skills?pageSize=2&orderBy="+strings.ReplaceAll(orderBy, " ", "%20")+"&pageToken="+tok, "")
			var resp struct {
				Skills        []struct{ Name string }
				NextPageToken string
			}
			if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &resp) != nil {
				t.Fatalf("orderBy=%q: %d %s", orderBy, w.Code, w.Body)
			}
			for _, sk := range resp.Skills {
				got = append(got, lastSegment(sk.Name))
			}
			if tok = resp.NextPageToken; tok == "" {
				break
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("orderBy=%q: %v, want %s", orderBy, got, want)
		}
	}
}
