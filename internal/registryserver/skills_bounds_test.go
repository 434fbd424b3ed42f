package registryserver_test

// Tests of the skills' bounds (front matter, problems listed, metadata, one
// SKILL.md, search deadlines, page offsets, uploads at once) and of their
// revision ids and filter as the discovery document defines them.

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

// archiveOf is a revision uploading files as a ZIP (deflated: a bomb stays small).
func archiveOf(t *testing.T, files map[string]string) *agentregistry.SkillRevision {
	return &agentregistry.SkillRevision{ArchiveUploadSource: &agentregistry.ArchiveUploadSource{ArchiveContent: zipOf(t, files)}}
}

// totalAlloc returns the bytes allocated while fn ran.
func totalAlloc(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// The front matter is bounded before it is parsed: a SKILL.md holding a
// 1-million-item flow sequence (a small archive, hundreds of MB as a YAML
// node tree) is refused naming the limit, allocating less than 64 MB.
func TestSkillFrontmatterBombRefusedCheaply(t *testing.T) {
	e := start(t, registryserver.Options{})
	sk := e.createSkill(t, "pdf-tools", "d", nil)
	bomb := archiveOf(t, map[string]string{"SKILL.md": "---\nname: pdf-tools\ndescription: d\nmetadata: [" + strings.Repeat("a,", 1<<20) + "a]\n---\n"})
	var err error
	n := totalAlloc(func() { _, err = e.ar.Projects.Locations.Skills.Revisions.Create(sk.Name, bomb).Do() })
	v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT"))
	if !strings.Contains(v["frontmatter."], "16384 bytes") {
		t.Errorf("violations %v, want the front matter's limit", v)
	}
	if n > 64<<20 {
		t.Errorf("refusing a %d-byte archive allocated %d MB", len(bomb.ArchiveUploadSource.ArchiveContent), n>>20)
	}
}

// An error lists at most skillpkg.MaxProblems problems and counts the rest:
// the answer to 1,000 unknown keys stays under 16 KB.
func TestSkillProblemsCapped(t *testing.T) {
	e := start(t, registryserver.Options{})
	sk := e.createSkill(t, "pdf-tools", "d", nil)
	var md strings.Builder
	md.WriteString("---\nname: pdf-tools\ndescription: d\n")
	const keys = 1000
	for i := range keys {
		fmt.Fprintf(&md, "k%d: 1\n", i)
	}
	md.WriteString("---\n")
	_, err := e.ar.Projects.Locations.Skills.Revisions.Create(sk.Name, archiveOf(t, map[string]string{"SKILL.md": md.String()})).Do()
	ge := asAPIErr(t, err, 400, "INVALID_ARGUMENT")
	if len(ge.Body) > 16<<10 {
		t.Errorf("the answer to %d unknown keys is %d bytes", keys, len(ge.Body))
	}
	v := violations(t, ge)
	if len(v) != skillpkg.MaxProblems+1 || !strings.Contains(v["frontmatter"], fmt.Sprintf("and %d more problems", keys-skillpkg.MaxProblems)) {
		t.Errorf("%d violations, the last %q; want %d and the count of the rest", len(v), v["frontmatter"], skillpkg.MaxProblems+1)
	}
	// Under the cap every problem is listed, and no count follows.
	md.Reset()
	md.WriteString("---\nname: pdf-tools\ndescription: d\nk0: 1\nk1: 1\n---\n")
	_, err = e.ar.Projects.Locations.Skills.Revisions.Create(sk.Name, archiveOf(t, map[string]string{"SKILL.md": md.String()})).Do()
	if v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT")); len(v) != 2 || v["frontmatter"] != "" {
		t.Errorf("two unknown keys: violations %v, want the two and no count", v)
	}
}

// Metadata is bounded in entries and bytes before it is stored; at the
// limits it is stored whole.
func TestSkillMetadataBounded(t *testing.T) {
	e := start(t, registryserver.Options{})
	sk := e.createSkill(t, "pdf-tools", "d", nil)
	entries := func(n, size int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "  k%03d: %s\n", i, strings.Repeat("v", size))
		}
		return "---\nname: pdf-tools\ndescription: d\nmetadata:\n" + b.String() + "---\n"
	}
	for md, want := range map[string]string{
		entries(skillpkg.MaxMetadataEntries+1, 1): "has 65 entries",
		entries(2, skillpkg.MaxMetadataBytes/2):   "holds 8200 bytes",
	} {
		_, err := e.ar.Projects.Locations.Skills.Revisions.Create(sk.Name, archiveOf(t, map[string]string{"SKILL.md": md})).Do()
		if v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT")); !strings.Contains(v["frontmatter.metadata"], want) {
			t.Errorf("violations %v, want %q", v, want)
		}
	}
	op, err := e.ar.Projects.Locations.Skills.Revisions.Create(sk.Name, archiveOf(t, map[string]string{"SKILL.md": entries(skillpkg.MaxMetadataEntries, 100)})).Do()
	if err != nil {
		t.Fatalf("%d entries of 105 bytes: %v", skillpkg.MaxMetadataEntries, err)
	}
	var rev agentregistry.SkillRevision
	if err := json.Unmarshal(waitDone(t, e, op.Name).Response, &rev); err != nil || len(rev.Frontmatter.Metadata) != skillpkg.MaxMetadataEntries {
		t.Errorf("stored %d metadata entries (%v)", len(rev.Frontmatter.Metadata), err)
	}
}

