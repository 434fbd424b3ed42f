package state

// Resource ids. Every id in a request path (and the serviceId of a create) is checked against the API's
// rules before anything else sees it, so that a malformed id is a 400 that
// says what is wrong, never a stored name (an id of 40,000 characters made
// the data file refuse the key with a 500; %FF%FE was stored as U+FFFD, so
// the resource could not be reached under its own path after a restart).

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
)

// IDRule is what one kind of resource id (a path segment) must look like.
type IDRule struct {
	field string // the name's part, as a field violation names it
	re    *regexp.Regexp
	max   int    // bytes; every rule is ASCII, so also characters
	shape string // the rule, in words
}

// The rules of the ids in the paths of the resources.
var (
	// Google requires project ids of 6 to 30 characters; the bundled server
	// accepts shorter ones, so that local tests can use names like "p1".
	ProjectRule = IDRule{"project", regexp.MustCompile(`^([a-z]([a-z0-9-]*[a-z0-9])?|[0-9]+)$`), 30,
		"a project id (lower-case letters, digits and hyphens, starting with a letter and not ending with a hyphen, at most 30 characters) or a project number"}
	LocationRule = IDRule{"location", regexp.MustCompile(`^[a-z]([a-z0-9-]*[a-z0-9])?$`), 63,
		"a location id such as global or us-central1 (lower-case letters, digits and hyphens, starting with a letter and not ending with a hyphen, at most 63 characters)"}
	// Agents and MCP servers take the id of the service they derive from.
	ServiceRule = IDRule{"service_id", serviceIDRE, 63,
		"4 to 63 lower-case letters, digits and hyphens, starting with a letter and not ending with a hyphen"}
	OperationRule = IDRule{"operation", regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`), 128,
		"letters, digits, hyphens and underscores, at most 128 characters"}
	ApplicationRule = IDRule{"application", workloadIDRE, 63,
		"lower-case letters, digits and hyphens, starting with a letter and not ending with a hyphen, at most 63 characters"}
	WorkloadRule = IDRule{"workload", workloadIDRE, 63, ApplicationRule.shape}
	// The ids of records Google discovers or produces (AI applications,
	// findings), which the document does not describe: ASCII letters, digits,
	// dots, hyphens and underscores.
	DiscoveredRule = IDRule{"id", regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`), 128,
		"letters, digits, dots, hyphens and underscores, at most 128 characters"}
	// Schema ids are names such as apphub.googleapis.com/AgentProperties.
	SchemaRule = IDRule{"extended_metadata_schema", regexp.MustCompile(`^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$`), 256,
		"a schema name such as " + AgentPropertiesKey}
)

// Check returns nil when v follows the rule, else an INVALID_ARGUMENT that
// says why (and quotes at most the start of a long id).
func (r IDRule) Check(v string) error {
	var why string
	switch {
	case !utf8.ValidString(v):
		why = "is not valid UTF-8"
	case termsafe.HasControl(v):
		why = "contains a control character"
	case v == "." || v == ".." || strings.HasPrefix(v, "../") || strings.HasSuffix(v, "/..") || strings.Contains(v, "/../"):
		why = "is a relative path"
	case len(v) > r.max:
		why = fmt.Sprintf("is %d characters long; the limit is %d", utf8.RuneCountInString(v), r.max)
	case !r.re.MatchString(v):
		why = "must be " + r.shape
	default:
		return nil
	}
	shown := v
	if len(shown) > 64 {
		shown = shown[:64] + "..."
	}
	return Violations(fmt.Sprintf("the %s %q %s", r.field, shown, why), []FieldViolation{{Field: r.field, Description: why}})
}
