package registryclient

import (
	"context"
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

// await polls until op is done, waiting PollInterval, then 1.5 times longer
// each time up to PollMaxInterval, until ctx ends. It returns the operation's
// response, an *APIError for an operation that failed, or a *pollError.
func (c *Client) await(ctx context.Context, api string, op operation, get func(ctx context.Context, name string) (operation, error)) (googleapi.RawMessage, error) {
	interval := c.pollInterval
	for !op.done {
		if op.name == "" {
			return nil, fmt.Errorf("%s returned an unfinished operation without a name", api)
		}
		timer := time.NewTimer(interval)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, fmt.Errorf("waiting for %s operation %s: %w", api, op.name, ctx.Err())
		case <-timer.C:
		}
		interval = nextPollInterval(interval, c.pollMaxInterval)
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

// nextPollInterval grows a poll interval by half, up to max.
func nextPollInterval(cur, max time.Duration) time.Duration {
	return min(cur+cur/2, max)
}
