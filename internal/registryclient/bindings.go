package registryclient

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"google.golang.org/api/agentregistry/v1"
)

// CreateBinding creates parent/bindings/bindingID and waits for the operation.
func (c *Client) CreateBinding(ctx context.Context, parent, bindingID string, b *agentregistry.Binding) (*agentregistry.Binding, error) {
	if b == nil {
		return nil, errors.New("CreateBinding: nil binding")
	}
	name := strings.TrimSuffix(parent, "/") + "/bindings/" + bindingID
	resp, _, err := c.writeRegistry(ctx, "create "+name, func(ctx context.Context, requestID string) (*agentregistry.Operation, error) {
		return c.registry.Projects.Locations.Bindings.Create(parent, b).BindingId(bindingID).RequestId(requestID).Context(ctx).Do()
	})
	if IsAlreadyExists(err) {
		return c.adoptBinding(ctx, name, b, err)
	}
	if err != nil {
		return nil, err
	}
	return decodeResponse(resp, bindingName, func() (*agentregistry.Binding, error) { return c.GetBinding(ctx, name) })
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
	resp, _, err := c.writeRegistry(ctx, "update "+b.Name, func(ctx context.Context, requestID string) (*agentregistry.Operation, error) {
		call := c.registry.Projects.Locations.Bindings.Patch(b.Name, b).RequestId(requestID).Context(ctx)
		if len(updateMask) > 0 {
			call = call.UpdateMask(strings.Join(updateMask, ","))
		}
		return call.Do()
	})
	if err != nil {
		return nil, err
	}
	return decodeResponse(resp, bindingName, func() (*agentregistry.Binding, error) { return c.GetBinding(ctx, b.Name) })
}

// DeleteBinding deletes a binding and waits. NOT_FOUND is an error (test
// with IsNotFound), except on a delete sent again after its first operation
// could not be polled: the binding is gone, as asked.
func (c *Client) DeleteBinding(ctx context.Context, name string) error {
	_, attempt, err := c.writeRegistry(ctx, "delete "+name, func(ctx context.Context, requestID string) (*agentregistry.Operation, error) {
		return c.registry.Projects.Locations.Bindings.Delete(name).RequestId(requestID).Context(ctx).Do()
	})
	if deletedOnResend(attempt, err) {
		return nil
	}
	return err
}

// bindingList is bindings.list under parent that match filter (AIP-160; ""
// for all).
func (c *Client) bindingList(parent, filter string) pagedRead[*agentregistry.Binding] {
	return pagedRead[*agentregistry.Binding]{"bindings.list", func(ctx context.Context, pageSize int64, token string) ([]*agentregistry.Binding, string, error) {
		call := c.registry.Projects.Locations.Bindings.List(parent).PageSize(pageSize).PageToken(token)
		if filter != "" {
			call = call.Filter(filter)
		}
		resp, err := call.Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.Bindings, resp.NextPageToken, nil
	}}
}

// ListBindings lists the bindings under parent that match filter (AIP-160;
// "" for all), to the end or until limit results when limit > 0.
func (c *Client) ListBindings(ctx context.Context, parent, filter string, limit int) ([]*agentregistry.Binding, error) {
	return c.bindingList(parent, filter).upTo(ctx, c, limit)
}

// FetchAvailableBindings runs bindings:fetchAvailable for a source agent
// and/or a target URN ("" leaves one out), to the end or until limit results.
func (c *Client) FetchAvailableBindings(ctx context.Context, parent, source, target string, limit int) ([]*agentregistry.Binding, error) {
	return pagedRead[*agentregistry.Binding]{"bindings:fetchAvailable", func(ctx context.Context, pageSize int64, token string) ([]*agentregistry.Binding, string, error) {
		call := c.registry.Projects.Locations.Bindings.FetchAvailable(parent).PageSize(pageSize).PageToken(token)
		if source != "" {
			call = call.SourceIdentifier(source)
		}
		if target != "" {
			call = call.TargetIdentifier(target)
		}
		resp, err := call.Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.Bindings, resp.NextPageToken, nil
	}}.upTo(ctx, c, limit)
}

func bindingName(b *agentregistry.Binding) string { return b.Name }
