package registryclient

// How long-running operations are polled. An apply registers many services
// at once (Terraform's parallelism), and a registry's operations of one kind
// take about the same time, so the client learns from the operations it
// polls:
//
//   - An operation of a kind the client has not seen finished polls at
//     s*PollInterval, 3s*PollInterval, 6s*PollInterval, 12s*PollInterval...,
//     s drawn in [1, 2) for each operation: a short operation is seen
//     finished early, one alone is polled sparsely, and ten that wait
//     together sample the time densely between them.
//   - When one operation finishes after d, each other operation of its kind
//     polls when it has waited a little longer than d (at once if it already
//     has), if that comes before its next poll: it probably finished too.
//     If it has not, it polls again after a short step (a twentieth of d,
//     at least 50ms, doubling each time): operations created a little
//     later finish a little later.
//   - Once operations of the kind have finished, the next ones start polling
//     at 0.92 to 1.04 of the shortest time the last 8 took (the times at
//     which they were seen finished: the ones that poll a little earlier let
//     the estimate come down when operations get faster), then 1.5 times
//     later each time.
//
// No wait between two polls of one operation is longer than PollMaxInterval,
// and a 429 (with Retry-After) or a quota error on a poll is retried by the
// transport after the wait the registry asks for, as any other request.

import (
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"time"
)

// recentOps is how many finished operations of a kind the estimate of its
// duration looks at.
const recentOps = 8

// hintMargin is the least an operation waits past another's duration before
// it polls: operations created one after the other end one after the other.
const hintMargin = 10 * time.Millisecond

// tailStep is the least first step after a poll past the hint found the
// operation unfinished.
const tailStep = 50 * time.Millisecond

type pollKindKey struct{}

// withPollKind names the kind of write whose operation ctx awaits: the verb
// of what ("create projects/...").
func withPollKind(ctx context.Context, what string) context.Context {
	verb, _, _ := strings.Cut(what, " ")
	return context.WithValue(ctx, pollKindKey{}, verb)
}

// pollBoard is what a client knows of its operations: how long the last one
// of each kind took, and which are being waited for.
type pollBoard struct {
	mu      sync.Mutex
	took    map[string][]time.Duration // the last recentOps durations of each kind
	waiters map[*opWaiter]struct{}
}

// opWaiter is one operation being awaited.
type opWaiter struct {
	kind  string
	start time.Time
	wake  chan struct{}
	// first, jump and growth make the schedule: the first poll is at first
	// after start, the second at first*jump, and each next one growth times
	// later.
	first        time.Duration
	jump, growth float64

	mu       sync.Mutex
	lastPoll time.Time
	// hint is when (since start) another operation's end suggests polling;
	// tail, once a poll at or after the hint found the operation unfinished,
	// is the short step to the next poll (it doubles each time): operations
	// created a little later finish a little later.
	hint, tail time.Duration
}

func (b *pollBoard) join(kind string, base time.Duration) *opWaiter {
	w := &opWaiter{kind: kind, start: time.Now(), wake: make(chan struct{}, 1), jump: 3, growth: 2}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.waiters == nil {
		b.waiters, b.took = map[*opWaiter]struct{}{}, map[string][]time.Duration{}
	}
	b.waiters[w] = struct{}{}
	if recent := b.took[kind]; len(recent) > 0 {
		took := recent[0]
		for _, d := range recent {
			took = min(took, d)
		}
		w.first = time.Duration(float64(took) * (0.92 + 0.12*rand.Float64()))
		w.jump, w.growth = 1.5, 1.5
	} else {
		w.first = time.Duration(float64(base) * (1 + rand.Float64()))
	}
	w.first = max(w.first, time.Millisecond)
	return w
}

// finished records that w's operation was seen finished at hi (since it
// started), and has the operations of its kind poll when they have waited
// as long.
func (b *pollBoard) finished(w *opWaiter, hi time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.waiters, w)
	recent := append(b.took[w.kind], hi)
	if len(recent) > recentOps {
		recent = recent[len(recent)-recentOps:]
	}
	b.took[w.kind] = recent
	for o := range b.waiters {
		if o.kind != w.kind {
			continue
		}
		o.mu.Lock()
		o.hint = hi + max(hintMargin, hi/50)
		o.mu.Unlock()
		select { // the waiter recomputes its wait
		case o.wake <- struct{}{}:
		default:
		}
	}
}

func (b *pollBoard) leave(w *opWaiter) {
	b.mu.Lock()
	delete(b.waiters, w)
	b.mu.Unlock()
}

// next is how long to wait before the next poll: until the first point of
// the schedule (or the hint) after the last poll, and at most most after it.
func (w *opWaiter) next(most time.Duration) time.Duration {
	w.mu.Lock()
	last, hint, tail := w.lastPoll, w.hint, w.tail
	w.mu.Unlock()
	since := time.Duration(-1)
	if !last.IsZero() {
		since = last.Sub(w.start)
	}
	at := w.first
	for k := 0; at <= since; k++ {
		f := w.growth
		if k == 0 {
			f = w.jump
		}
		at = time.Duration(float64(at) * f)
	}
	if hint > 0 && hint > since && hint < at {
		at = hint
	}
	if tail > 0 && since+tail < at {
		at = since + tail
	}
	wait := at - time.Since(w.start)
	if !last.IsZero() {
		wait = min(wait, most-time.Since(last))
	}
	return wait
}

// sleep waits until the next poll is due, or ctx ends.
func (w *opWaiter) sleep(ctx context.Context, most time.Duration) error {
	for {
		wait := w.next(most)
		if wait <= 0 {
			return nil
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
			return nil
		case <-w.wake:
			timer.Stop()
		}
	}
}

func (w *opWaiter) polled() time.Duration {
	now := time.Now()
	at := now.Sub(w.start)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lastPoll = now
	switch {
	case w.hint <= 0 || at < w.hint:
	case w.tail == 0:
		w.tail = max(tailStep, w.hint/20)
	default:
		w.tail *= 2
	}
	return at
}
