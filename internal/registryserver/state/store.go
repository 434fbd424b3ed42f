package state

// Persistence. The server keeps its whole state in memory (maps plus search
// indexes) and, when Options.DataPath is set, mirrors every write into a bbolt
// file. Each API write is one bbolt transaction (resource, operation and
// request-id record together), committed with fsync before the response is
// sent, so an acknowledged write survives kill -9. Derived records (agents,
// MCP servers) and the indexes are not stored: they are rebuilt from the
// services at start.

import (
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

const (
	bucketServices   = "services"
	bucketWorkloads  = "workloads"
	bucketOperations = "operations"
	bucketRequests   = "requests"
	bucketBindings   = "bindings"
)

var allBuckets = []string{bucketServices, bucketWorkloads, bucketOperations, bucketRequests, bucketBindings}

// mutation is one key write (Value nil = delete).
type mutation struct {
	Bucket string
	Key    string
	Value  []byte
}

// store is the durable mirror. A nil *store (in-memory mode) accepts every
// commit and loads nothing.
type store struct {
	db *bolt.DB
}

func openStore(path string) (*store, error) {
	// The timeout turns "another server holds the file lock" into an error
	// instead of a silent hang.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("open data file %s: %w", path, err)
	}
	// NoSync stays false: every commit is fsynced, which is the durability promise.
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists([]byte(b)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, errors.Join(fmt.Errorf("initialise data file %s: %w", path, err), db.Close())
	}
	return &store{db: db}, nil
}

func (s *store) commit(ms []mutation) error {
	if s == nil || len(ms) == 0 {
		return nil
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		for _, m := range ms {
			b := tx.Bucket([]byte(m.Bucket))
			if b == nil {
				return fmt.Errorf("missing bucket %q", m.Bucket)
			}
			var err error
			if m.Value == nil {
				err = b.Delete([]byte(m.Key))
			} else {
				err = b.Put([]byte(m.Key), m.Value)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// load calls fn for every record of bucket, in key order.
func (s *store) load(bucket string, fn func(k, v []byte) error) error {
	if s == nil {
		return nil
	}
	return s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if b == nil {
			return errors.New("missing bucket " + bucket)
		}
		return b.ForEach(fn)
	})
}

func (s *store) close() error {
	if s == nil {
		return nil
	}
	return s.db.Close()
}
