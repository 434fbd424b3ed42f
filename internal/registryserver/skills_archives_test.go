package registryserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

const archiveParent = "projects/p1/locations/global"

// do sends one request to srv and returns the answer.
func do(t *testing.T, srv *Server, method, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest(method, path, strings.NewReader(body)))
	return w
}

// revisionBody is a revision upload of a valid skill named pdf-tools.
func revisionBody(t *testing.T, desc string) string {
	t.Helper()
	return `{"archiveUploadSource":{"archiveContent":"` + base64.StdEncoding.EncodeToString(revisionArchive(t, desc)) + `"}}`
}

// revisionArchive is the archive revisionBody uploads.
func revisionArchive(t *testing.T, desc string) []byte {
	t.Helper()
	z, err := skillpkg.Zip(map[string][]byte{"SKILL.md": []byte("---\nname: pdf-tools\ndescription: " + desc + "\n---\n")})
	if err != nil {
		t.Fatal(err)
	}
	return z
}

// archiveFiles lists the archives folder beside the data file at path.
func archiveFiles(t *testing.T, path string) []string {
	t.Helper()
	entries, err := os.ReadDir(path + ".archives")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// bucketKeys lists the keys of a bucket of the (closed) data file at path.
func bucketKeys(t *testing.T, path, bucket string) []string {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, db)
	var out []string
	err = db.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucket)).ForEach(func(k, _ []byte) error {
			out = append(out, string(k))
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// mustClose closes c (a server or its data file), or the test fails: the
// next step reopens the file.
func mustClose(t testing.TB, c io.Closer) {
	t.Helper()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

func openServer(t *testing.T, path string) *Server {
	t.Helper()
	srv, err := New(Options{DataPath: path})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// Item 2: a skill archive is written, and synced, before the server's lock
// is taken: the test holds the write lock, as a long write would, and the
// upload's archive is in its folder meanwhile; once the lock is released the
// upload completes. On main archives were written in the data file under
// the write lock: a large upload held every request for its fsync.
func TestArchiveWrittenBeforeTheLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	srv := openServer(t, path)
	defer mustClose(t, srv)
	if w := do(t, srv, "POST", "/v1/"+archiveParent+"/skills?skillId=pdf-tools", `{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE"}`); w.Code != http.StatusOK {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	srv.mu.Lock()
	uploaded := make(chan *httptest.ResponseRecorder, 1)
	go func() {
		uploaded <- do(t, srv, "POST", "/v1/"+archiveParent+"/skills/pdf-tools/revisions", revisionBody(t, "d"))
	}()
	deadline := time.Now().Add(10 * time.Second)
	for len(archiveFiles(t, path)) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	written := len(archiveFiles(t, path)) == 1
	srv.mu.Unlock()
	if !written {
		t.Error("the upload's archive was not written while another request held the lock")
	}
	if w := <-uploaded; w.Code != http.StatusOK {
		t.Errorf("the upload, once the lock was released: %d %s", w.Code, w.Body)
	}
	// What is kept is the archive uploaded, byte for byte.
	files := archiveFiles(t, path)
	if len(files) != 1 {
		t.Fatalf("archives %v, want one", files)
	}
	got, err := os.ReadFile(filepath.Join(path+".archives", files[0]))
	if err != nil || !bytes.Equal(got, revisionArchive(t, "d")) {
		t.Errorf("the stored archive is %d bytes (%v), not the %d uploaded", len(got), err, len(revisionArchive(t, "d")))
	}
}

// The archives folder holds one archive per revision, under its uid: deleting
// a revision, or a skill with force, deletes theirs, a refused upload leaves
// none, and an archive no revision names (left by a crash between its write
// and its revision's commit) is deleted at the next start. A data file of an
// earlier version, with its archives in the skillArchives bucket by name,
// has them deleted with their revisions.
func TestArchivesFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "data.db")
	srv := openServer(t, path)
	create := `{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE","initialRevision":` + revisionBody(t, "first") + `}`
	for _, id := range []string{"pdf-tools", "csv-tools"} {
		if w := do(t, srv, "POST", "/v1/"+archiveParent+"/skills?skillId="+id, create); w.Code != http.StatusOK {
			t.Fatalf("create %s: %d %s", id, w.Code, w.Body)
		}
	}
	revs := "/v1/" + archiveParent + "/skills/pdf-tools/revisions"
	if w := do(t, srv, "POST", revs, revisionBody(t, "second")); w.Code != http.StatusOK {
		t.Fatalf("revision: %d %s", w.Code, w.Body)
	}
	// Refused after its archive was written: the skill does not exist, the id is taken.
	if w := do(t, srv, "POST", "/v1/"+archiveParent+"/skills/none-such/revisions", revisionBody(t, "x")); w.Code != http.StatusNotFound {
		t.Fatalf("a revision of no skill: %d %s", w.Code, w.Body)
	}
	if w := do(t, srv, "POST", revs+"?skillRevisionId=rev-2", revisionBody(t, "x")); w.Code != http.StatusConflict {
		t.Fatalf("a taken id: %d %s", w.Code, w.Body)
	}
	uids := map[string]string{}
	srv.mu.RLock()
	for name, rev := range srv.skills.revisions.byName {
		uids[name] = rev.Uid
	}
	srv.mu.RUnlock()
	if w := do(t, srv, "DELETE", revs+"/rev-1", ""); w.Code != http.StatusOK {
		t.Fatalf("delete rev-1: %d %s", w.Code, w.Body)
	}
	if w := do(t, srv, "DELETE", "/v1/"+archiveParent+"/skills/csv-tools?force=true", ""); w.Code != http.StatusOK {
		t.Fatalf("delete csv-tools: %d %s", w.Code, w.Body)
	}
	mustClose(t, srv)
	want := []string{uids[archiveParent+"/skills/pdf-tools/revisions/rev-2"]}
	if got := archiveFiles(t, path); !slices.Equal(got, want) {
		t.Fatalf("archives %v, want only rev-2's %v (of %v)", got, want, uids)
	}

	// An orphan, and an archive of an earlier version in the data file.
	if err := os.WriteFile(filepath.Join(path+".archives", "orphan-uid"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := archiveParent + "/skills/pdf-tools/revisions/r1"
	oldRev, _ := json.Marshal(&resource.SkillRevision{Name: old, Uid: "old-uid", State: "ACTIVE"})
	db, err := bolt.Open(path, 0o600, nil)
	if err == nil {
		err = db.Update(func(tx *bolt.Tx) error {
			if err := tx.Bucket([]byte(bucketSkillRevisions)).Put([]byte(old), oldRev); err != nil {
				return err
			}
			return tx.Bucket([]byte(bucketSkillArchives)).Put([]byte(old), []byte("an old archive"))
		})
		mustClose(t, db)
	}
	if err != nil {
		t.Fatal(err)
	}
	srv = openServer(t, path)
	if w := do(t, srv, "GET", revs+"/r1", ""); w.Code != http.StatusOK {
		t.Errorf("a revision of an earlier version, r1: %d %s", w.Code, w.Body)
	}
	if w := do(t, srv, "DELETE", revs+"/r1", ""); w.Code != http.StatusOK {
		t.Fatalf("delete r1: %d %s", w.Code, w.Body)
	}
	mustClose(t, srv)
	if got := archiveFiles(t, path); !slices.Equal(got, want) {
		t.Errorf("after a restart, archives %v, want %v: the orphan stayed", got, want)
	}
	if got := bucketKeys(t, path, bucketSkillArchives); len(got) != 0 {
		t.Errorf("the data file's old archives %v, want none once their revision is deleted", got)
	}
}

// Writing an archive opens its file and its folder and closes both: 90
// uploads leave no more files open than there were. (Only Linux lists
// a process's open files in /proc/self/fd.)
func TestArchivesLeaveNoFileOpen(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd to count open files:", err)
	}
	openFiles := func() int {
		entries, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(entries)
	}
	srv := openServer(t, filepath.Join(t.TempDir(), "data.db"))
	defer mustClose(t, srv)
	if w := do(t, srv, "POST", "/v1/"+archiveParent+"/skills?skillId=pdf-tools", `{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE"}`); w.Code != http.StatusOK {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	revs := "/v1/" + archiveParent + "/skills/pdf-tools/revisions"
	// Without a collection no finalizer closes a file left open.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	before := openFiles()
	const uploads = 90 // of the 100 revisions a skill may have
	for range uploads {
		if w := do(t, srv, "POST", revs, revisionBody(t, "d")); w.Code != http.StatusOK {
			t.Fatalf("upload: %d %s", w.Code, w.Body)
		}
	}
	if after := openFiles(); after > before+2 {
		t.Errorf("%d files open before %d uploads, %d after", before, uploads, after)
	}
}
