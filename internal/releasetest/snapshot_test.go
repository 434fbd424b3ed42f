package releasetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The release the tests install is built once per run and shared.
var (
	snapshotOnce    sync.Once
	snapshotDir     string // the temporary dist folder, removed by TestMain
	snapshotRelease *release
	snapshotFailure string
)

func TestMain(m *testing.M) {
	code := testkit.Main(m)
	if snapshotDir != "" {
		_ = os.RemoveAll(snapshotDir)
	}
	os.Exit(code)
}

// builtRelease gives the release the tests serve. RELEASE_DIST names a dist
// folder that `make release-snapshot` wrote (every platform); otherwise
// scripts/release-snapshot.sh builds one for the host platform only
// (SINGLE_TARGET=1, what `make test` can afford), signed with a key made for it.
func builtRelease(t *testing.T) *release {
	t.Helper()
	if dist := os.Getenv("RELEASE_DIST"); dist != "" {
		return readRelease(t, dist)
	}
	snapshotOnce.Do(func() { buildSnapshot(t) })
	switch {
	case snapshotFailure != "":
		t.Fatal(snapshotFailure)
	case snapshotRelease == nil:
		t.Fatal("the snapshot's build failed in an earlier test: see its output")
	}
	return snapshotRelease
}

func buildSnapshot(t *testing.T) {
	// Not t.TempDir: the snapshot outlives the test that builds it, and every
	// test of the run shares it; TestMain removes it.
	dir, err := os.MkdirTemp("", "agentregistry-release-") //nolint:usetesting // see above
	if err != nil {
		snapshotFailure = err.Error()
		return
	}
	snapshotDir = dir
	dist := filepath.Join(dir, "dist")
	cmd := exec.Command(filepath.Join(testkit.Root(t), "scripts", "release-snapshot.sh"))
	cmd.Env = append(os.Environ(), "DIST="+dist, "SINGLE_TARGET=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		snapshotFailure = "scripts/release-snapshot.sh failed: " + err.Error() + "\n" + string(out)
		return
	}
	snapshotRelease = readRelease(t, dist)
}
