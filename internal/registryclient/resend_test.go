package registryclient_test

// Update and delete sent again, against the bundled server, through the faults
// a real registry shows: a connection dropped after the server committed the
// write (the transport sends the same request again) and an operation whose
// polls fail with 503 until the transport gives up (the client sends the write
// again, up to its limit). Every send of one logical call must carry the same
// requestId, so the server applies it once; the next call must carry another.

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/registryservertest"
)

// The server's operations never finish during a test (the writes themselves
// are committed at once), so every write is polled, and every poll fails.
const neverDone = time.Hour

// clock is the server's clock in these tests: seed moves it past the
// operations of its creates, whose services are visible only once those are
// done, so that the updates and deletes find them; the operations of the
// writes under test never finish.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func startResendServer(t *testing.T) (*registryservertest.Server, *registryclient.Client, *clock) {
	clk := &clock{t: time.Now()}
	srv, c := startServerWith(t, registryserver.Options{OperationDelay: neverDone, Now: clk.now})
	return srv, c, clk
}

// writeIDs lists the requestId of every accepted request with this method on
// a path ending in suffix, in order.
func writeIDs(srv *registryservertest.Server, method, suffix string) []string {
	var ids []string
	for _, r := range srv.Requests() {
		if r.Method == method && strings.HasSuffix(r.Path, suffix) {
			ids = append(ids, r.Query.Get("requestId"))
		}
	}
	return ids
}

func allSame(ids []string) bool {
	for _, id := range ids {
		if id == "" || id != ids[0] {
			return false
		}
	}
	return len(ids) > 0
}

// seed creates services without waiting for their operations, then moves
// the server's clock past them.
func seed(t *testing.T, c *registryclient.Client, clk *clock, card []byte, ids ...string) {
	t.Helper()
	for _, id := range ids {
		if _, err := c.Registry().Projects.Locations.Services.Create(parent, agentSvc(card)).ServiceId(id).Context(ctxFor(t)).Do(); err != nil {
			t.Fatalf("create %s: %v", id, err)
		}
	}
	clk.mu.Lock()
	clk.t = clk.t.Add(neverDone)
	clk.mu.Unlock()
}

// The first send is committed and its answer lost (the transport sends it
// again); then every poll answers 503 until the transport gives up, so the
// client sends the write again, twice: four sends of one logical call.
func injectResendFaults(srv *registryservertest.Server, method string) {
	srv.InjectFault(registryservertest.Fault{Method: method, PathContains: "/services/", DropAfterCommit: true, Times: 1})
	srv.InjectFault(registryservertest.Fault{Method: "GET", PathContains: "/operations/", Status: 503})
}

func isUnavailable(err error) bool {
	var ae *registryclient.APIError
	return errors.As(err, &ae) && ae.Code == 503
}

// nextCallID makes one more call with faults cleared and a short deadline (its
// operation never finishes) and returns the requestIds it sent.
func nextCallID(t *testing.T, srv *registryservertest.Server, method, suffix string, call func(ctx context.Context) error) []string {
	t.Helper()
	srv.ClearFaults()
	srv.ResetRequests()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_ = call(ctx)
	return writeIDs(srv, method, suffix)
}

func TestIntegrationUpdateServiceIsSentAgainWithTheSameRequestID(t *testing.T) {
	srv, c, clk := startResendServer(t)
	ctx := ctxFor(t)
	card := readTestdata(t, "card/valid-0.3.json")
	seed(t, c, clk, card, "invoice-helper")

	injectResendFaults(srv, "PATCH")
	srv.ResetRequests()
	upd := agentSvc(card)
	upd.Name = invoiceSvc
	upd.Description = "Now with refunds."
	if _, err := c.UpdateService(ctx, upd, []string{"description"}); !isUnavailable(err) {
		t.Fatalf("UpdateService with every poll failing: err = %v, want 503", err)
	}
	first := writeIDs(srv, "PATCH", "/services/invoice-helper")
	if len(first) != 4 || !allSame(first) {
		t.Fatalf("PATCH requestIds of one update = %q, want four equal ones", first)
	}
	// Applied once, as the retries carried its requestId.
	if got, err := c.Registry().Projects.Locations.Services.Get(invoiceSvc).Context(ctx).Do(); err != nil || got.Description != "Now with refunds." {
		t.Errorf("service after the update = %+v, %v", got, err)
	}

	upd.Description = "And credit notes."
	second := nextCallID(t, srv, "PATCH", "/services/invoice-helper", func(ctx context.Context) error {
		_, err := c.UpdateService(ctx, upd, []string{"description"})
		return err
	})
	if len(second) != 1 || second[0] == "" || second[0] == first[0] {
		t.Errorf("requestId of the next update = %q, want one new id (the first update used %q)", second, first[0])
	}
}

func TestIntegrationDeleteServiceIsSentAgainWithTheSameRequestID(t *testing.T) {
	srv, c, clk := startResendServer(t)
	card := readTestdata(t, "card/valid-0.3.json")
	seed(t, c, clk, card, "invoice-helper", "refund-helper")

	injectResendFaults(srv, "DELETE")
	srv.ResetRequests()
	if err := c.DeleteService(ctxFor(t), invoiceSvc); !isUnavailable(err) {
		t.Fatalf("DeleteService with every poll failing: err = %v, want 503", err)
	}
	first := writeIDs(srv, "DELETE", "/services/invoice-helper")
	if len(first) != 4 || !allSame(first) {
		t.Fatalf("DELETE requestIds of one delete = %q, want four equal ones", first)
	}
	if _, err := c.GetService(ctxFor(t), invoiceSvc); !registryclient.IsNotFound(err) {
		t.Errorf("GetService after the delete: err = %v, want NOT_FOUND", err)
	}

	second := nextCallID(t, srv, "DELETE", "/services/refund-helper", func(ctx context.Context) error {
		return c.DeleteService(ctx, parent+"/services/refund-helper")
	})
	if len(second) != 1 || second[0] == "" || second[0] == first[0] {
		t.Errorf("requestId of the next delete = %q, want one new id (the first delete used %q)", second, first[0])
	}
}
