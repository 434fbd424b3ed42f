package registryclient

// The one pager behind every paged read of the registry (the List*/Search*
// functions and the *Pages streams): it follows next page tokens with caps on
// pages, records, bytes and time that hold whatever the registry sends. A
// registry that answers full pages for ever, empty pages with a new token
// each time, or tokens of megabytes ends the read with a *PageLimitError that
// names the cap, instead of filling memory or hanging the plan.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"iter"
	"sync/atomic"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
)

// PageLimits bound one paged read (one data source read, one list block, one
// derived-record lookup). Zero fields take the defaults.
type PageLimits struct {
	// Pages is the most pages requested (default 1,000).
	Pages int
	// EmptyPages is the most pages in a row that bring no record (default
	// 100): a read that received that many and is given another next page
	// token stops. A registry may answer a filtered list with a page that
	// holds nothing (AIP-158 allows it), so a few empty pages are read; a
	// hundred in a row take a few seconds, where the page cap took over 30.
	EmptyPages int
	// Records is the most records received, over every page (default 10,000).
	Records int
	// Bytes is the most response bytes read, over every page (default 64 MiB).
	Bytes int64
	// Values is the most JSON values in the answers, over every page
	// (default DefaultValues; see countValues). A value costs the provider
	// far more than its bytes once it is a Terraform value (hundreds of
	// bytes for a one-letter string in a list), so the byte cap alone would
	// let a page far inside it cost gigabytes: the values are counted on the
	// bytes read, before anything is decoded.
	Values int64
	// Time is the most time spent waiting for the registry's pages, retries
	// included (default 5 minutes); the caller's context may end it sooner.
	Time time.Duration
	// TokenBytes is the longest next page token accepted (default 8 KiB).
	TokenBytes int
}

// DefaultPageLimits are the caps of every paged read, documented on the data
// sources and list resources that read pages.
var DefaultPageLimits = PageLimits{Pages: 1000, EmptyPages: 100, Records: 10000, Bytes: 64 << 20, Values: DefaultValues,
	Time: 5 * time.Minute, TokenBytes: 8 << 10}

// DefaultValues is the default cap of JSON values per read, and the cap of one
// answer that is not part of a paged read.
const DefaultValues = 2_000_000

func (l PageLimits) withDefaults() PageLimits {
	d := DefaultPageLimits
	if l.Pages > 0 {
		d.Pages = l.Pages
	}
	if l.EmptyPages > 0 {
		d.EmptyPages = l.EmptyPages
	}
	if l.Records > 0 {
		d.Records = l.Records
	}
	if l.Bytes > 0 {
		d.Bytes = l.Bytes
	}
	if l.Values > 0 {
		d.Values = l.Values
	}
	if l.Time > 0 {
		d.Time = l.Time
	}
	if l.TokenBytes > 0 {
		d.TokenBytes = l.TokenBytes
	}
	return d
}

// Page cap names, as PageLimitError.Cap.
const (
	CapPages      = "pages"
	CapEmptyPages = "empty pages"
	CapRecords    = "records"
	CapBytes      = "bytes"
	CapValues     = "values"
	CapTime       = "time"
	CapToken      = "page token"
)

// PageLimitError ends a paged read that reached one of its caps. What was
// read up to then is discarded: a partial list would read as a complete one.
type PageLimitError struct {
	// Read names the read, such as "agents:search" or "services.list".
	Read string
	// Cap is the cap reached (CapPages, CapRecords, ...), and Limit its value
	// (pages, records, bytes, nanoseconds or token bytes).
	Cap   string
	Limit int64
	// What had been read when the read stopped.
	Pages, Records int
	Bytes          int64
}

