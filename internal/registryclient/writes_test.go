package registryclient

// The long-running writes of every resource share one loop (writeAndWait) and
// one response decoder (decodeResponse); these tables hold each write to them,
// so that a write that bypasses them, or a change in them, is caught per kind.

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/api/agentregistry/v1"
)

const (
	testBinding  = testParent + "/bindings/flights"
	testSkill    = testParent + "/skills/pdf-tools"
	testRevision = testSkill + "/revisions/r2"
)

// write is one long-running write of the client: method is its HTTP method,
// path the resource it writes (what a read after it GETs).
type write struct {
	label, method, path string
	call                func(ctx context.Context, c *Client) error
}

func serviceWrites() []write {
	named := func() *agentregistry.Service { s := newAgentService(`{}`); s.Name = svcName; return s }
	return []write{
		{"create service", "POST", svcName, func(ctx context.Context, c *Client) error {
			_, err := c.CreateService(ctx, testParent, "planner", newAgentService(`{}`))
			return err
		}},
		{"update service", "PATCH", svcName, func(ctx context.Context, c *Client) error {
			_, err := c.UpdateService(ctx, named(), []string{"displayName"})
			return err
		}},
		{"delete service", "DELETE", svcName, func(ctx context.Context, c *Client) error { return c.DeleteService(ctx, svcName) }},
	}
}

func bindingWrites() []write {
	b := func() *agentregistry.Binding {
		return &agentregistry.Binding{Name: testBinding, Target: &agentregistry.Target{Identifier: "urn:mcp:acme:travel:flights"}}
	}
	return []write{
		{"create binding", "POST", testBinding, func(ctx context.Context, c *Client) error {
			_, err := c.CreateBinding(ctx, testParent, "flights", b())
			return err
		}},
		{"update binding", "PATCH", testBinding, func(ctx context.Context, c *Client) error {
			_, err := c.UpdateBinding(ctx, b(), []string{"displayName"})
			return err
		}},
		{"delete binding", "DELETE", testBinding, func(ctx context.Context, c *Client) error { return c.DeleteBinding(ctx, testBinding) }},
	}
}

func skillWrites() []write {
	return []write{
		{"create skill", "POST", testSkill, func(ctx context.Context, c *Client) error {
			_, err := c.CreateSkill(ctx, testParent, "pdf-tools", &agentregistry.Skill{Type: "SIMPLE"})
			return err
		}},
		{"update skill", "PATCH", testSkill, func(ctx context.Context, c *Client) error {
			_, err := c.UpdateSkill(ctx, &agentregistry.Skill{Name: testSkill}, []string{"targetState"})
			return err
		}},
		{"delete skill", "DELETE", testSkill, func(ctx context.Context, c *Client) error { return c.DeleteSkill(ctx, testSkill, true) }},
	}
}

func allWrites() []write {
	revision := write{"create skill revision", "POST", testRevision, func(ctx context.Context, c *Client) error {
		_, err := c.CreateSkillRevision(ctx, testSkill, ArchiveRevision([]byte("zip")))
		return err
	}}
	return append(append(append(serviceWrites(), bindingWrites()...), skillWrites()...), revision)
}

func deletes() []write {
	var out []write
	for _, w := range allWrites() {
		if w.method == "DELETE" {
			out = append(out, w)
		}
	}
	return out
}

// requestIDs lists the requestId of every recorded request with method.
func requestIDs(rec *recorder, method string) []string {
	var ids []string
	for _, q := range rec.all() {
		if q.Method == method {
			ids = append(ids, q.Query.Get("requestId"))
		}
	}
	return ids
}

func sameNonEmpty(ids []string) bool {
	for _, id := range ids {
		if id == "" || id != ids[0] {
			return false
		}
	}
	return len(ids) > 0
}

// A write whose operation is lost every time (each poll answers 404) is sent
// maxWriteAttempts times in all, with one requestId, and then fails with the
// lost operation's NOT_FOUND: a delete does not take that NOT_FOUND for "the
// resource is gone".
func TestEveryWriteIsSentAtMostThreeTimes(t *testing.T) {
	for _, tt := range allWrites() {
		t.Run(tt.label, func(t *testing.T) {
			srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
				if r.Method == tt.method {
					writeJSON(w, 200, map[string]any{"name": "operations/lost"})
					return
				}
				writeError(w, 404, "NOT_FOUND", "operation not found")
			})
			c := testClient(t, srv.URL)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := tt.call(ctx, c); !IsNotFound(err) || !strings.Contains(err.Error(), "operations/lost") {
				t.Errorf("err = %v, want the lost operation's NOT_FOUND", err)
			}
			if ids := requestIDs(rec, tt.method); len(ids) != maxWriteAttempts || !sameNonEmpty(ids) {
				t.Errorf("%s requestIds = %q, want %d equal ones", tt.method, ids, maxWriteAttempts)
			}
		})
	}
}

