package registryclient

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/googleapi"
)

// Standalone skills: create, patch and delete (of skills and revisions) are
// long-running operations with a requestId; get, list and search are plain
// calls. The v1 client has every method, so no v1alpha client is needed.

// writeOp sends a write with one requestId for all attempts and waits for
// its operation, sending it again (same id, so never applied twice) when the
// operation could not be polled. It returns the operation's response.
func (c *Client) writeOp(ctx context.Context, what string, send func(ctx context.Context, requestID string) (*agentregistry.Operation, error)) (googleapi.RawMessage, error) {
	requestID := NewRequestID()
	ctx = tflog.SetField(ctx, "request_id", requestID)
	for attempt := 1; ; attempt++ {
		op, err := send(ctx, requestID)
		if err != nil {
			return nil, wrapError(apiRegistry, err)
		}
		resp, err := c.awaitRegistry(ctx, op)
		if err != nil && attempt < maxWriteAttempts && reissuable(ctx, err) {
			tflog.Debug(ctx, "sending the write again with the same requestId", map[string]any{"what": what, "error": err.Error()})
			continue
		}
		return resp, err
	}
}

// decodeResponse decodes a finished operation's response into v, or reads
// the resource with get when the response does not name it.
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

func skillName(s *agentregistry.Skill) string            { return s.Name }
func revisionName(r *agentregistry.SkillRevision) string { return r.Name }

// CreateSkill creates parent/skills/skillID (with sk.InitialRevision, when
// set, as its first revision) and waits for the operation.
func (c *Client) CreateSkill(ctx context.Context, parent, skillID string, sk *agentregistry.Skill) (*agentregistry.Skill, error) {
	name := strings.TrimSuffix(parent, "/") + "/skills/" + skillID
	resp, err := c.writeOp(ctx, "create "+name, func(ctx context.Context, id string) (*agentregistry.Operation, error) {
		return c.registry.Projects.Locations.Skills.Create(parent, sk).SkillId(skillID).RequestId(id).Context(ctx).Do()
	})
	if err != nil {
		return nil, err
	}
	return decodeResponse(resp, skillName, func() (*agentregistry.Skill, error) { return c.GetSkill(ctx, name) })
}

// GetSkill reads one skill.
func (c *Client) GetSkill(ctx context.Context, name string) (*agentregistry.Skill, error) {
	sk, err := c.registry.Projects.Locations.Skills.Get(name).Context(ctx).Do()
	return sk, wrapError(apiRegistry, err)
}

// UpdateSkill patches sk (sk.Name names it) with the given update mask and
// waits for the operation.
func (c *Client) UpdateSkill(ctx context.Context, sk *agentregistry.Skill, updateMask []string) (*agentregistry.Skill, error) {
	resp, err := c.writeOp(ctx, "update "+sk.Name, func(ctx context.Context, id string) (*agentregistry.Operation, error) {
		return c.registry.Projects.Locations.Skills.Patch(sk.Name, sk).UpdateMask(strings.Join(updateMask, ",")).RequestId(id).Context(ctx).Do()
	})
	if err != nil {
		return nil, err
	}
	return decodeResponse(resp, skillName, func() (*agentregistry.Skill, error) { return c.GetSkill(ctx, sk.Name) })
}

// DeleteSkill deletes a skill; force also deletes its revisions (without it
// a skill with revisions is refused).
func (c *Client) DeleteSkill(ctx context.Context, name string, force bool) error {
	_, err := c.writeOp(ctx, "delete "+name, func(ctx context.Context, id string) (*agentregistry.Operation, error) {
		return c.registry.Projects.Locations.Skills.Delete(name).Force(force).RequestId(id).Context(ctx).Do()
	})
	return err
}

// ArchiveRevision is a revision uploaded as a ZIP or TAR archive.
func ArchiveRevision(archive []byte) *agentregistry.SkillRevision {
	return &agentregistry.SkillRevision{ArchiveUploadSource: &agentregistry.ArchiveUploadSource{
		ArchiveContent: base64.StdEncoding.EncodeToString(archive)}}
}

// CreateSkillRevision adds rev under skill (the registry makes the newest
// revision the default) and waits for the operation.
func (c *Client) CreateSkillRevision(ctx context.Context, skill string, rev *agentregistry.SkillRevision) (*agentregistry.SkillRevision, error) {
	resp, err := c.writeOp(ctx, "create revision of "+skill, func(ctx context.Context, id string) (*agentregistry.Operation, error) {
		return c.registry.Projects.Locations.Skills.Revisions.Create(skill, rev).RequestId(id).Context(ctx).Do()
	})
	if err != nil {
		return nil, err
	}
	return decodeResponse(resp, revisionName, func() (*agentregistry.SkillRevision, error) {
		return nil, fmt.Errorf("the registry's operation for a new revision of %s did not return the revision", skill)
	})
}

// GetSkillRevision reads one revision.
func (c *Client) GetSkillRevision(ctx context.Context, name string) (*agentregistry.SkillRevision, error) {
	rev, err := c.registry.Projects.Locations.Skills.Revisions.Get(name).Context(ctx).Do()
	return rev, wrapError(apiRegistry, err)
}

// SearchSkills runs skills:search (searchType KEYWORD or SEMANTIC) under
// parent and follows nextPageToken to the end, or until limit results.
func (c *Client) SearchSkills(ctx context.Context, parent, query, searchType string, limit int) ([]*agentregistry.Skill, error) {
	var out []*agentregistry.Skill
	err := paginate(limit, func(pageSize int64, token string) (int, string, error) {
		call := c.registry.Projects.Locations.Skills.Search(parent).SearchString(query).PageSize(pageSize).Context(ctx)
		if searchType != "" {
			call = call.SearchType(searchType)
		}
		if token != "" {
			call = call.PageToken(token)
		}
		resp, err := call.Do()
		if err != nil {
			return 0, "", wrapError(apiRegistry, err)
		}
		out = append(out, resp.Skills...)
		return len(out), resp.NextPageToken, nil
	})
	if err != nil {
		return nil, err
	}
	return truncate(out, limit), nil
}