func (e *PageLimitError) Error() string {
	read := fmt.Sprintf("after %d page(s), %d record(s) and %d byte(s)", e.Pages, e.Records, e.Bytes)
	switch e.Cap {
	case CapPages:
		return fmt.Sprintf("stopped reading %s %s: the registry kept sending next page tokens past the cap of %d pages per read", e.Read, read, e.Limit)
	case CapEmptyPages:
		return fmt.Sprintf("stopped reading %s %s: the registry sent %d pages in a row that brought no record, each with a "+
			"next page token (the cap of %d empty pages in a row per read)", e.Read, read, e.Limit, e.Limit)
	case CapRecords:
		return fmt.Sprintf("stopped reading %s %s: the registry sent more than the cap of %d records per read", e.Read, read, e.Limit)
	case CapBytes:
		return fmt.Sprintf("stopped reading %s %s: the registry's answers passed the cap of %d bytes per read", e.Read, read, e.Limit)
	case CapValues:
		return fmt.Sprintf("stopped reading %s %s: the registry's answers passed the cap of %d JSON values per read "+
			"(each object, array, string, number and literal counts one)", e.Read, read, e.Limit)
	case CapTime:
		return fmt.Sprintf("stopped reading %s %s: the registry took longer than the cap of %s per read", e.Read, read, time.Duration(e.Limit))
	case CapToken:
		return fmt.Sprintf("stopped reading %s %s: the registry sent a next page token longer than the cap of %d bytes", e.Read, read, e.Limit)
	}
	return fmt.Sprintf("stopped reading %s %s at the %s cap (%d)", e.Read, read, e.Cap, e.Limit)
}

// byteBudget counts the response bytes and JSON values of one paged read;
// the transport (bufferingTransport) reads no more bytes than what is left of
// it, and refuses an answer that passes what is left of its values.
type byteBudget struct {
	left     atomic.Int64
	used     atomic.Int64
	exceeded atomic.Bool
	// valuesLeft is what is left of the values cap; valuesExceeded is set
	// when an answer passed it.
	valuesLeft     atomic.Int64
	valuesExceeded atomic.Bool
}

type byteBudgetKey struct{}

func withByteBudget(ctx context.Context, b *byteBudget) context.Context {
	return context.WithValue(ctx, byteBudgetKey{}, b)
}

func byteBudgetFrom(ctx context.Context) *byteBudget {
	b, _ := ctx.Value(byteBudgetKey{}).(*byteBudget)
	return b
}

// errPageBytes is a response cut short by the byte cap of its paged read; it
// is not retried.
var errPageBytes = errors.New("response passes the byte cap of the paged read")

// errPageValues is a response that passes the values cap of its paged read;
// it is not retried.
var errPageValues = errors.New("response passes the JSON value cap of the paged read")

// countValues counts the JSON values of an answer, quickly and without
// decoding it: one for the answer, one for each object or array it opens and
// one for each comma outside a string (each separates one more member or
// element). Member names are not values. It is exact for a valid document
// without empty containers, and counts one more for each empty one: an upper
// bound, and the cap needs no more. Written by hand because no decoder
// counts without building what it reads, which is what the cap avoids.
func countValues(b []byte) int64 {
	var n int64
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = stringEnd(b, i+1)
		case '{', '[', ',':
			n++
		}
	}
	if len(bytes.TrimSpace(b)) > 0 {
		n++
	}
	return n
}

// stringEnd is the index of the quote that ends the string whose text starts
// at i, or len(b) when it does not end.
func stringEnd(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case '\\':
			i += 2
		case '"':
			return i
		default:
			i++
		}
	}
	return len(b)
}

// readPages yields the pages fetch returns, following next page tokens, until
// the caller stops, there is no next page, a request fails, or a cap is
// reached (each yielded once as the error, after which the sequence ends).
// read names the read in errors. A token the registry already gave is an
// error rather than an endless loop; the tokens are remembered by digest, so
// the memory they take is bounded by the page cap, not their size.
func readPages[T any](ctx context.Context, lim PageLimits, read string,
	fetch func(ctx context.Context, token string) (items []T, next string, err error)) iter.Seq2[[]T, error] {
	return func(yield func([]T, error) bool) {
		r := newPageRead(lim.withDefaults(), read, fetch)
		token := ""
		for {
			items, next, err := r.page(ctx, token)
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(items, nil) || next == "" {
				return
			}
			if err := r.accept(next); err != nil {
				yield(nil, err)
				return
			}
			token = next
		}
	}
}

// pageRead is the state of one readPages: what it has read and spent so far
// against its caps, and the digests of the tokens it was given.
type pageRead[T any] struct {
	lim            PageLimits
	read           string
	fetch          func(ctx context.Context, token string) (items []T, next string, err error)
	budget         *byteBudget
	seen           map[[sha256.Size]byte]struct{}
	pages, records int
	// emptyRun counts the last pages in a row that brought no record.
	emptyRun int
	waited   time.Duration
}

func newPageRead[T any](lim PageLimits, read string, fetch func(context.Context, string) ([]T, string, error)) *pageRead[T] {
	r := &pageRead[T]{lim: lim, read: read, fetch: fetch, budget: &byteBudget{}, seen: make(map[[sha256.Size]byte]struct{})}
	r.budget.left.Store(lim.Bytes)
	r.budget.valuesLeft.Store(lim.Values)
	return r
}

