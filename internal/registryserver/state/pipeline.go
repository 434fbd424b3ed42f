package state

// The write pipeline. Every write of every collection goes through write:
// it takes the state's lock, answers a retried request with its first
// operation (replay), otherwise asks the write's plan for the change
// (checked against the state under the lock), commits the change with its
// operation in one store transaction, only then applies it to memory and
// keeps its files, and returns the operation as the API shows it. A write's
// method checks what it was given (pure functions per kind) before; a repo
// holds what one collection adds to that: its bucket, type, cap and what a
// put or delete does to memory.

import (
	"encoding/json"
	"slices"
	"strings"
)

// writeReq is what the client asked, against which its request id (id, ""
// for none) is recorded: the verb it called and the name it gave (a revision
// create without an id names the collection).
type writeReq struct {
	id, verb, target string
}

// Operation is a long-running operation as the API returns it
// (google.longrunning.Operation): what every write returns.
type Operation map[string]any

// change is what a planned write does.
type change struct {
	fam          apiFamily
	verb, target string          // the operation's (a patch that creates says create)
	ms           []mutation      // the store mutations, committed with the operation
	resp         json.RawMessage // the operation's response
	apply        func()          // applies the change to memory once committed
	files        *archiveChange  // archives kept exactly when the commit succeeds; may be nil
}

// write runs one write and returns its operation (see the top of this file).
func (s *State) write(req writeReq, plan func() (*change, error)) (Operation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	op, err := s.replay(req.id, req.verb, req.target)
	if err == nil && op == nil {
		var c *change
		if c, err = plan(); err == nil {
			op, err = s.commitChange(req, c)
		}
	}
	if err != nil {
		return nil, err
	}
	return op.view(s.now(), s.resolveRef), nil
}

// commitChange commits c with its operation and request record. Call with
// s.mu held.
func (s *State) commitChange(req writeReq, c *change) (*opRecord, error) {
	op, rr, opMs, err := s.newOperation(c.fam, c.verb, c.target, req.id, c.resp)
	if err == nil && rr != nil && (req.verb != c.verb || req.target != c.target) {
		err = rr.retarget(opMs, req.verb, req.target)
	}
	if err == nil {
		err = s.commitOperation(op, rr, append(c.ms, opMs...), c.apply)
	}
	if err != nil {
		return nil, err
	}
	if c.files != nil {
		c.files.committed = true
	}
	return op, nil
}

// repo is one collection's part of the pipeline.
type repo[T any] struct {
	s                      *State
	c                      *collection[T]
	bucket, typeURL, title string
	plural                 string // for the cap's message
	fam                    apiFamily
	max                    int                      // records per location
	onPut                  func(old, v T, had bool) // memory beside the collection (derived records); may be nil
	onDelete               func(old T)              // may be nil
}

// put is the change that stores v as name (old the record it replaces,
// when had), under the operation verb.
func (rp *repo[T]) put(verb, name string, old, v T, had bool) (*change, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	resp, err := withType(rp.typeURL, v)
	if err != nil {
		return nil, err
	}
	return &change{fam: rp.fam, verb: verb, target: name, ms: []mutation{{Bucket: rp.bucket, Key: name, Value: b}}, resp: resp,
		apply: func() {
			rp.c.put(name, v)
			if rp.onPut != nil {
				rp.onPut(old, v, had)
			}
		}}, nil
}

// remove is the change that deletes old, called name.
func (rp *repo[T]) remove(name string, old T) (*change, error) {
	resp, err := withType(typeEmpty, struct{}{})
	if err != nil {
		return nil, err
	}
	return &change{fam: rp.fam, verb: "delete", target: name, ms: []mutation{{Bucket: rp.bucket, Key: name}}, resp: resp,
		apply: func() {
			rp.c.delete(name)
			if rp.onDelete != nil {
				rp.onDelete(old)
			}
		}}, nil
}

// free refuses a create of name that exists, or in a location at its cap.
// Call with s.mu held.
func (rp *repo[T]) free(name string) error {
	if _, ok := rp.c.get(name); ok {
		return errAlreadyExists("%s %q already exists.", rp.title, name)
	}
	return rp.c.full(name, rp.plural, rp.max)
}

// found is the record name, or NOT_FOUND. Call with s.mu held.
func (rp *repo[T]) found(name string) (T, error) {
	v, ok := rp.c.get(name)
	if !ok {
		return v, errNotFound("%s %q was not found.", rp.title, name)
	}
	return v, nil
}

// create writes v as name, a new record. invalid is what checking v found
// (nil: v is valid): the caller checks before the write takes the lock,
// because validating a document is the slowest part of a write and reads
// must not wait for it. Under the lock the answers keep their order: a
// retried request replays its first operation, then a name taken or a full
// location, and only then invalid.
func (rp *repo[T]) create(requestID, name string, v T, invalid error) (Operation, error) {
	return rp.s.write(writeReq{requestID, "create", name}, func() (*change, error) {
		var zero T
		if err := rp.free(name); err != nil {
			return nil, err
		}
		if invalid != nil {
			return nil, invalid
		}
		return rp.put("create", name, zero, v, false)
	})
}

// update writes what edit makes of the record name.
func (rp *repo[T]) update(requestID, name string, edit func(old T) (T, error)) (Operation, error) {
	return rp.s.write(writeReq{requestID, "update", name}, func() (*change, error) {
		old, err := rp.found(name)
		if err != nil {
			return nil, err
		}
		v, err := edit(old)
		if err != nil {
			return nil, err
		}
		return rp.put("update", name, old, v, true)
	})
}

// delete deletes the record name.
func (rp *repo[T]) delete(requestID, name string) (Operation, error) {
	return rp.s.write(writeReq{requestID, "delete", name}, func() (*change, error) {
		old, err := rp.found(name)
		if err != nil {
			return nil, err
		}
		return rp.remove(name, old)
	})
}

// updatePaths is the update mask rule of AIP-134, for every collection: the
// mask as given (snake_case); "*" is every field in all; no mask is the
// fields the body carries (those present marks), sorted.
func updatePaths(mask string, all []string, present map[string]bool) []string {
	paths := maskPaths(mask)
	if slices.Contains(paths, "*") {
		return slices.Clone(all)
	}
	if len(paths) > 0 {
		return paths
	}
	for f, set := range present {
		if set {
			paths = append(paths, f)
		}
	}
	slices.Sort(paths)
	return paths
}

// maskPaths turns an update mask into snake_case paths (the REST mapping
// sends camelCase; both spellings are accepted). Empty parts are dropped. A
// map key in backquotes (AIP-161: a key with dots or slashes) is kept as
// sent, commas and capitals included.
func maskPaths(mask string) []string {
	var out []string
	var b strings.Builder
	end := func() {
		if p := strings.TrimSpace(b.String()); p != "" {
			out = append(out, p)
		}
		b.Reset()
	}
	quoted := false
	for _, c := range mask {
		switch {
		case c == '`':
			quoted = !quoted
		case quoted: // a map key: as sent
		case c == ',':
			end()
			continue
		case c >= 'A' && c <= 'Z':
			b.WriteByte('_')
			c += 'a' - 'A'
		}
		b.WriteRune(c)
	}
	end()
	return out
}
