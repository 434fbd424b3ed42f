package e2e

import (
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

func driftNotRun(root string) []testkit.NotRun {
	return []testkit.NotRun{
		{In: "## The job", Reason: testkit.RunBy(root, "TestAccGuideDriftJob")},
		{In: "## Installing the provider on the runner: `-plugin-dir` or `filesystem_mirror`", Reason: testkit.RunBy(root, "TestAccInstall_offline")},
	}
}
