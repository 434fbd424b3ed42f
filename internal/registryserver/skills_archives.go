package registryserver

// The skill archives, in a bbolt file of their own beside the data file
// (<data>.archives), one record per revision under its uid.
//
// An archive of up to 10 MiB takes time to write and fsync (a second and
// more on a busy disk). The data file's writes happen under the server's
// write lock, so an archive written there made every request wait for it;
// and bbolt has one writer per file, so an archive written to the data file
// outside the lock would still hold up the next locked write. In a file of
// its own, an archive is written before the lock is taken and deleted after
// it is released, and no other request ever waits for it.
//
// Order keeps a crash harmless: an archive is committed before its revision
// (an acknowledged revision always has its archive) and deleted after it. A
// crash in between leaves an archive no revision names, which the next start
// deletes. Archives are stored, never read back: the server has no download.
// Data files of earlier versions keep their archives in the data file's
// skillArchives bucket, by revision name; deletes remove those too.

import (
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

const bucketArchives = "archives"

// archiveStore is the archives file. A nil *archiveStore (in-memory mode)
// keeps nothing.
type archiveStore struct{ db *bolt.DB }

// openArchives opens (or creates) the archives file beside the data file at
// dataPath, and deletes the archives of no revision (keep says which are
// named by one).
func openArchives(dataPath string, keep func(uid string) bool) (*archiveStore, error) {
	path := dataPath + ".archives"
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("open the skill archives file %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte(bucketArchives))
		if err != nil {
			return err
		}
		var orphans [][]byte
		err = b.ForEach(func(k, _ []byte) error {
			if !keep(string(k)) {
				orphans = append(orphans, k)
			}
			return nil
		})
		for _, k := range orphans {
			if err == nil {
				err = b.Delete(k)
			}
		}
		return err
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("initialise the skill archives file %s: %w", path, err)
	}
	return &archiveStore{db: db}, nil
}

// put stores the archive of the revision uid, durably.
func (a *archiveStore) put(uid string, archive []byte) error {
	if a == nil {
		return nil
	}
	err := a.db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte(bucketArchives)).Put([]byte(uid), archive) })
	if err != nil {
		return errInternal("cannot persist the skill archive: %v", err)
	}
	return nil
}

// delete removes the archives of the revisions uids. A failure leaves
// archives that no revision names, which the next start deletes: it is not
// the request's failure.
func (a *archiveStore) delete(uids []string) {
	if a == nil || len(uids) == 0 {
		return
	}
	_ = a.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketArchives))
		for _, uid := range uids {
			if err := b.Delete([]byte(uid)); err != nil {
				return err
			}
		}
		return nil
	})
}

func (a *archiveStore) close() error {
	if a == nil {
		return nil
	}
	return a.db.Close()
}

// archiveChange is what one write does to the archives file around its
// commit: an archive written before the lock is taken (deleted again unless
// the write commits) and the archives of the revisions it deletes (deleted
// once it has). Defer finish before taking the lock, so that it runs after
// the lock is released.
type archiveChange struct {
	store     *archiveStore
	added     string   // uid of the archive written by add
	removed   []string // uids of the archives to delete once committed
	committed bool     // set when the write is committed (under the lock)
}

func (s *Server) archiveChange() *archiveChange { return &archiveChange{store: s.skills.archives} }

// add writes the archive of the revision uid.
func (c *archiveChange) add(uid string, archive []byte) error {
	if err := c.store.put(uid, archive); err != nil {
		return err
	}
	c.added = uid
	return nil
}

func (c *archiveChange) finish() {
	switch {
	case c.committed:
		c.store.delete(c.removed)
	case c.added != "":
		c.store.delete([]string{c.added})
	}
}