// page fetches the page at token within what is left of the time and byte
// caps, and counts it against the page and record caps.
func (r *pageRead[T]) page(ctx context.Context, token string) ([]T, string, error) {
	if r.pages >= r.lim.Pages {
		return nil, "", r.capReached(CapPages, int64(r.lim.Pages))
	}
	left := r.lim.Time - r.waited
	if left <= 0 {
		return nil, "", r.capReached(CapTime, int64(r.lim.Time))
	}
	fctx, cancel := context.WithTimeout(withByteBudget(ctx, r.budget), left)
	start := time.Now()
	items, next, err := r.fetch(fctx, token)
	r.waited += time.Since(start)
	timedOut := fctx.Err() != nil && ctx.Err() == nil
	cancel()
	r.pages++
	switch {
	case r.budget.exceeded.Load():
		return nil, "", r.capReached(CapBytes, r.lim.Bytes)
	case r.budget.valuesExceeded.Load():
		return nil, "", r.capReached(CapValues, r.lim.Values)
	case err != nil && timedOut:
		return nil, "", r.capReached(CapTime, int64(r.lim.Time))
	case err != nil:
		return nil, "", wrapError(apiRegistry, err)
	}
	r.records += len(items)
	r.emptyRun++
	if len(items) > 0 {
		r.emptyRun = 0
	}
	if r.records > r.lim.Records {
		return nil, "", r.capReached(CapRecords, int64(r.lim.Records))
	}
	return items, next, nil
}

// accept refuses a next page token over the token cap, one the registry
// already gave (an endless loop otherwise), or one that follows the cap of
// pages in a row that brought no record.
func (r *pageRead[T]) accept(next string) error {
	if len(next) > r.lim.TokenBytes {
		return r.capReached(CapToken, int64(r.lim.TokenBytes))
	}
	if r.emptyRun >= r.lim.EmptyPages {
		return r.capReached(CapEmptyPages, int64(r.lim.EmptyPages))
	}
	sum := sha256.Sum256([]byte(next))
	if _, ok := r.seen[sum]; ok {
		return fmt.Errorf("agent registry returned page token %q twice; stopping the list", termsafe.Truncate(termsafe.Line(next), 64))
	}
	r.seen[sum] = struct{}{}
	return nil
}

func (r *pageRead[T]) capReached(reached string, limit int64) error {
	return &PageLimitError{Read: r.read, Cap: reached, Limit: limit, Pages: r.pages, Records: r.records, Bytes: r.budget.used.Load()}
}

// pagedRead is one paged method of the registry (agents.list,
// agents:search...), written once for both ways it is read: whole, up to a
// limit (the List*/Search* functions), and page by page (the *Pages streams).
type pagedRead[T any] struct {
	// name names the read in errors.
	name string
	// fetch asks for the page at token, of pageSize records at most.
	fetch func(ctx context.Context, pageSize int64, token string) (items []T, next string, err error)
}

// pages yields the read's pages of pageSize records, under the client's page
// caps (readPages).
func (r pagedRead[T]) pages(ctx context.Context, c *Client, pageSize int64) iter.Seq2[[]T, error] {
	return readPages(ctx, c.pageLimits, r.name, func(ctx context.Context, token string) ([]T, string, error) {
		return r.fetch(ctx, pageSize, token)
	})
}

// upTo is paginate of the read.
func (r pagedRead[T]) upTo(ctx context.Context, c *Client, limit int) ([]T, error) {
	return paginate(ctx, c, r.name, limit, r.fetch)
}

// paginate reads pages until there is no next page or limit records were
// collected (0: no limit), asking for the same page size each time (the API
// requires the other parameters to stay identical between pages), under the
// client's page caps.
func paginate[T any](ctx context.Context, c *Client, read string, limit int,
	fetch func(ctx context.Context, pageSize int64, token string) ([]T, string, error)) ([]T, error) {
	pageSize := int64(searchPageSize)
	if limit > 0 && limit < searchPageSize {
		pageSize = int64(limit)
	}
	var out []T
	for page, err := range (pagedRead[T]{read, fetch}).pages(ctx, c, pageSize) {
		if err != nil {
			return nil, err
		}
		out = append(out, page...)
		if limit > 0 && len(out) >= limit {
			return out[:limit], nil
		}
	}
	return out, nil
}
