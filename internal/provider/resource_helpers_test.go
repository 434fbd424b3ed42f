package provider

// Helpers shared by the resource acceptance tests (resource_*_test.go).

import (
	"context"
	"fmt"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/registryservertest"
)

const resTestParent = "projects/test-project/locations/global"

// resRegistry is a bundled registry server started for one test, with an
// official client to change records behind Terraform's back.
type resRegistry struct {
	srv    *registryservertest.Server
	ts     *httptest.Server
	client *registryclient.Client
}

func startResRegistry(t *testing.T) *resRegistry {
	t.Helper()
	srv, ts := registryservertest.Start(t, registryserver.Options{})
	client, err := registryclient.New(context.Background(), registryclient.Config{Endpoint: ts.URL, AppHubEndpoint: ts.URL})
	if err != nil {
		t.Fatalf("client: %v", err)
	}
	return &resRegistry{srv: srv, ts: ts, client: client}
}

func (r *resRegistry) config(body string) string { return providerConfig(r.ts.URL) + body }

// writes lists the write requests (POST, PATCH, DELETE) the server received,
// other than polls of operations.
func (r *resRegistry) writes() []string {
	var out []string
	for _, req := range r.srv.Requests() {
		switch req.Method {
		case "POST", "PATCH", "DELETE", "PUT":
			out = append(out, req.Method+" "+req.Path)
		}
	}
	return out
}

// writesOf lists the write requests of one method.
func (r *resRegistry) writesOf(method string) []string {
	var out []string
	for _, w := range r.writes() {
		if strings.HasPrefix(w, method+" ") {
			out = append(out, w)
		}
	}
	return out
}

// expectNoWrites fails the test when any write request reached the server.
func (r *resRegistry) expectNoWrites(t *testing.T) {
	t.Helper()
	if w := r.writes(); len(w) > 0 {
		t.Errorf("expected no write request to reach the registry, got %v", w)
	}
}

// noPatchCheck is a state check that fails when a PATCH reached the server
// since the last ResetRequests (called in the step's PreConfig).
type noPatchCheck struct{ r *resRegistry }

func (c noPatchCheck) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if p := c.r.writesOf("PATCH"); len(p) > 0 {
		resp.Error = fmt.Errorf("a reformatted document must not cost an API call, but the registry received %v", p)
	}
}

// patchMaskCheck is a state check that fails unless exactly one PATCH reached
// the server since the last ResetRequests, with exactly the given updateMask
// fields (in any order).
type patchMaskCheck struct {
	r    *resRegistry
	want []string
}

func (c patchMaskCheck) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	var masks []string
	for _, req := range c.r.srv.Requests() {
		if req.Method == "PATCH" {
			masks = append(masks, req.Query.Get("updateMask"))
		}
	}
	want := append([]string(nil), c.want...)
	sort.Strings(want)
	if len(masks) != 1 {
		resp.Error = fmt.Errorf("expected one PATCH with updateMask %v, got updateMasks %q", want, masks)
		return
	}
	got := strings.Split(masks[0], ",")
	sort.Strings(got)
	if !slices.Equal(got, want) {
		resp.Error = fmt.Errorf("the PATCH's updateMask is %q, want the fields %v: only what changed", masks[0], want)
	}
}

// sawPatchCheck is a state check that fails unless a PATCH reached the server
// since the last ResetRequests; it shows that noPatchCheck can fail.
type sawPatchCheck struct{ r *resRegistry }

func (c sawPatchCheck) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if len(c.r.writesOf("PATCH")) == 0 {
		resp.Error = fmt.Errorf("expected the update to send a PATCH, got writes %v", c.r.writes())
	}
}
