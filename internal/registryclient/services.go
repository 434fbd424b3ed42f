package registryclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// CreateService registers svc as parent/services/serviceID and waits for the
// operation (sent again with the same requestId when it could not be polled,
// so never applied twice). When the service already exists with the same spec
// type, content, display name and description, it is adopted and returned;
// otherwise the error is a *ConflictError naming what differs.
func (c *Client) CreateService(ctx context.Context, parent, serviceID string, svc *agentregistry.Service) (*agentregistry.Service, error) {
	if svc == nil {
		return nil, errors.New("CreateService: nil service")
	}
	name := strings.TrimSuffix(parent, "/") + "/services/" + serviceID
	resp, _, err := c.writeRegistry(ctx, "create "+name, func(ctx context.Context, requestID string) (*agentregistry.Operation, error) {
		return c.registry.Projects.Locations.Services.Create(parent, svc).ServiceId(serviceID).RequestId(requestID).Context(ctx).Do()
	})
	if IsAlreadyExists(err) {
		return c.adopt(ctx, name, svc, err)
	}
	if err != nil {
		return nil, err
	}
	return decodeResponse(resp, serviceName, func() (*agentregistry.Service, error) { return c.GetService(ctx, name) })
}

// GetService reads one service.
func (c *Client) GetService(ctx context.Context, name string) (*agentregistry.Service, error) {
	svc, err := c.registry.Projects.Locations.Services.Get(name).Context(ctx).Do()
	return svc, wrapError(apiRegistry, err)
}

// UpdateService patches svc (svc.Name names it) with the given update mask
// (field paths such as "agentSpec.content", "displayName"; empty means the
// server's full-replacement semantics) and waits for the operation.
func (c *Client) UpdateService(ctx context.Context, svc *agentregistry.Service, updateMask []string) (*agentregistry.Service, error) {
	if svc == nil || svc.Name == "" {
		return nil, errors.New("UpdateService: the service must have a name")
	}
	resp, _, err := c.writeRegistry(ctx, "update "+svc.Name, func(ctx context.Context, requestID string) (*agentregistry.Operation, error) {
		call := c.registry.Projects.Locations.Services.Patch(svc.Name, svc).RequestId(requestID).Context(ctx)
		if len(updateMask) > 0 {
			call = call.UpdateMask(strings.Join(updateMask, ","))
		}
		return call.Do()
	})
	if err != nil {
		return nil, err
	}
	return decodeResponse(resp, serviceName, func() (*agentregistry.Service, error) { return c.GetService(ctx, svc.Name) })
}

// DeleteService deletes a service and waits for the operation. A service that
// does not exist is a NOT_FOUND error (test with IsNotFound), except when the
// delete is being sent again after its first operation could not be polled:
// then the service is gone, as asked, and the result is nil.
func (c *Client) DeleteService(ctx context.Context, name string) error {
	_, attempt, err := c.writeRegistry(ctx, "delete "+name, func(ctx context.Context, requestID string) (*agentregistry.Operation, error) {
		return c.registry.Projects.Locations.Services.Delete(name).RequestId(requestID).Context(ctx).Do()
	})
	if deletedOnResend(attempt, err) {
		return nil
	}
	return err
}

func serviceName(s *agentregistry.Service) string { return s.Name }

// GetAgent reads a derived Agent record (projects/*/locations/*/agents/*).
func (c *Client) GetAgent(ctx context.Context, name string) (*agentregistry.Agent, error) {
	a, err := c.registry.Projects.Locations.Agents.Get(name).Context(ctx).Do()
	return a, wrapError(apiRegistry, err)
}

// GetMcpServer reads a derived McpServer record (projects/*/locations/*/mcpServers/*).
func (c *Client) GetMcpServer(ctx context.Context, name string) (*agentregistry.McpServer, error) {
	m, err := c.registry.Projects.Locations.McpServers.Get(name).Context(ctx).Do()
	return m, wrapError(apiRegistry, err)
}

