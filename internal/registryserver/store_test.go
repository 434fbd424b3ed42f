package registryserver_test

import (
	"errors"
	"path/filepath"
	"testing"

	berrors "go.etcd.io/bbolt/errors"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

// TestDataFileHeldByAnotherServer: a server cannot open a data file another
// one holds (bbolt's file lock); it gives up with an error after its lock
// timeout (two seconds, which this test waits) instead of hanging until the
// other lets go.
func TestDataFileHeldByAnotherServer(t *testing.T) {
	t.Parallel() // overlaps with the other slow tests: every mutant of make mutation runs the package
	path := filepath.Join(t.TempDir(), "data.db")
	first, err := registryserver.New(registryserver.Options{DataPath: path})
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, first)
	second, err := registryserver.New(registryserver.Options{DataPath: path})
	if err == nil {
		mustClose(t, second)
		t.Fatal("a second server opened a data file the first one holds")
	}
	if !errors.Is(err, berrors.ErrTimeout) {
		t.Errorf("error %v, want bbolt's lock timeout", err)
	}
}
