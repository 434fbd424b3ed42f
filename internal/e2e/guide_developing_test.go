package e2e

import (
	"errors"
	"regexp"
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

var goTestCommand = regexp.MustCompile(`^(?:[A-Z_]+=(?:\$\([^)]*\)|[^\s$])+ +)*go test `)

// developingNotRun: the guide "Developing the provider" runs the suite by
// hand, and a test cannot run the suite it is part of; each such block must
// run go test and nothing else.
func developingNotRun() []testkit.NotRun {
	return []testkit.NotRun{{In: "## The suite is `go test`", Match: "go test", Reason: testkit.Because("the suite itself, which runs this test",
		func(b testkit.Block) error {
			for _, command := range strings.Split(strings.ReplaceAll(b.Text, "\\\n", " "), "\n") {
				if strings.TrimSpace(command) != "" && !goTestCommand.MatchString(command) {
					return errors.New("it runs more than go test: " + command)
				}
			}
			return nil
		})}}
}
