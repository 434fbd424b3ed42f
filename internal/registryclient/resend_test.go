package registryclient_test

// Update and delete sent again, against the bundled server, through the faults
// a real registry shows: a connection dropped after the server committed the
// write (the transport sends the same request again) and an operation whose
// polls fail with 503 until the transport gives up (the client sends the write
// again). Every send of one logical call must carry the same requestId, so the
// server applies it once; the next call must carry another one.

import (
	"strings"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/registryservertest"
)

// pollsFailing answers as many operation polls with 503 as the transport
// retries once (RetryMax 6 by default, so 7 attempts), so the poll fails and
// the write is sent again.
const pollsFailing = 7

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

func injectResendFaults(srv *registryservertest.Server, method string) {
	srv.InjectFault(registryservertest.Fault{Method: method, PathContains: "/services/", DropAfterCommit: true, Times: 1})
	srv.InjectFault(registryservertest.Fault{Method: "GET", PathContains: "/operations/", Status: 503, Times: pollsFailing})
}

func TestIntegrationUpdateServiceIsSentAgainWithTheSameRequestID(t *testing.T) {
	srv, c := startServer(t, 10*time.Millisecond)
	ctx := ctxFor(t)
	card := readTestdata(t, "card/valid-0.3.json")
	if _, err := c.CreateService(ctx, parent, "invoice-helper", agentSvc(card)); err != nil {
		t.Fatalf("CreateService: %v", err)
	}

	injectResendFaults(srv, "PATCH")
	srv.ResetRequests()
	upd := agentSvc(card)
	upd.Name = invoiceSvc
	upd.Description = "Now with refunds."
	got, err := c.UpdateService(ctx, upd, []string{"description"})
	if err != nil || got.Description != "Now with refunds." {
		t.Fatalf("UpdateService through faults = %+v, %v", got, err)
	}
	// The dropped PATCH, its re-send by the transport, and the re-send after
	// the polls failed.
	first := writeIDs(srv, "PATCH", "/services/invoice-helper")
	if len(first) != 3 || !allSame(first) {
		t.Fatalf("PATCH requestIds of one update = %q, want three equal ones", first)
	}

	srv.ClearFaults()
	srv.ResetRequests()
	upd.Description = "And credit notes."
	if _, err := c.UpdateService(ctx, upd, []string{"description"}); err != nil {
		t.Fatalf("second UpdateService: %v", err)
	}
	second := writeIDs(srv, "PATCH", "/services/invoice-helper")
	if len(second) != 1 || second[0] == "" || second[0] == first[0] {
		t.Errorf("requestId of the next update = %q, want one new id (the first update used %q)", second, first[0])
	}
	svc, err := c.GetService(ctx, invoiceSvc)
	if err != nil || svc.Description != "And credit notes." {
		t.Errorf("GetService after the updates = %+v, %v", svc, err)
	}
}

func TestIntegrationDeleteServiceIsSentAgainWithTheSameRequestID(t *testing.T) {
	srv, c := startServer(t, 10*time.Millisecond)
	ctx := ctxFor(t)
	card := readTestdata(t, "card/valid-0.3.json")
	for _, id := range []string{"invoice-helper", "refund-helper"} {
		if _, err := c.CreateService(ctx, parent, id, agentSvc(card)); err != nil {
			t.Fatalf("CreateService(%s): %v", id, err)
		}
	}

	injectResendFaults(srv, "DELETE")
	srv.ResetRequests()
	if err := c.DeleteService(ctx, invoiceSvc); err != nil {
		t.Fatalf("DeleteService through faults: %v", err)
	}
	first := writeIDs(srv, "DELETE", "/services/invoice-helper")
	if len(first) != 3 || !allSame(first) {
		t.Fatalf("DELETE requestIds of one delete = %q, want three equal ones", first)
	}
	if _, err := c.GetService(ctx, invoiceSvc); !registryclient.IsNotFound(err) {
		t.Errorf("GetService after the delete: err = %v, want NOT_FOUND", err)
	}

	srv.ClearFaults()
	srv.ResetRequests()
	if err := c.DeleteService(ctx, parent+"/services/refund-helper"); err != nil {
		t.Fatalf("second DeleteService: %v", err)
	}
	second := writeIDs(srv, "DELETE", "/services/refund-helper")
	if len(second) != 1 || second[0] == "" || second[0] == first[0] {
		t.Errorf("requestId of the next delete = %q, want one new id (the first delete used %q)", second, first[0])
	}
}