// Through the server: an archive whose second SKILL.md is the valid one is
// refused, not judged by its last entry.
func TestSkillArchiveWithTwoSkillFiles(t *testing.T) {
	e := start(t, registryserver.Options{})
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, md := range []string{"---\nname: Not Valid\n---\n", skillMD("pdf-tools", "Valid.")} {
		w, _ := zw.Create("SKILL.md")
		_, _ = w.Write([]byte(md))
	}
	_ = zw.Close()
	rev := &agentregistry.SkillRevision{ArchiveUploadSource: &agentregistry.ArchiveUploadSource{ArchiveContent: base64.StdEncoding.EncodeToString(buf.Bytes())}}
	_, err := e.ar.Projects.Locations.Skills.Create(parent, &agentregistry.Skill{Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE", InitialRevision: rev}).SkillId("pdf-tools").Do()
	if v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT")); !strings.Contains(v["archive_upload_source.archive_content"], "appears more than once") {
		t.Errorf("violations %v", v)
	}
}

// Skill searches, SEMANTIC included, stop at the server's search deadline
// and when the client goes away.
func TestSkillSearchesHonourTheDeadline(t *testing.T) {
	e := start(t, registryserver.Options{SearchTimeout: time.Nanosecond})
	e.createSkill(t, "pdf-tools", "Fill PDF forms.", nil)
	s := e.ar.Projects.Locations.Skills
	for _, mode := range []string{"SEMANTIC", "KEYWORD"} {
		_, err := s.Search(parent).SearchString("pdf").SearchType(mode).Do()
		if ge := asAPIErr(t, err, http.StatusGatewayTimeout, "DEADLINE_EXCEEDED"); !strings.Contains(ge.Message, "skills search") {
			t.Errorf("%s: %s", mode, ge.Message)
		}
	}
	_, err := s.List(parent).Do()
	apiErr(t, err, http.StatusGatewayTimeout, "DEADLINE_EXCEEDED")

	srv, err := registryserver.New(registryserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	body, _ := json.Marshal(&agentregistry.Skill{Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE"})
	if w := serve(srv, context.Background(), "POST", "/v1/"+parent+"/skills?skillId=pdf-tools", string(body)); w.Code != http.StatusOK {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	if w := serve(srv, ctx, "GET", "/v1/"+parent+"/skills:search?searchType=SEMANTIC&searchString=pdf", ""); w.Code != 499 {
		t.Errorf("a cancelled SEMANTIC search: %d %s, want 499 CANCELLED", w.Code, w.Body)
	}
}

// A page token's offset is checked against the results: an offset of
// 2^63-1, which would overflow offset+size, is a 400. The token is taken
// from the server and its offset changed, as anyone can (its query hash is
// not a secret).
func TestSkillForgedPageOffset(t *testing.T) {
	e := start(t, registryserver.Options{})
	for _, id := range []string{"alfa", "bravo"} {
		e.createSkill(t, id, "shared", nil)
	}
	s := e.ar.Projects.Locations.Skills
	first, err := s.Search(parent).SearchString("shared").PageSize(1).Do()
	if err != nil || first.NextPageToken == "" {
		t.Fatalf("first page: %+v %v", first, err)
	}
	forge := func(offset string) string {
		raw, err := base64.RawURLEncoding.DecodeString(first.NextPageToken)
		if err != nil {
			t.Fatal(err)
		}
		var tok map[string]json.RawMessage
		if err := json.Unmarshal(raw, &tok); err != nil {
			t.Fatal(err)
		}
		tok["o"] = json.RawMessage(offset)
		b, _ := json.Marshal(tok)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	for _, off := range []string{"9223372036854775807", "10001"} {
		_, err = s.Search(parent).SearchString("shared").PageSize(1).PageToken(forge(off)).Do()
		if ge := asAPIErr(t, err, 400, "INVALID_ARGUMENT"); !strings.Contains(ge.Message, "not a token this server issued") {
			t.Errorf("offset %s: %s", off, ge.Message)
		}
	}
	// Past the results but within what a location can hold (they may have
	// shrunk since the token was issued): an empty last page.
	for _, off := range []string{"2", "10000"} {
		r, err := s.Search(parent).SearchString("shared").PageSize(1).PageToken(forge(off)).Do()
		if err != nil || len(r.Skills) != 0 || r.NextPageToken != "" {
			t.Errorf("offset %s: %+v %v, want an empty last page", off, r, err)
		}
	}
}

// Automatic revision ids are rev-N, which follow the discovery document's
// rule, and numbering cannot overflow: after revisions named with numbers
// too large to count, the next automatic id is still the next free rev-N.
func TestSkillRevisionNumbering(t *testing.T) {
	e := start(t, registryserver.Options{})
	revs := e.ar.Projects.Locations.Skills.Revisions
	in := upload(t, "pdf-tools", "Fill PDF forms.")
	sk := e.createSkill(t, "pdf-tools", "d", in)
	create := func(id string) string {
		t.Helper()
		call := revs.Create(sk.Name, in)
		if id != "" {
			call = call.SkillRevisionId(id)
		}
		op, err := call.Do()
		if err != nil {
			t.Fatalf("revision %q: %v", id, err)
		}
		var rev agentregistry.SkillRevision
		if err := json.Unmarshal(waitDone(t, e, op.Name).Response, &rev); err != nil {
			t.Fatal(err)
		}
		return filepath.Base(rev.Name)
	}
	if got := filepath.Base(sk.DefaultRevision); got != "rev-1" {
		t.Errorf("the initial revision is %s, want rev-1", got)
	}
	create("r9223372036854775807")
	create("rev-99999999999999999999")
	if got := create(""); got != "rev-2" {
		t.Errorf("after ids too large to count: %s, want rev-2", got)
	}
	create("rev-41")
	if got := create(""); got != "rev-42" {
		t.Errorf("after rev-41: %s, want rev-42", got)
	}
	// The highest number counted, taken by a client: the smallest free one.
	create("rev-1000000000000000")
	if got := create(""); got != "rev-3" {
		t.Errorf("after rev-1000000000000000: %s, want rev-3", got)
	}
}

// skillRevisionId follows the discovery document: 4 to 63 characters
// matching ^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$ ("ab" is refused).
func TestSkillRevisionIDRule(t *testing.T) {
	e := start(t, registryserver.Options{})
	in := upload(t, "pdf-tools", "Fill PDF forms.")
	sk := e.createSkill(t, "pdf-tools", "d", nil)
	for id, ok := range map[string]bool{
		"ab": false, "abc": false, "abcd": true, "1abc": false, "abc-": false, "-abc": false, "ab-9": true,
		"a" + strings.Repeat("b", 62): true, "a" + strings.Repeat("b", 63): false, "Abcd": false, "ab_c": false,
	} {
		op, err := e.ar.Projects.Locations.Skills.Revisions.Create(sk.Name, in).SkillRevisionId(id).Do()
		if !ok {
			if v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT")); v["skill_revision_id"] == "" {
				t.Errorf("%q: violations %v", id, v)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", id, err)
			continue
		}
		waitDone(t, e, op.Name)
	}
}

// The filter of skills.list and skills:search is parsed as a filter of the
// fields the discovery document lists (state and targetState with =;
// createTime and updateTime with =, < and >), never spliced into the search
// string (`x) OR (zz` changes no query's meaning), and a bad one is reported
// under filter.
func TestSkillFilter(t *testing.T) {
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	e := start(t, registryserver.Options{Now: clk.Now})
	skills := e.ar.Projects.Locations.Skills
	for _, c := range []struct{ id, target string }{{"alfa", "ACTIVE"}, {"bravo", "DRAFT"}, {"charlie", "DEPRECATED"}} {
		op, err := skills.Create(parent, &agentregistry.Skill{Type: "SIMPLE", TargetState: "TARGET_STATE_" + c.target, Description: "shared words"}).SkillId(c.id).Do()
		if err != nil {
			t.Fatal(err)
		}
		waitDone(t, e, op.Name)
		clk.advance(time.Hour) // alfa at 00:00, bravo at 01:00, charlie at 02:00
	}
	op, err := skills.Patch(parent+"/skills/alfa", &agentregistry.Skill{DisplayName: "Alfa"}).Do() // alfa updated at 03:00
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, e, op.Name)
	// ids in name order: a SEMANTIC search ranks them, and alfa, with a
	// display name, has more words than the others.
	ids := func(list []*agentregistry.Skill) string {
		var out []string
		for _, sk := range list {
			out = append(out, filepath.Base(sk.Name))
		}
		slices.Sort(out)
		return strings.Join(out, ",")
	}
	// Every case of the filter is in search/skill_filter_test.go; here each
	// kind reaches list and both searches: an enum, a time, a group, none.
	for filter, want := range map[string]string{
		"target_state=DRAFT":                                                "bravo",
		"update_time < 2026-01-01T02:30:00+01:00":                           "bravo",
		"(state=ACTIVE OR state=DRAFT) AND createTime>2026-01-01T00:30:00Z": "bravo",
		"": "alfa,bravo,charlie",
	} {
		l, err := skills.List(parent).Filter(filter).Do()
		if err != nil {
			t.Errorf("list %q: %v", filter, err)
		} else if got := ids(l.Skills); got != want {
			t.Errorf("list %q = %s, want %s", filter, got, want)
		}
		for _, mode := range []string{"KEYWORD", "SEMANTIC"} {
			r, err := skills.Search(parent).SearchString("shared").SearchType(mode).Filter(filter).Do()
			if err != nil {
				t.Errorf("%s search with filter %q: %v", mode, filter, err)
			} else if got := ids(r.Skills); got != want {
				t.Errorf("%s search with filter %q = %s, want %s", mode, filter, got, want)
			}
		}
	}
	// The filter narrows the search; it never changes what the search string means.
	r, err := skills.Search(parent).SearchString("skillId=bravo").Filter("state=ACTIVE").Do()
	if err != nil || len(r.Skills) != 0 {
		t.Errorf("skillId=bravo with filter state=ACTIVE: %+v %v, want nothing", r, err)
	}
	for filter, want := range map[string]string{
		"x) OR (zz":                          `expected a comparison of state, targetState, createTime or updateTime (such as state=ACTIVE), found "x"`,
		"state=RUNNING":                      `state value "RUNNING" is not one of STATE_CREATING`,
		"state=" + strings.Repeat("é", 4096): "is 4102 characters long; the limit is 4096",
	} {
		_, err := skills.List(parent).Filter(filter).Do()
		v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT"))
		if !strings.Contains(v["filter"], want) || v["search_string"] != "" {
			t.Errorf("list %q: violations %v, want filter: %q", shorten(filter), v, want)
		}
		_, err = skills.Search(parent).Filter(filter).Do()
		if v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT")); !strings.Contains(v["filter"], want) {
			t.Errorf("search %q: violations %v, want filter: %q", shorten(filter), v, want)
		}
	}
	// At the length limit (counted after the query's decoding), and quoted
	// values with an escape, accepted.
	for _, filter := range []string{
		"state=ACTIVE" + strings.Repeat(" ", 4096-len("state=ACTIVE")),
		`state="ACTIVE"`, `state="ACT\IVE"`,
	} {
		if l, err := skills.List(parent).Filter(filter).Do(); err != nil || ids(l.Skills) != "alfa" {
			t.Errorf("list %q: %v %v", shorten(filter), l, err)
		}
	}
}

func shorten(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// TestSkillUploadsCapped: at most MaxUploads skill and revision creates are
// handled at once (each holds its body in memory); one more is answered 503
// UNAVAILABLE with Retry-After at once, and other requests go on.
func TestSkillUploadsCapped(t *testing.T) {
	e := start(t, registryserver.Options{MaxUploads: 1})
	sk := e.createSkill(t, "pdf-tools", "d", nil)
	// An upload whose body has not finished arriving holds the only slot.
	pr, pw := io.Pipe()
	held := make(chan *http.Response, 1)
	go func() {
		req, _ := http.NewRequest("POST", e.url+"/v1/"+sk.Name+"/revisions", pr)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			close(held)
			return
		}
		held <- resp
	}()
	if _, err := pw.Write([]byte(`{"archiveUploadSource":`)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(e.url+"/v1/"+parent+"/skills?skillId=other-skill", "application/json", strings.NewReader(`{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" || !strings.Contains(string(b), "1 skill uploads, its limit") {
		t.Errorf("a second upload: %d (Retry-After %q) %s", resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
	if _, err := e.ar.Projects.Locations.Skills.Get(sk.Name).Do(); err != nil {
		t.Errorf("a read while the upload slot is taken: %v", err)
	}
	body, _ := json.Marshal(upload(t, "pdf-tools", "Fill PDF forms.").ArchiveUploadSource)
	_, _ = pw.Write(append(body, '}'))
	_ = pw.Close() // a pipe writer's Close returns nil
	if r := <-held; r == nil || r.StatusCode != http.StatusOK {
		t.Fatalf("the held upload: %+v", r)
	}
	// The slot is free again.
	if _, err := e.ar.Projects.Locations.Skills.Revisions.Create(sk.Name, upload(t, "pdf-tools", "Again.")).Do(); err != nil {
		t.Errorf("an upload after the slot was given back: %v", err)
	}
}
