package registryclient_test

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

func skillArchive(t *testing.T, desc string) []byte {
	t.Helper()
	b, err := skillpkg.Zip(map[string][]byte{"SKILL.md": []byte("---\nname: pdf-tools\ndescription: " + desc + "\n---\n")})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSkillsAgainstServer drives every skills method through operations
// that report done only after polling.
func TestSkillsAgainstServer(t *testing.T) {
	_, c := startServer(t, 30*time.Millisecond)
	ctx := t.Context()
	sk, err := c.CreateSkill(ctx, parent, "pdf-tools", &agentregistry.Skill{
		Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE", InitialRevision: registryclient.ArchiveRevision(skillArchive(t, "Fill PDF forms.")),
	})
	if err != nil || sk.DefaultRevision == "" {
		t.Fatalf("create: %+v %v", sk, err)
	}
	rev, err := c.CreateSkillRevision(ctx, sk.Name, registryclient.ArchiveRevision(skillArchive(t, "Merge PDFs.")))
	if err != nil || !strings.HasSuffix(rev.Name, "/rev-2") || rev.Sha256Hash == "" {
		t.Fatalf("revision: %+v %v", rev, err)
	}
	sk.TargetState = "TARGET_STATE_DISABLED"
	if sk, err = c.UpdateSkill(ctx, sk, []string{"targetState"}); err != nil || sk.State != "STATE_DISABLED" {
		t.Fatalf("update: %+v %v", sk, err)
	}
	found, err := c.SearchSkills(ctx, parent, "merge", "SEMANTIC", 0)
	if err != nil || len(found) != 1 {
		t.Fatalf("search: %v %v", found, err)
	}
	if err := c.DeleteSkill(ctx, sk.Name, true); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetSkill(ctx, sk.Name); !registryclient.IsNotFound(err) {
		t.Fatalf("after delete: %v", err)
	}
}
