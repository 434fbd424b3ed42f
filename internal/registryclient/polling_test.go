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

// The schedule of one operation's polls (next): the first poll at first
// after the start, the second at first*jump, then growth times later each
// time; a hint after the last poll moves the next poll earlier, and once a
// poll past the hint found the operation unfinished, the tail step does.
// The waiter started a second ago; the cases say where the last poll was
// (since the start) and when the next one is due (since the start).
func TestOpWaiterSchedule(t *testing.T) {
	const s = time.Second
	for _, c := range []struct {
		name              string
		since, hint, tail time.Duration // since < 0: no poll yet
		due               time.Duration
	}{
		{name: "no poll yet: the first point", since: -1, due: 1 * s},
		{name: "after the first poll: first*jump", since: 1 * s, due: 3 * s},
		{name: "between the first two points", since: 1500 * time.Millisecond, due: 3 * s},
		{name: "after the second poll: growth times later", since: 3 * s, due: 6 * s},
		{name: "and again", since: 7 * s, due: 12 * s},
		{name: "a hint before the next point", since: 1500 * time.Millisecond, hint: 2 * s, due: 2 * s},
		{name: "a hint at the last poll is spent", since: 2 * s, hint: 2 * s, due: 3 * s},
		{name: "a hint after the next point", since: 1500 * time.Millisecond, hint: 4 * s, due: 3 * s},
		{name: "the tail step after the last poll", since: 1500 * time.Millisecond, hint: 1 * s, tail: 100 * time.Millisecond, due: 1600 * time.Millisecond},
		{name: "a tail step past the next point", since: 2500 * time.Millisecond, hint: 1 * s, tail: 800 * time.Millisecond, due: 3 * s},
	} {
		start := time.Now().Add(-s)
		w := &opWaiter{start: start, first: s, jump: 3, growth: 2, hint: c.hint, tail: c.tail}
		if c.since >= 0 {
			w.lastPoll = start.Add(c.since)
		}
		// The wait is the due time less the second already gone (and what
		// the test took since it set start: a few milliseconds).
		got := w.next(time.Hour)
		if want := c.due - s; got > want || got < want-100*time.Millisecond {
			t.Errorf("%s: wait %v, want %v", c.name, got, want)
		}
	}
}

// Once an operation of a kind finished after hi, the others poll at hi
// plus a margin (a fiftieth of hi, at least hintMargin).
func TestPollBoardHintMargin(t *testing.T) {
	for hi, margin := range map[time.Duration]time.Duration{20 * time.Millisecond: hintMargin, 2 * time.Second: 40 * time.Millisecond} {
		var b pollBoard
		done, waiting := b.join("create", time.Minute), b.join("create", time.Minute)
		b.finished(done, hi)
		waiting.mu.Lock()
		hint := waiting.hint
		waiting.mu.Unlock()
		if hint != hi+margin {
			t.Errorf("after a create finished in %v the hint is %v, want %v", hi, hint, hi+margin)
		}
	}
}

// A learned schedule starts at 0.92 to 1.04 of the shortest recent time,
// whatever the draw: many joins stay within it and spread over it.
func TestPollBoardLearnedStartSpread(t *testing.T) {
	var b pollBoard
	b.finished(b.join("create", time.Minute), time.Second)
	lo, hi := time.Hour, time.Duration(0)
	for range 500 {
		w := b.join("create", time.Minute)
		b.leave(w)
		lo, hi = min(lo, w.first), max(hi, w.first)
	}
	if lo < 920*time.Millisecond || hi > 1040*time.Millisecond || hi-lo < 100*time.Millisecond {
		t.Errorf("first polls in [%v, %v], want spread over [920ms, 1.04s]", lo, hi)
	}
}

// sleep waits until the next poll is due: not less (a poll loop that does
// not wait would hammer the registry), and returns at once when it is due.
func TestOpWaiterSleepWaits(t *testing.T) {
	w := &opWaiter{start: time.Now(), first: 150 * time.Millisecond, jump: 3, growth: 2, wake: make(chan struct{}, 1)}
	begin := time.Now()
	if err := w.sleep(context.Background(), time.Hour); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(begin); took < 140*time.Millisecond {
		t.Errorf("slept %v before a poll due in 150ms", took)
	}
	w.polled()
	w.first = 0 // due already: no wait
	w.lastPoll = time.Time{}
	begin = time.Now()
	if err := w.sleep(context.Background(), time.Hour); err != nil || time.Since(begin) > 50*time.Millisecond {
		t.Errorf("a poll already due waited %v (%v)", time.Since(begin), err)
	}
}

// A kind's estimate looks at its last recentOps operations: an old fast
// one no longer counts once eight slower ones have finished after it.
func TestPollBoardForgetsOlderOperations(t *testing.T) {
	var b pollBoard
	b.finished(b.join("create", time.Minute), 10*time.Millisecond)
	for range recentOps {
		b.finished(b.join("create", time.Minute), time.Second)
	}
	w := b.join("create", time.Minute)
	if w.first < 920*time.Millisecond || w.first > 1040*time.Millisecond {
		t.Errorf("first poll at %v, want 0.92-1.04 of the last eight (1s), not of the 10ms before them", w.first)
	}
	if n := len(b.took["create"]); n != recentOps {
		t.Errorf("%d durations kept, want %d", n, recentOps)
	}
}

// A poll at or past the hint that finds the operation unfinished starts the
// tail: a twentieth of the hint (at least tailStep), doubling at each poll.
func TestOpWaiterTailAfterTheHint(t *testing.T) {
	for hint, step := range map[time.Duration]time.Duration{4 * time.Second: 200 * time.Millisecond, 100 * time.Millisecond: tailStep} {
		w := &opWaiter{start: time.Now().Add(-5 * time.Second), hint: hint}
		w.polled()
		first := w.tail
		w.polled()
		if first != step || w.tail != 2*step {
			t.Errorf("hint %v: tail %v then %v, want %v then %v", hint, first, w.tail, step, 2*step)
		}
	}
	w := &opWaiter{start: time.Now(), hint: time.Hour}
	if w.polled(); w.tail != 0 {
		t.Errorf("a poll before the hint started the tail: %v", w.tail)
	}
}
