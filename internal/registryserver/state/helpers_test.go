package state

// What the state's tests share: a state to call, the records they write,
// the operations they get back, and a look into the data file.

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

const parent = "projects/p1/locations/global"

// open returns a state on opts, closed when the test ends.
func open(t testing.TB, opts Options) *State {
	t.Helper()
	s, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// openFile opens the state of the data file at path (closed by the test).
func openFile(t testing.TB, path string) *State {
	t.Helper()
	s, err := Open(Options{DataPath: path})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// mustClose closes c (a state or its data file), or the test fails: the
// next step reopens the file.
func mustClose(t testing.TB, c io.Closer) {
	t.Helper()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

// opView is what a test reads of an operation.
type opView struct {
	Name     string
	Done     bool
	Metadata json.RawMessage
	Response json.RawMessage
}

// view decodes the operation a write returned, which must not have failed:
// view(t)(s.CreateService(...)).
func view(t testing.TB) func(op Operation, err error) opView {
	return func(op Operation, err error) opView {
		t.Helper()
		if err != nil {
			t.Fatalf("the write failed: %v", err)
		}
		b, err := json.Marshal(op)
		if err != nil {
			t.Fatal(err)
		}
		var v opView
		if err := json.Unmarshal(b, &v); err != nil || v.Name == "" {
			t.Fatalf("not an operation: %s", b)
		}
		return v
	}
}

// opName is the name of the operation a successful write returned:
// opName(t)(s.CreateService(...)).
func opName(t testing.TB) func(op Operation, err error) string {
	return func(op Operation, err error) string {
		t.Helper()
		return view(t)(op, err).Name
	}
}

// wantCode fails unless err is an *Error of code whose message holds each
// of contains.
func wantCode(t testing.TB, err error, code Code, contains ...string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("error %v, want %s", err, code)
	}
	for _, c := range contains {
		if !strings.Contains(e.Message, c) {
			t.Errorf("error %q does not say %q", e.Message, c)
		}
	}
}

// fields are the fields an *Error names.
func fields(err error) []string {
	var e *Error
	if !errors.As(err, &e) {
		return nil
	}
	var out []string
	for _, v := range e.Violations {
		out = append(out, v.Field)
	}
	return out
}

// endpointService is the smallest valid service.
func endpointService() *resource.Service {
	return &resource.Service{EndpointSpec: &resource.EndpointSpec{Type: "NO_SPEC"}}
}

// agentService is an agent service whose card is named name.
func agentService(name, desc string) *resource.Service {
	card, _ := json.Marshal(map[string]any{
		"protocolVersion": "0.3.0", "name": name, "description": desc, "version": "1.0.0",
		"url":                "https://agents.example.test/" + strings.ReplaceAll(strings.ToLower(name), " ", "-"),
		"preferredTransport": "JSONRPC",
		"capabilities":       map[string]any{}, "defaultInputModes": []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"},
		"skills": []map[string]any{},
	})
	return &resource.Service{DisplayName: name, AgentSpec: &resource.AgentSpec{Type: "A2A_AGENT_CARD", Content: card}}
}

// activeSkill is a skill to create, without a revision.
func activeSkill() *resource.Skill {
	return &resource.Skill{Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE"}
}

// revisionArchive is the archive of a valid skill named pdf-tools.
func revisionArchive(t testing.TB, desc string) []byte {
	t.Helper()
	z, err := skillpkg.Zip(map[string][]byte{"SKILL.md": []byte("---\nname: pdf-tools\ndescription: " + desc + "\n---\n")})
	if err != nil {
		t.Fatal(err)
	}
	return z
}

// revision is the upload of revisionArchive.
func revision(t testing.TB, desc string) *resource.SkillRevision {
	t.Helper()
	return &resource.SkillRevision{ArchiveUploadSource: &resource.ArchiveUploadSource{
		ArchiveContent: base64.StdEncoding.EncodeToString(revisionArchive(t, desc))}}
}

// archiveFiles lists the archives folder beside the data file at path.
func archiveFiles(t testing.TB, path string) []string {
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
func bucketKeys(t testing.TB, path, bucket string) []string {
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

// clock is a clock a test moves.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// violationsOf are the fields an INVALID_ARGUMENT names, with what is wrong
// with each; the test fails on another error.
func violationsOf(t testing.TB, err error) map[string]string {
	t.Helper()
	wantCode(t, err, InvalidArgument)
	var e *Error
	errors.As(err, &e)
	out := map[string]string{}
	for _, v := range e.Violations {
		out[v.Field] = v.Description
	}
	return out
}

// toolSpec is a valid MCP tool spec of two tools.
const toolSpec = `{"tools":[
 {"name":"get_invoice","title":"Get invoice","description":"Fetches an invoice by number.","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"openWorldHint":false}},
 {"name":"delete_invoice","description":"Deletes an invoice.","inputSchema":{"type":"object"}}]}`

// mcpService is an MCP server service with tool spec content.
func mcpService(content string) *resource.Service {
	return &resource.Service{McpServerSpec: &resource.McpServerSpec{Type: "TOOL_SPEC", Content: json.RawMessage(content)}}
}
