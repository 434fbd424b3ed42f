// Package state is the bundled registry server's state: what the registry
// holds (services, the records derived from them, bindings, workloads,
// skills and their revisions, operations and request ids), kept in memory
// and, with a data file, on disk; and every change to it. It imports no
// net/http: the server's handlers decode a request, call a method here, and
// encode what it returns or the *Error it fails with. A write (create,
// update or delete) goes through one pipeline (pipeline.go) that owns the
// lock, the replay of a retried request id, the commit to the data file and
// the archives beside it, and returns the write's long-running operation.
// Validation is pure functions of the records (services.go, bindings.go,
// workloads.go, skills.go, revisions.go, ids.go).
package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
)

// Options configure a State.
type Options struct {
	// DataPath is the bbolt file that holds the state; "" keeps it in memory.
	DataPath string
	// OperationDelay is how long a long-running operation reports done:false
	// before completing; a resource it creates is visible once it is done.
	// 0 returns operations that are already done.
	OperationDelay time.Duration
	// Logger receives the faults the state gets past (a record it cannot
	// encode). nil discards.
	Logger *slog.Logger
	// Now is the clock, for operation times and the expiry of operations and
	// request ids; nil is time.Now.
	Now func() time.Time
	// MaxUploads caps the skill and revision creates handled at once
	// (UploadSlot). 0 selects 4.
	MaxUploads int
	// AppHubWritable accepts writes of a workload's extendedMetadata (the
	// AgentProperties entry), so that tests can seed what App Hub would derive
	// from a deployed agent. Off, the state does as Google's App Hub does:
	// the field is output only, and a PATCH naming it stores nothing.
	AppHubWritable bool
}

// State is what the registry holds. It is safe for concurrent use.
type State struct {
	opts  Options
	log   *slog.Logger
	store *store
	now   func() time.Time
	// onValidate is nil but in tests, which hold a create's checks open
	// with it: it is called as a create starts checking what it was sent.
	onValidate func(name string)

	// mu guards the state below. Writes hold it exclusively for the whole
	// call, including the fsync, which serialises writes (bbolt has a
	// single writer anyway) and keeps memory and disk in the same order.
	mu         sync.RWMutex
	services   *collection[*resource.Service]
	encoded    map[string][]byte        // derived record name -> its JSON
	agentIx    map[string]*search.Index // parent -> index of its agents
	mcpIx      map[string]*search.Index // parent -> index of its MCP servers
	endpointIx map[string]*search.Index // parent -> index of its endpoints
	workloads  *collection[*resource.Workload]
	bindings   *collection[*resource.Binding]
	ops        *collection[*opRecord]
	opBytes    map[string]int            // location -> weight of its operations
	reqs       map[string]*requestRecord // by requestKey
	expiry     []expiring                // by time, oldest first
	skills     *skillState
	pending    []pendingCreate // creates not visible yet, by time (visibility.go)
	nextDue    atomic.Int64    // when the first of pending is due, in Unix nanoseconds; 0 when none
}

// Open returns the state, loaded from Options.DataPath when set.
func Open(opts Options) (*State, error) {
	s := &State{
		opts:       opts,
		log:        opts.Logger,
		now:        opts.Now,
		services:   newCollection[*resource.Service]("/services/"),
		encoded:    map[string][]byte{},
		agentIx:    map[string]*search.Index{},
		mcpIx:      map[string]*search.Index{},
		endpointIx: map[string]*search.Index{},
		workloads:  newCollection[*resource.Workload]("/workloads/"),
		bindings:   newCollection[*resource.Binding]("/bindings/"),
		ops:        newCollection[*opRecord]("/operations/"),
		opBytes:    map[string]int{},
		reqs:       map[string]*requestRecord{},
		skills:     newSkillState(opts.MaxUploads),
	}
	s.ops.weigh = (*opRecord).weight
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if opts.DataPath != "" {
		st, err := openStore(opts.DataPath)
		if err != nil {
			return nil, err
		}
		s.store = st
		if err := s.loadState(); err != nil {
			return nil, errors.Join(err, st.close())
		}
	}
	return s, nil
}

// Close releases the data file. The state must not be used after.
func (s *State) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.store.close()
	s.store = nil
	return err
}

// loadState rebuilds memory (records, derived records, indexes) from the store.
func (s *State) loadState() error {
	err := s.store.load(bucketServices, func(k, v []byte) error {
		var svc resource.Service
		if err := json.Unmarshal(v, &svc); err != nil {
			return fmt.Errorf("service %s: %w", k, err)
		}
		s.services.put(svc.Name, &svc)
		s.putDerived(&svc)
		return nil
	})
	if err == nil {
		err = s.store.load(bucketWorkloads, func(k, v []byte) error {
			var wl resource.Workload
			if err := json.Unmarshal(v, &wl); err != nil {
				return fmt.Errorf("workload %s: %w", k, err)
			}
			s.workloads.put(wl.Name, &wl)
			return nil
		})
	}
	if err == nil {
		err = s.store.load(bucketBindings, func(k, v []byte) error {
			var b resource.Binding
			if err := json.Unmarshal(v, &b); err != nil {
				return fmt.Errorf("binding %s: %w", k, err)
			}
			s.bindings.put(b.Name, &b)
			return nil
		})
	}
	if err == nil {
		err = s.loadOperations()
	}
	if err == nil {
		err = s.loadSkills()
	}
	if err != nil {
		return fmt.Errorf("load %s: %w", s.opts.DataPath, err)
	}
	slices.SortStableFunc(s.expiry, func(a, b expiring) int { return a.at.Compare(b.at) })
	return nil
}

// Settle applies the creates whose operations are done by now (see
// visibility.go): the server calls it before it serves a request.
func (s *State) Settle() { s.settle(s.now()) }

// validating marks where a create starts checking the record name, before
// its write takes the lock.
func (s *State) validating(name string) {
	if s.onValidate != nil {
		s.onValidate(name)
	}
}

func (s *State) timestamp() string { return s.now().UTC().Format(time.RFC3339Nano) }

// ParentOf returns projects/{p}/locations/{l} of a resource name.
func ParentOf(name string) string {
	segs := strings.SplitN(name, "/", 5)
	if len(segs) < 4 {
		return ""
	}
	return strings.Join(segs[:4], "/")
}

// LastSegment returns the resource id at the end of a name.
func LastSegment(name string) string { return name[strings.LastIndexByte(name, '/')+1:] }

// withType adds "@type" to a JSON object, as Any-typed fields need.
func withType(typeURL string, v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	head := `{"@type":` + strconv.Quote(typeURL)
	if string(b) == "{}" {
		return json.RawMessage(head + "}"), nil
	}
	return json.RawMessage(head + "," + string(b[1:])), nil
}

// maxLogged is the most of one value a log line or a message quotes.
const maxLogged = 256

// Clip is a value as logged: whole up to maxLogged bytes, else its first
// maxLogged bytes (cut at a rune boundary) and its length, so that a log
// line costs at most a few hundred bytes per value whatever a client sends.
func Clip(v string) string {
	if len(v) <= maxLogged {
		return v
	}
	cut := maxLogged
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return v[:cut] + "... (" + strconv.Itoa(len(v)) + " bytes)"
}
