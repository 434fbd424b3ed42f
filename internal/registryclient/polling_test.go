package registryclient

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"
)

// A finished operation has the others of its kind poll once they have
// waited as long, instead of at their own (later) schedule; other kinds are
// left alone.
func TestPollBoardFinishedOperationHintsItsKind(t *testing.T) {
	var b pollBoard
	done := b.join("create", 10*time.Second)
	same := b.join("create", 10*time.Second)
	other := b.join("delete", 10*time.Second)
	if w := same.next(time.Hour); w < 10*time.Second {
		t.Fatalf("first wait %v, want at least the base of 10s", w)
	}
	b.finished(done, 20*time.Millisecond)
	if w := same.next(time.Hour); w > 100*time.Millisecond {
		t.Errorf("after another create finished in 20ms, the wait is %v", w)
	}
	select {
	case <-same.wake:
	default:
		t.Error("the waiting create was not woken to recompute its wait")
	}
	if w := other.next(time.Hour); w < 9*time.Second {
		t.Errorf("a delete's wait moved to %v after a create finished", w)
	}
	// The next create starts at about the time the last one took.
	next := b.join("create", 10*time.Second)
	if next.first < 18*time.Millisecond || next.first > 21*time.Millisecond || next.growth != 1.5 {
		t.Errorf("learned schedule: first %v, growth %v; want 0.92-1.04 of 20ms, 1.5", next.first, next.growth)
	}
}

// No wait after a poll is longer than the cap.
func TestPollBoardWaitsAtMostTheCap(t *testing.T) {
	var b pollBoard
	w := b.join("create", time.Hour)
	w.polled()
	if got := w.next(time.Second); got > time.Second {
		t.Errorf("wait %v after a poll, over the cap of 1s", got)
	}
}

// A poll answered 429 with Retry-After waits what the registry asks before
// the next poll: the schedule does not override it.
func TestPollHonoursRetryAfter(t *testing.T) {
	var mu sync.Mutex
	var throttledAt, nextAt time.Time
	polls := 0
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
		switch {
		case r.Method == http.MethodDelete:
			writeJSON(w, 200, map[string]any{"name": "operations/slow"})
		case q.Path == "/v1/operations/slow":
			mu.Lock()
			defer mu.Unlock()
			polls++
			switch polls {
			case 1:
				throttledAt = time.Now()
				w.Header().Set("Retry-After", "1")
				writeError(w, 429, "RESOURCE_EXHAUSTED", "quota exceeded")
			default:
				if nextAt.IsZero() {
					nextAt = time.Now()
				}
				writeJSON(w, 200, map[string]any{"name": "operations/slow", "done": true})
			}
		default:
			writeError(w, 404, "NOT_FOUND", "unexpected")
		}
	})
	c := testClient(t, srv.URL)
	if err := c.DeleteService(context.Background(), svcName); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if gap := nextAt.Sub(throttledAt); gap < 900*time.Millisecond {
		t.Errorf("polled again %v after a 429 with Retry-After: 1", gap)
	}
}
