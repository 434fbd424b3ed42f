package registryclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/googleapi"
)

// writeOperation sends a write that returns a long-running operation and
// waits for it. One requestId is used for every attempt, so a write sent
// again (after a dropped connection or a failed poll) is not applied twice.
// verb and name are for the log.
func (c *Client) writeOperation(ctx context.Context, verb, name string, send func(ctx context.Context, requestID string) (*agentregistry.Operation, error)) (googleapi.RawMessage, int, error) {
	requestID := NewRequestID()
	ctx = tflog.SetField(ctx, "request_id", requestID)
	for attempt := 1; ; attempt++ {
		op, err := send(ctx, requestID)
		if err != nil {
			return nil, attempt, wrapError(apiRegistry, err)
		}
		resp, err := c.awaitRegistry(ctx, op)
		if err != nil && attempt < maxWriteAttempts && reissuable(ctx, err) {
			tflog.Debug(ctx, "sending the "+verb+" again with the same requestId", map[string]any{"name": name, "error": err.Error()})
			continue
		}
		return resp, attempt, err
	}
}

// CreateBinding creates parent/bindings/bindingID and waits for the operation.
func (c *Client) CreateBinding(ctx context.Context, parent, bindingID string, b *agentregistry.Binding) (*agentregistry.Binding, error) {
	if b == nil {
		return nil, errors.New("CreateBinding: nil binding")
	}
	name := strings.TrimSuffix(parent, "/") + "/bindings/" + bindingID
	resp, _, err := c.writeOperation(ctx, "create", name, func(ctx context.Context, requestID string) (*agentregistry.Operation, error) {
		return c.registry.Projects.Locations.Bindings.Create(parent, b).BindingId(bindingID).RequestId(requestID).Context(ctx).Do()
	})
	if IsAlreadyExists(err) {
		return c.adoptBinding(ctx, name, b, err)
	}
	if err != nil {
		return nil, err
	}
	return c.bindingFromResponse(ctx, resp, name)
}

// adoptBinding returns the existing binding when it is the one asked for
// (a create that timed out after the registry committed it converges on
// the next apply), else the ALREADY_EXISTS error.
func (c *Client) adoptBinding(ctx context.Context, name string, want *agentregistry.Binding, conflict error) (*agentregistry.Binding, error) {
	got, err := c.GetBinding(ctx, name)
	if err != nil {
		return nil, conflict
	}
	if bindingKey(got) != bindingKey(want) {
		return nil, fmt.Errorf("binding %s already exists with other values; import it or choose another binding_id: %w", name, conflict)
	}
	return got, nil
}

// bindingKey is what a binding is made of, for adoption.
func bindingKey(b *agentregistry.Binding) string {
	var source, target string
	if b.Source != nil {
		source = b.Source.Identifier
	}
	if b.Target != nil {
		target = b.Target.Identifier
	}
	a := b.AuthProviderBinding
	if a == nil {
		a = &agentregistry.AuthProviderBinding{}
	}
	return strings.Join([]string{b.DisplayName, b.Description, source, target, a.AuthProvider, a.ContinueUri,
		strings.Join(a.Scopes, " ")}, "\x00")
}

// GetBinding reads one binding.
func (c *Client) GetBinding(ctx context.Context, name string) (*agentregistry.Binding, error) {
	b, err := c.registry.Projects.Locations.Bindings.Get(name).Context(ctx).Do()
	return b, wrapError(apiRegistry, err)
}

// UpdateBinding patches b (b.Name names it) with the update mask (field
// paths such as "displayName", "authProviderBinding") and waits.
func (c *Client) UpdateBinding(ctx context.Context, b *agentregistry.Binding, updateMask []string) (*agentregistry.Binding, error) {
	if b == nil || b.Name == "" {
		return nil, errors.New("UpdateBinding: the binding must have a name")
	}
	resp, _, err := c.writeOperation(ctx, "update", b.Name, func(ctx context.Context, requestID string) (*agentregistry.Operation, error) {
		call := c.registry.Projects.Locations.Bindings.Patch(b.Name, b).RequestId(requestID).Context(ctx)
		if len(updateMask) > 0 {
			call = call.UpdateMask(strings.Join(updateMask, ","))
		}
		return call.Do()
	})
	if err != nil {
		return nil, err
	}
	return c.bindingFromResponse(ctx, resp, b.Name)
}

// DeleteBinding deletes a binding and waits. NOT_FOUND is an error (test
// with IsNotFound), except on a delete sent again after its first operation
// could not be polled: the binding is gone, as asked.
func (c *Client) DeleteBinding(ctx context.Context, name string) error {
	_, attempt, err := c.writeOperation(ctx, "delete", name, func(ctx context.Context, requestID string) (*agentregistry.Operation, error) {
		return c.registry.Projects.Locations.Bindings.Delete(name).RequestId(requestID).Context(ctx).Do()
	})
	if attempt > 1 && IsNotFound(err) {
		return nil
	}
	return err
}

// ListBindings lists the bindings under parent that match filter (AIP-160;
// "" for all), to the end or until limit results when limit > 0.
func (c *Client) ListBindings(ctx context.Context, parent, filter string, limit int) ([]*agentregistry.Binding, error) {
	var out []*agentregistry.Binding
	err := paginate(limit, func(pageSize int64, token string) (int, string, error) {
		call := c.registry.Projects.Locations.Bindings.List(parent).PageSize(pageSize).PageToken(token)
		if filter != "" {
			call = call.Filter(filter)
		}
		resp, err := call.Context(ctx).Do()
		if err != nil {
			return 0, "", wrapError(apiRegistry, err)
		}
		out = append(out, resp.Bindings...)
		return len(out), resp.NextPageToken, nil
	})
	return truncate(out, limit), err
}

// FetchAvailableBindings runs bindings:fetchAvailable for a source agent
// and/or a target URN ("" leaves one out), to the end or until limit results.
func (c *Client) FetchAvailableBindings(ctx context.Context, parent, source, target string, limit int) ([]*agentregistry.Binding, error) {
	var out []*agentregistry.Binding
	err := paginate(limit, func(pageSize int64, token string) (int, string, error) {
		call := c.registry.Projects.Locations.Bindings.FetchAvailable(parent).PageSize(pageSize).PageToken(token)
		if source != "" {
			call = call.SourceIdentifier(source)
		}
		if target != "" {
			call = call.TargetIdentifier(target)
		}
		resp, err := call.Context(ctx).Do()
		if err != nil {
			return 0, "", wrapError(apiRegistry, err)
		}
		out = append(out, resp.Bindings...)
		return len(out), resp.NextPageToken, nil
	})
	return truncate(out, limit), err
}

// bindingFromResponse decodes a finished operation's response, or reads the
// binding when the response is empty.
func (c *Client) bindingFromResponse(ctx context.Context, resp googleapi.RawMessage, name string) (*agentregistry.Binding, error) {
	if len(bytes.TrimSpace(resp)) > 0 {
		var b agentregistry.Binding
		if err := json.Unmarshal(resp, &b); err != nil {
			return nil, fmt.Errorf("decoding the binding in the operation response: %w", err)
		}
		if b.Name != "" {
			return &b, nil
		}
	}
	return c.GetBinding(ctx, name)
}
