package state

import (
	"slices"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
)

// An update mask arrives in camelCase (the REST mapping) or snake_case; both
// become snake_case paths, every capital letter A to Z included, and empty
// parts are dropped; a backquoted map key (AIP-161) is kept as sent.
func TestMaskPaths(t *testing.T) {
	for mask, want := range map[string][]string{
		"displayName,agentSpec.content": {"display_name", "agent_spec.content"},
		" description , ,":              {"description"},
		"display_name,mcp_server_spec":  {"display_name", "mcp_server_spec"},
		"Alpha,zuluZ,AZ":                {"_alpha", "zulu_z", "_a_z"},
		"":                              nil,
		"a.`Key,With.Caps`,bB":          {"a.`Key,With.Caps`", "b_b"},
		"workloadProperties.extendedMetadata.`apphub.googleapis.com/AgentProperties`": {
			"workload_properties.extended_metadata.`apphub.googleapis.com/AgentProperties`"},
	} {
		if got := maskPaths(mask); !slices.Equal(got, want) {
			t.Errorf("maskPaths(%q) = %q, want %q", mask, got, want)
		}
	}
}

// creates are the creates whose checks run before the write lock, each
// making the record id of parent under the request id reqID.
func creates() map[string]func(s *State, reqID, id string) (Operation, error) {
	return map[string]func(s *State, reqID, id string) (Operation, error){
		"service": func(s *State, reqID, id string) (Operation, error) {
			return s.CreateService(reqID, parent, id, agentService("Held Agent", "Held in its checks."))
		},
		"binding": func(s *State, reqID, id string) (Operation, error) {
			return s.CreateBinding(reqID, parent, id, newBinding("", "urn:mcp:acme:travel:flights"))
		},
		"skill": func(s *State, reqID, id string) (Operation, error) {
			return s.CreateSkill(reqID, parent, id, activeSkill())
		},
	}
}

// result is what a write returned.
type result struct {
	op  Operation
	err error
}

// holdChecks makes the creates of s stop in their checks: each sends the
// name it checks on entered, then waits for release to be closed.
func holdChecks(s *State) (entered chan string, release chan struct{}) {
	entered, release = make(chan string, 2), make(chan struct{})
	s.onValidate = func(name string) {
		entered <- name
		<-release
	}
	return entered, release
}

// lockFreeWhileChecked waits for a create to enter its checks and returns
// the name it checks; the test fails, releasing the creates, when the lock
// is held then. The lock is tried, never waited for: a read that waited for
// a create held in its checks would never return.
func lockFreeWhileChecked(t *testing.T, s *State, entered chan string, release chan struct{}) string {
	t.Helper()
	name := <-entered
	if !s.mu.TryRLock() {
		close(release)
		t.Fatalf("the write lock is held while the create of %s checks it", name)
	}
	s.mu.RUnlock()
	return name
}

// A create checks what it was sent before its write takes the lock: while a
// service, binding or skill create is held inside its checks, the lock is
// free and reads answer. Released, the create completes, and
// its retry replays its operation.
func TestCreate_checksBeforeTheWriteLock(t *testing.T) {
	for kind, create := range creates() {
		t.Run(kind, func(t *testing.T) {
			s := open(t, Options{})
			opName(t)(s.CreateService("", parent, "present", endpointService()))
			entered, release := holdChecks(s)
			done := make(chan result, 1)
			go func() {
				op, err := create(s, "7f8d2e4c-1b3a-4c5d-9e6f-0a1b2c3d4e5f", "held-one")
				done <- result{op, err}
			}()
			name := lockFreeWhileChecked(t, s, entered, release)
			if _, err := s.Service(parent + "/services/present"); err != nil {
				t.Fatalf("a read while %s is checked: %v", name, err)
			}
			if svcs, _, err := s.ListServices(t.Context(), parent, nil, nil, 10); err != nil || len(svcs) != 1 {
				t.Fatalf("a list while %s is checked: %d services, %v", name, len(svcs), err)
			}
			close(release)
			r := <-done
			first := opName(t)(r.op, r.err)
			s.onValidate = nil
			if again := opName(t)(create(s, "7f8d2e4c-1b3a-4c5d-9e6f-0a1b2c3d4e5f", "held-one")); again != first {
				t.Errorf("the retried create answered operation %s, want its first, %s", again, first)
			}
		})
	}
}

// Two creates of one name checked at the same time register it once: the
// second to take the lock finds the name taken.
func TestCreate_checkedTogetherRegisteredOnce(t *testing.T) {
	for kind, create := range creates() {
		t.Run(kind, func(t *testing.T) {
			s := open(t, Options{})
			entered, release := holdChecks(s)
			errs := make(chan error, 2)
			for _, reqID := range []string{"2a6e0f1c-7d8b-4e9a-8c3d-5b4a6f7e8d9c", "9c1d3e5f-2a4b-4c6d-8e0f-1a2b3c4d5e6f"} {
				go func() {
					_, err := create(s, reqID, "twice-made")
					errs <- err
				}()
			}
			lockFreeWhileChecked(t, s, entered, release)
			lockFreeWhileChecked(t, s, entered, release)
			close(release)
			first, second := <-errs, <-errs
			if first != nil {
				first, second = second, first
			}
			if first != nil {
				t.Fatalf("neither create succeeded: %v", first)
			}
			wantCode(t, second, AlreadyExists, "twice-made")
		})
	}
}

// A create whose checks fail answers as if they had run under the lock: a
// retry of a create that succeeded replays its operation, and a name taken
// is ALREADY_EXISTS, whatever the body lacks.
func TestCreate_checksAnswerAfterReplayAndName(t *testing.T) {
	s := open(t, Options{})
	const reqID = "5e4d3c2b-1a0f-4e9d-8c7b-6a5f4e3d2c1b"
	first := opName(t)(s.CreateService(reqID, parent, "taken-svc", endpointService()))
	if again := opName(t)(s.CreateService(reqID, parent, "taken-svc", &resource.Service{})); again != first {
		t.Errorf("the retried create answered operation %s, want its first, %s", again, first)
	}
	_, err := s.CreateService("", parent, "taken-svc", &resource.Service{})
	wantCode(t, err, AlreadyExists, "taken-svc")
	opName(t)(s.CreateBinding("", parent, "taken-binding", newBinding("", urnFlights)))
	_, err = s.CreateBinding("", parent, "taken-binding", &resource.Binding{})
	wantCode(t, err, AlreadyExists, "taken-binding")
}