// A delete sent again (its first operation was lost) that the registry
// answers with NOT_FOUND succeeds: the first send deleted the resource. On the
// first send, NOT_FOUND is an error.
func TestDeleteSentAgainThatFindsNothingSucceeds(t *testing.T) {
	for _, tt := range deletes() {
		t.Run(tt.label, func(t *testing.T) {
			var sends atomic.Int32
			srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
				if r.Method == "DELETE" && sends.Add(1) == 1 {
					writeJSON(w, 200, map[string]any{"name": "operations/lost"})
					return
				}
				writeError(w, 404, "NOT_FOUND", "not found")
			})
			c := testClient(t, srv.URL)
			if err := tt.call(testCtx(t), c); err != nil {
				t.Errorf("delete sent again into NOT_FOUND: %v, want success", err)
			}
			if ids := requestIDs(rec, "DELETE"); len(ids) != 2 || !sameNonEmpty(ids) {
				t.Errorf("DELETE requestIds = %q, want two equal ones", ids)
			}
		})
		t.Run(tt.label+" first send", func(t *testing.T) {
			srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
				writeError(w, 404, "NOT_FOUND", "no such resource")
			})
			if err := tt.call(testCtx(t), testClient(t, srv.URL)); !IsNotFound(err) {
				t.Errorf("err = %v, want NOT_FOUND", err)
			}
		})
	}
}

// A finished operation's response is the written resource when it names it;
// when it is empty or names nothing, the resource is read after the write. A
// new revision cannot be read without its name, so that is an error.
func TestEveryWriteTakesTheResourceFromTheOperationResponse(t *testing.T) {
	for _, response := range []struct {
		name    string
		body    map[string]any // nil: no response at all
		readsIt bool
	}{
		{"naming the resource", map[string]any{"name": "from-the-response"}, false},
		{"empty", nil, true},
		{"without a name", map[string]any{"@type": "type.googleapis.com/google.protobuf.Empty"}, true},
	} {
		for _, tt := range allWrites() {
			if tt.method == "DELETE" {
				continue
			}
			t.Run(tt.label+" "+response.name, func(t *testing.T) {
				srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
					switch {
					case r.Method == tt.method:
						op := map[string]any{"name": "operations/w", "done": true}
						if response.body != nil {
							op["response"] = response.body
						}
						writeJSON(w, 200, op)
					case r.Method == "GET" && q.Path == "/v1/"+tt.path:
						writeJSON(w, 200, map[string]any{"name": tt.path})
					default:
						writeError(w, 404, "NOT_FOUND", "unexpected")
					}
				})
				err := tt.call(testCtx(t), testClient(t, srv.URL))
				reads := rec.gets("/v1/" + tt.path)
				switch {
				case tt.path == testRevision && response.readsIt:
					if err == nil || !strings.Contains(err.Error(), "did not return the revision") || reads != 0 {
						t.Errorf("err = %v, %d reads; want the missing revision named, no read", err, reads)
					}
				case err != nil:
					t.Errorf("err = %v", err)
				case response.readsIt && reads != 1, !response.readsIt && reads != 0:
					t.Errorf("%d reads of %s after the write, want the resource read %v", reads, tt.path, response.readsIt)
				}
			})
		}
	}
}

// An operation response that is not JSON is an error, not a read.
func TestAnUndecodableOperationResponseIsAnError(t *testing.T) {
	for _, tt := range allWrites() {
		if tt.method == "DELETE" {
			continue
		}
		t.Run(tt.label, func(t *testing.T) {
			srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{"name": "operations/w", "done": true, "response": "not an object"}`))
			})
			err := tt.call(testCtx(t), testClient(t, srv.URL))
			if err == nil || !strings.Contains(err.Error(), "decoding the operation response") {
				t.Errorf("err = %v, want a decoding error", err)
			}
		})
	}
}

// Every update sends its mask as one comma-separated updateMask parameter,
// and without a mask no updateMask parameter at all (the server's full
// replacement), not an empty one.
func TestEveryUpdateSendsItsMask(t *testing.T) {
	updates := map[string]func(ctx context.Context, c *Client, mask []string) error{
		"service": func(ctx context.Context, c *Client, mask []string) error {
			s := newAgentService(`{}`)
			s.Name = svcName
			_, err := c.UpdateService(ctx, s, mask)
			return err
		},
		"binding": func(ctx context.Context, c *Client, mask []string) error {
			_, err := c.UpdateBinding(ctx, &agentregistry.Binding{Name: testBinding}, mask)
			return err
		},
		"skill": func(ctx context.Context, c *Client, mask []string) error {
			_, err := c.UpdateSkill(ctx, &agentregistry.Skill{Name: testSkill}, mask)
			return err
		},
	}
	for kind, update := range updates {
		for _, mask := range [][]string{{"displayName", "description"}, nil} {
			t.Run(fmt.Sprintf("%s %q", kind, mask), func(t *testing.T) {
				srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
					writeJSON(w, 200, map[string]any{"name": "operations/u", "done": true, "response": map[string]any{"name": q.Path}})
				})
				if err := update(testCtx(t), testClient(t, srv.URL), mask); err != nil {
					t.Fatal(err)
				}
				patch := rec.all()[0]
				got, sent := patch.Query["updateMask"]
				if want := strings.Join(mask, ","); (mask == nil) == sent || (sent && got[0] != want) {
					t.Errorf("PATCH ?%s; want updateMask %q", patch.RawQuery, want)
				}
			})
		}
	}
}
