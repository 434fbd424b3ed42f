package registryclient

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"google.golang.org/api/agentregistry/v1"
)

// Standalone skills: create, patch and delete (of skills and revisions) are
// long-running operations with a requestId; get, list and search are plain
// calls. The v1 client has every method, so no v1alpha client is needed.

func skillName(s *agentregistry.Skill) string            { return s.Name }
func revisionName(r *agentregistry.SkillRevision) string { return r.Name }

// CreateSkill creates parent/skills/skillID (with sk.InitialRevision, when
// set, as its first revision) and waits for the operation.
func (c *Client) CreateSkill(ctx context.Context, parent, skillID string, sk *agentregistry.Skill) (*agentregistry.Skill, error) {
	name := strings.TrimSuffix(parent, "/") + "/skills/" + skillID
	resp, _, err := c.writeRegistry(ctx, "create "+name, func(ctx context.Context, id string) (*agentregistry.Operation, error) {
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

// UpdateSkill patches sk (sk.Name names it) with the given update mask
// (empty: the server's full-replacement semantics) and waits for the operation.
func (c *Client) UpdateSkill(ctx context.Context, sk *agentregistry.Skill, updateMask []string) (*agentregistry.Skill, error) {
	resp, _, err := c.writeRegistry(ctx, "update "+sk.Name, func(ctx context.Context, id string) (*agentregistry.Operation, error) {
		call := c.registry.Projects.Locations.Skills.Patch(sk.Name, sk).RequestId(id).Context(ctx)
		if len(updateMask) > 0 {
			call = call.UpdateMask(strings.Join(updateMask, ","))
		}
		return call.Do()
	})
	if err != nil {
		return nil, err
	}
	return decodeResponse(resp, skillName, func() (*agentregistry.Skill, error) { return c.GetSkill(ctx, sk.Name) })
}

// DeleteSkill deletes a skill; force also deletes its revisions (without it
// a skill with revisions is refused). NOT_FOUND is an error, except on a
// delete sent again after its first operation could not be polled.
func (c *Client) DeleteSkill(ctx context.Context, name string, force bool) error {
	_, attempt, err := c.writeRegistry(ctx, "delete "+name, func(ctx context.Context, id string) (*agentregistry.Operation, error) {
		return c.registry.Projects.Locations.Skills.Delete(name).Force(force).RequestId(id).Context(ctx).Do()
	})
	if deletedOnResend(attempt, err) {
		return nil
	}
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
	resp, _, err := c.writeRegistry(ctx, "create revision of "+skill, func(ctx context.Context, id string) (*agentregistry.Operation, error) {
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

// skillList is skills.list under parent that match filter ("" for all).
func (c *Client) skillList(parent, filter string) pagedRead[*agentregistry.Skill] {
	return pagedRead[*agentregistry.Skill]{"skills.list", func(ctx context.Context, pageSize int64, token string) ([]*agentregistry.Skill, string, error) {
		call := c.registry.Projects.Locations.Skills.List(parent).PageSize(pageSize).PageToken(token)
		if filter != "" {
			call = call.Filter(filter)
		}
		resp, err := call.Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.Skills, resp.NextPageToken, nil
	}}
}

// SearchSkills runs skills:search (searchType KEYWORD or SEMANTIC) under
// parent and follows nextPageToken to the end, or until limit results.
func (c *Client) SearchSkills(ctx context.Context, parent, query, searchType string, limit int) ([]*agentregistry.Skill, error) {
	return pagedRead[*agentregistry.Skill]{"skills:search", func(ctx context.Context, pageSize int64, token string) ([]*agentregistry.Skill, string, error) {
		call := c.registry.Projects.Locations.Skills.Search(parent).SearchString(query).PageSize(pageSize).Context(ctx)
		if searchType != "" {
			call = call.SearchType(searchType)
		}
		if token != "" {
			call = call.PageToken(token)
		}
		resp, err := call.Do()
		if err != nil {
			return nil, "", err
		}
		return resp.Skills, resp.NextPageToken, nil
	}}.upTo(ctx, c, limit)
}