// ConflictError is returned by CreateService when the service ID is taken by
// a service that differs from the one asked for. It wraps the 409 *APIError.
type ConflictError struct {
	Name        string
	Differences []string // e.g. "a different agent card"
	Err         error
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("service %s already exists with %s; import it or choose another service_id",
		e.Name, joinAnd(e.Differences))
}

func (e *ConflictError) Unwrap() error { return e.Err }

// adopt handles ALREADY_EXISTS: the existing service is ours when it carries
// what we asked for (typically our own earlier attempt whose answer was lost).
func (c *Client) adopt(ctx context.Context, name string, want *agentregistry.Service, conflict error) (*agentregistry.Service, error) {
	got, err := c.GetService(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("%w; reading the existing service failed: %w", conflict, err)
	}
	diffs := serviceDifferences(want, got)
	if len(diffs) > 0 {
		return nil, &ConflictError{Name: name, Differences: diffs, Err: conflict}
	}
	tflog.Debug(ctx, "service already exists with the same content; adopting it", map[string]any{"service": name})
	return got, nil
}

// serviceDifferences lists what differs between the service we asked for and
// an existing one: spec kind and type, semantic content, display name,
// description, interfaces (an endpoint or a card-less agent is its interfaces).
func serviceDifferences(want, got *agentregistry.Service) []string {
	wk, wt, wc, wdoc := specOf(want)
	gk, gt, gc, _ := specOf(got)
	var diffs []string
	switch {
	case wk != gk:
		diffs = append(diffs, fmt.Sprintf("a different kind (%s, not %s)", orNone(gk), orNone(wk)))
	case wt != gt:
		diffs = append(diffs, fmt.Sprintf("a different spec type (%s, not %s)", orNone(gt), orNone(wt)))
	case !jsonEqual(wc, gc):
		diffs = append(diffs, "a different "+wdoc)
	}
	if want.DisplayName != got.DisplayName {
		diffs = append(diffs, "a different display name")
	}
	if want.Description != got.Description {
		diffs = append(diffs, "a different description")
	}
	if !sameInterfaces(want.Interfaces, got.Interfaces) {
		diffs = append(diffs, "different interfaces")
	}
	return diffs
}

func sameInterfaces(a, b []*agentregistry.Interface) bool {
	return slices.EqualFunc(a, b, func(x, y *agentregistry.Interface) bool {
		return x != nil && y != nil && x.Url == y.Url && x.ProtocolBinding == y.ProtocolBinding
	})
}

// specOf returns which spec a service carries, its type, content and the
// name of its document in messages.
func specOf(s *agentregistry.Service) (kind, typ string, content []byte, doc string) {
	switch {
	case s.AgentSpec != nil:
		return "agent", s.AgentSpec.Type, s.AgentSpec.Content, "agent card"
	case s.McpServerSpec != nil:
		return "MCP server", s.McpServerSpec.Type, s.McpServerSpec.Content, "tool spec"
	case s.EndpointSpec != nil:
		return "endpoint", s.EndpointSpec.Type, s.EndpointSpec.Content, "endpoint spec"
	}
	return "", "", nil, "spec"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return "different content"
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// jsonEqual compares two JSON documents as the registry stores them
// (jsoncanon.StoredEqual: key order, spacing and number spelling do not matter);
// absent, empty and null are equal. A document that jsoncanon refuses is
// equal only to the same text.
func jsonEqual(a, b []byte) bool {
	a, b = bytes.TrimSpace(a), bytes.TrimSpace(b)
	if isAbsent(a) || isAbsent(b) {
		return isAbsent(a) && isAbsent(b)
	}
	eq, err := jsoncanon.StoredEqual(a, b) // what the registry echoes holds its numbers as doubles
	if err != nil {
		return bytes.Equal(a, b)
	}
	return eq
}

func isAbsent(doc []byte) bool { return len(doc) == 0 || bytes.Equal(doc, []byte("null")) }
