package registryclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/apphub/v1"
	"google.golang.org/api/googleapi"
)

// maxWriteAttempts bounds how many times a create, patch or delete is sent
// again (with the same requestId) after its operation could not be polled.
const maxWriteAttempts = 3

// writeAndWait runs one logical write: sendAndAwait sends it with requestID
// and waits for its operation. One requestId is used for every attempt, so a
// write sent again after its operation could not be polled (reissuable) is not
// applied twice. It returns the operation's response and how many times the
// write was sent; what names the write in the log.
func writeAndWait(ctx context.Context, what string, sendAndAwait func(ctx context.Context, requestID string) (googleapi.RawMessage, error)) (googleapi.RawMessage, int, error) {
	requestID := NewRequestID()
	ctx = tflog.SetField(withPollKind(ctx, what), "request_id", requestID)
	for attempt := 1; ; attempt++ {
		resp, err := sendAndAwait(ctx, requestID)
		if err != nil && attempt < maxWriteAttempts && reissuable(ctx, err) {
			tflog.Debug(ctx, "sending the write again with the same requestId", map[string]any{"write": what, "error": err.Error()})
			continue
		}
		return resp, attempt, err
	}
}

// deletedOnResend reports whether a delete that writeAndWait sent attempt
// times ended in err because the resource is gone: the registry answered a
// re-sent delete with NOT_FOUND, so the first send deleted it. A NOT_FOUND
// from polling (the operation was lost) is not that, and neither is one on
// the first send.
func deletedOnResend(attempt int, err error) bool {
	var pe *pollError
	return attempt > 1 && IsNotFound(err) && !errors.As(err, &pe)
}

// writeRegistry is writeAndWait for an Agent Registry write: send sends it
// with the requestId and returns its operation.
func (c *Client) writeRegistry(ctx context.Context, what string, send func(ctx context.Context, requestID string) (*agentregistry.Operation, error)) (googleapi.RawMessage, int, error) {
	return writeAndWait(ctx, what, func(ctx context.Context, requestID string) (googleapi.RawMessage, error) {
		op, err := send(ctx, requestID)
		if err != nil {
			return nil, wrapError(apiRegistry, err)
		}
		return c.awaitRegistry(ctx, op)
	})
}

// decodeResponse decodes a finished operation's response into a T, or reads
// the resource with get when the response is empty or does not name it.
func decodeResponse[T any](resp googleapi.RawMessage, name func(*T) string, get func() (*T, error)) (*T, error) {
	if len(bytes.TrimSpace(resp)) > 0 {
		v := new(T)
		if err := json.Unmarshal(resp, v); err != nil {
			return nil, fmt.Errorf("decoding the operation response: %w", err)
		}
		if name(v) != "" {
			return v, nil
		}
	}
	return get()
}

// operation is the part of a google.longrunning.Operation the poller needs,
// common to the agentregistry and apphub generated types.
type operation struct {
	name     string
	done     bool
	err      *opStatus
	response googleapi.RawMessage
}

type opStatus struct {
	code    int64
	message string
	details []googleapi.RawMessage
}

func fromRegistryOp(op *agentregistry.Operation) operation {
	if op == nil {
		return operation{done: true}
	}
	o := operation{name: op.Name, done: op.Done, response: op.Response}
	if op.Error != nil {
		o.err = &opStatus{code: op.Error.Code, message: op.Error.Message, details: op.Error.Details}
	}
	return o
}

func fromAppHubOp(op *apphub.Operation) operation {
	if op == nil {
		return operation{done: true}
	}
	o := operation{name: op.Name, done: op.Done, response: op.Response}
	if op.Error != nil {
		o.err = &opStatus{code: op.Error.Code, message: op.Error.Message, details: op.Error.Details}
	}
	return o
}

// pollError means operations.get failed (after the transport's retries): the
// write itself may or may not have been applied.
type pollError struct {
	api, op string
	err     error
}

func (e *pollError) Error() string {
	return fmt.Sprintf("polling %s operation %s: %v", e.api, e.op, e.err)
}

func (e *pollError) Unwrap() error { return e.err }

// reissuable reports whether a write whose operation could not be polled
// should be sent again with the same requestId: when polling failed for a
// transient reason, or the operation was lost (404), and ctx is still live.
func reissuable(ctx context.Context, err error) bool {
	var pe *pollError
	if ctx.Err() != nil || !errors.As(err, &pe) {
		return false
	}
	var ae *APIError
	if !errors.As(pe.err, &ae) {
		return !errors.Is(pe.err, context.Canceled) && !errors.Is(pe.err, context.DeadlineExceeded)
	}
	return ae.Code == http.StatusNotFound || retryableStatus(ae.Code)
}

// await polls until op is done (polling.go says when), until ctx ends. It
// returns the operation's response, an *APIError for an operation that
// failed, or a *pollError.
func (c *Client) await(ctx context.Context, api string, op operation, get func(ctx context.Context, name string) (operation, error)) (googleapi.RawMessage, error) {
	if op.done {
		return finish(api, op)
	}
	kind, _ := ctx.Value(pollKindKey{}).(string)
	w := c.polls.join(api+" "+kind, c.pollInterval)
	defer c.polls.leave(w)
	var at time.Duration
	for !op.done {
		if op.name == "" {
			return nil, fmt.Errorf("%s returned an unfinished operation without a name", api)
		}
		if err := w.sleep(ctx, c.pollMaxInterval); err != nil {
			return nil, fmt.Errorf("waiting for %s operation %s: %w", api, op.name, err)
		}
		at = w.polled()
		next, err := get(ctx, op.name)
		if err != nil {
			return nil, &pollError{api: api, op: op.name, err: wrapError(api, err)}
		}
		tflog.Debug(ctx, "polled operation", map[string]any{"operation": op.name, "done": next.done})
		if next.name == "" {
			next.name = op.name
		}
		op = next
	}
	c.polls.finished(w, at)
	return finish(api, op)
}

func finish(api string, op operation) (googleapi.RawMessage, error) {
	if op.err != nil {
		return nil, operationError(api, op.name, op.err.code, op.err.message, op.err.details)
	}
	return op.response, nil
}

func (c *Client) awaitRegistry(ctx context.Context, op *agentregistry.Operation) (googleapi.RawMessage, error) {
	return c.await(ctx, apiRegistry, fromRegistryOp(op), func(ctx context.Context, name string) (operation, error) {
		next, err := c.registry.Projects.Locations.Operations.Get(name).Context(ctx).Do()
		return fromRegistryOp(next), err
	})
}

func (c *Client) awaitAppHub(ctx context.Context, op *apphub.Operation) (googleapi.RawMessage, error) {
	return c.await(ctx, apiAppHub, fromAppHubOp(op), func(ctx context.Context, name string) (operation, error) {
		next, err := c.apphub.Projects.Locations.Operations.Get(name).Context(ctx).Do()
		return fromAppHubOp(next), err
	})
}
