package state

// A resource is visible once its create operation is done. With
// Options.OperationDelay a create's operation reports done:false for a
// while; until it is done the new record is committed to the data file but
// not applied in memory, so get, list and search do not see it, a patch or
// delete of it is NOT_FOUND, and another create of the same name is
// ALREADY_EXISTS. Every request first applies the creates whose operations
// are done by then (settle), and so does every read of an operation, so a
// client that saw its operation done sees its resource.
//
// Two exceptions, where the document says nothing: a skill revision's create
// also moves its skill's default revision, and applied late it would undo a
// patch of the skill made meanwhile, so it is applied at once; and after a
// restart every committed record is visible (what is pending lives in
// memory only).

import (
	"encoding/json"
	"slices"
	"strings"
	"time"
)

// pendingCreate is the in-memory part of a create whose operation is not
// done yet.
type pendingCreate struct {
	at     time.Time // when the operation is done
	target string
	apply  func()
}

// delaysVisibility reports whether op, committed at now, creates a record
// that stays invisible until op is done, and names its target.
func delaysVisibility(op *opRecord, now time.Time) (string, bool) {
	var m opMetadata
	if json.Unmarshal(op.Metadata, &m) != nil || m.Verb != "create" || strings.Contains(m.Target, "/revisions/") {
		return m.Target, false
	}
	return m.Target, now.Before(op.DoneAt)
}

// beingCreated refuses a write to a record whose create is pending. A patch
// or delete of it finds nothing before reaching here; a create of the same
// name does. Call with s.mu held.
func (s *State) beingCreated(target string) error {
	if i := slices.IndexFunc(s.pending, func(p pendingCreate) bool { return p.target == target }); i >= 0 {
		return errAlreadyExists("%q already exists: its create operation is not done yet (until %s).", target, s.pending[i].at.UTC().Format(time.RFC3339Nano))
	}
	return nil
}

// deferCreate keeps p.apply until p.at, in time order. Call with s.mu held.
func (s *State) deferCreate(p pendingCreate) {
	i, _ := slices.BinarySearchFunc(s.pending, p.at, func(e pendingCreate, at time.Time) int { return e.at.Compare(at) })
	s.pending = slices.Insert(s.pending, i, p)
	s.nextDue.Store(s.pending[0].at.UnixNano())
}

// settle applies the pending creates that are done at now. It costs one
// atomic load while none is due.
func (s *State) settle(now time.Time) {
	if due := s.nextDue.Load(); due == 0 || now.UnixNano() < due {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for n < len(s.pending) && !now.Before(s.pending[n].at) {
		s.pending[n].apply()
		n++
	}
	s.pending = slices.Delete(s.pending, 0, n)
	if len(s.pending) == 0 {
		s.nextDue.Store(0)
	} else {
		s.nextDue.Store(s.pending[0].at.UnixNano())
	}
}
