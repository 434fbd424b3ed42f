package state

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
)

// A logged value is whole up to maxLogged bytes; past it, its first
// maxLogged bytes cut back to a rune boundary, and its length. A value that
// is not UTF-8 at all is cut to nothing rather than past its start.
func TestClip(t *testing.T) {
	at := strings.Repeat("a", maxLogged)
	straddling := strings.Repeat("a", maxLogged-1) + "é" // é's second byte is byte maxLogged
	notUTF8 := strings.Repeat("\x80", maxLogged+10)
	for in, want := range map[string]string{
		at:         at,
		at + "b":   at + "... (257 bytes)",
		straddling: strings.Repeat("a", maxLogged-1) + "... (257 bytes)",
		notUTF8:    "... (266 bytes)",
	} {
		if got := Clip(in); got != want {
			t.Errorf("Clip of %d bytes = %.40q (%d bytes), want %.40q", len(in), got, len(got), want)
		}
	}
}

// An error reads as its code and its message wherever it is printed as an
// error (a log line, an error that wraps it).
func TestErrorText(t *testing.T) {
	err := fmt.Errorf("loading: %w", errNotFound("Service %q was not found.", "s"))
	if got, want := err.Error(), `loading: NOT_FOUND: Service "s" was not found.`; got != want {
		t.Errorf("error text %q, want %q", got, want)
	}
}

// Everything the state holds is in its data file: after a restart the
// services (and the records derived from them), bindings, workloads, skills
// and revisions are as they were; a record the file cannot give back fails
// the start, naming it.
func TestStateSurvivesARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	s := openFile(t, path)
	view(t)(s.CreateService("", parent, "planner", agentService("Planner", "Plans trips.")))
	view(t)(s.CreateBinding("", parent, "planner-flights", newBinding(urnPlanner, urnFlights)))
	view(t)(s.UpdateWorkload("", workloadName, "displayName", true, &resource.Workload{DisplayName: "W"}))
	view(t)(s.CreateSkill("", parent, "pdf-tools", withRevision(t, "first")))
	mustClose(t, s)
	s = openFile(t, path)
	if svc, err := s.Service(parent + "/services/planner"); err != nil || svc.DisplayName != "Planner" {
		t.Errorf("the service after a restart: %+v %v", svc, err)
	}
	var a resource.Agent
	getDerived(t, s, KindAgent, parent+"/agents/planner", &a)
	if node, _ := search.ParseQuery("trips", KindAgent.Fields()); a.Description != "Plans trips." {
		t.Errorf("the agent after a restart: %+v", a)
	} else if ids, _, err := s.Snapshot(KindAgent, parent).Page(context.Background(), node, nil, nil, 10); err != nil || len(ids) != 1 {
		t.Errorf("the agent is not found after a restart: %v %v", ids, err)
	}
	if b, err := s.Binding(parent + "/bindings/planner-flights"); err != nil || b.Source.Identifier != urnPlanner {
		t.Errorf("the binding after a restart: %+v %v", b, err)
	}
	if w, err := s.Workload(workloadName); err != nil || w.DisplayName != "W" {
		t.Errorf("the workload after a restart: %+v %v", w, err)
	}
	if sk, err := s.Skill(parent + "/skills/pdf-tools"); err != nil || sk.DefaultRevision == "" {
		t.Errorf("the skill after a restart: %+v %v", sk, err)
	} else if _, err := s.Revision(sk.DefaultRevision); err != nil {
		t.Errorf("the revision after a restart: %v", err)
	}
	mustClose(t, s)
	for _, bucket := range []string{bucketServices, bucketWorkloads, bucketBindings, bucketOperations, bucketRequests, bucketSkills, bucketSkillRevisions} {
		copied := filepath.Join(t.TempDir(), "data.db")
		b, err := os.ReadFile(path)
		if err == nil {
			err = os.WriteFile(copied, b, 0o600)
		}
		if err != nil {
			t.Fatal(err)
		}
		db, err := bolt.Open(copied, 0o600, nil)
		if err == nil {
			err = db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte(bucket)).Put([]byte("broken"), []byte("{")) })
			mustClose(t, db)
		}
		if err != nil {
			t.Fatal(err)
		}
		if s, err := Open(Options{DataPath: copied}); err == nil {
			mustClose(t, s)
			t.Errorf("a broken record in %s: the start served", bucket)
		} else if !strings.Contains(err.Error(), "broken") || !strings.Contains(err.Error(), copied) {
			t.Errorf("a broken record in %s: %v, want it and the file named", bucket, err)
		}
	}
}

// The locations of a project are global and those where it holds a
// service, a binding, a skill or a workload, in name order, once each.
func TestLocationsOf(t *testing.T) {
	s := open(t, Options{})
	view(t)(s.CreateService("", "projects/p1/locations/us-east1", "svc-one", endpointService()))
	view(t)(s.CreateService("", "projects/p1/locations/us-east1", "svc-two", endpointService()))
	view(t)(s.CreateBinding("", "projects/p1/locations/europe-west1", "b-one", newBinding("", urnFlights)))
	view(t)(s.CreateSkill("", "projects/p1/locations/asia-east1", "pdf-tools", activeSkill()))
	view(t)(s.UpdateWorkload("", "projects/p1/locations/africa-south1/applications/a/workloads/w", "displayName", true, &resource.Workload{DisplayName: "W"}))
	view(t)(s.CreateService("", "projects/p2/locations/elsewhere", "svc-one", endpointService()))
	want := "africa-south1 asia-east1 europe-west1 global us-east1"
	var got []string
	for _, name := range s.LocationsOf("projects/p1") {
		got = append(got, LastSegment(name))
	}
	if strings.Join(got, " ") != want {
		t.Errorf("locations %v, want %s", got, want)
	}
}

// services.list filters on a service's name, display name and description.
func TestListServicesFilter(t *testing.T) {
	s := open(t, Options{})
	for id, desc := range map[string]string{"invoices": "Sends invoices.", "flights": "Books flights."} {
		svc := endpointService()
		svc.Description = desc
		view(t)(s.CreateService("", parent, id, svc))
	}
	for filter, want := range map[string]int{"invoices": 1, `description:"books flights"`: 1, "name:services": 2, "nothing": 0} {
		node, err := search.ParseQuery(filter, ServiceFields)
		if err != nil {
			t.Fatal(err)
		}
		if l, _, err := s.ListServices(context.Background(), parent, node, nil, 10); err != nil || len(l) != want {
			t.Errorf("filter %q: %d services (%v), want %d", filter, len(l), err, want)
		}
	}
}

// A state cannot open a data file another one holds (bbolt's file lock): it
// gives up with an error after its lock timeout (two seconds, which this
// test waits) instead of hanging until the other lets go.
func TestDataFileHeldByAnotherState(t *testing.T) {
	t.Parallel() // overlaps with the other tests: every mutant of make mutation runs the package
	path := filepath.Join(t.TempDir(), "data.db")
	first := openFile(t, path)
	defer mustClose(t, first)
	start := time.Now()
	second, err := Open(Options{DataPath: path})
	if err == nil {
		mustClose(t, second)
		t.Fatal("a second state opened a data file the first one holds")
	}
	if !errors.Is(err, berrors.ErrTimeout) || time.Since(start) < time.Second {
		t.Errorf("error %v after %s, want bbolt's lock timeout after two seconds", err, time.Since(start))
	}
}
