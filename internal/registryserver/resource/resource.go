// Package resource holds the resources of the Agent Registry v1 and App Hub
// v1 APIs as the bundled server reads, stores and returns them: copies of
// the types of google.golang.org/api's agentregistry/v1 and apphub/v1, with
// the same fields, JSON names and encodings (a field that API sends as a
// JSON string, such as sizeBytes, is one here too), so that a request
// decodes, and a record encodes, exactly as with those types. The generated
// packages cannot serve: they are API clients and import net/http, which the
// server's state and search packages do not. resource_test.go compares every
// type with its original, so that a new field in a later API version fails
// the test until it is copied here.
//
// Two differences, both in the encoding only: a RawMessage is
// encoding/json's, not googleapi's (the same bytes either way); and the hints
// of Annotations are always sent, where the generated type needs
// ForceSendFields for that (a false hint means something other than an
// absent one: the MCP defaults of two of them are true).
package resource

import "encoding/json"

// Agent Registry v1 (google.golang.org/api/agentregistry/v1).

// Service mirrors agentregistry.Service.
type Service struct {
	AgentSpec        *AgentSpec     `json:"agentSpec,omitempty"`
	CreateTime       string         `json:"createTime,omitempty"`
	Description      string         `json:"description,omitempty"`
	DisplayName      string         `json:"displayName,omitempty"`
	EndpointSpec     *EndpointSpec  `json:"endpointSpec,omitempty"`
	Interfaces       []*Interface   `json:"interfaces,omitempty"`
	McpServerSpec    *McpServerSpec `json:"mcpServerSpec,omitempty"`
	Name             string         `json:"name,omitempty"`
	RegistryResource string         `json:"registryResource,omitempty"`
	UpdateTime       string         `json:"updateTime,omitempty"`
}

// Agent mirrors agentregistry.Agent.
type Agent struct {
	AgentId     string                     `json:"agentId,omitempty"`
	Attributes  map[string]json.RawMessage `json:"attributes,omitempty"`
	Card        *Card                      `json:"card,omitempty"`
	CreateTime  string                     `json:"createTime,omitempty"`
	Description string                     `json:"description,omitempty"`
	DisplayName string                     `json:"displayName,omitempty"`
	Location    string                     `json:"location,omitempty"`
	Name        string                     `json:"name,omitempty"`
	Protocols   []*Protocol                `json:"protocols,omitempty"`
	Skills      []*A2ASkill                `json:"skills,omitempty"`
	Uid         string                     `json:"uid,omitempty"`
	UpdateTime  string                     `json:"updateTime,omitempty"`
	Version     string                     `json:"version,omitempty"`
}

// McpServer mirrors agentregistry.McpServer.
type McpServer struct {
	Attributes  map[string]json.RawMessage `json:"attributes,omitempty"`
	CreateTime  string                     `json:"createTime,omitempty"`
	Description string                     `json:"description,omitempty"`
	DisplayName string                     `json:"displayName,omitempty"`
	Interfaces  []*Interface               `json:"interfaces,omitempty"`
	McpServerId string                     `json:"mcpServerId,omitempty"`
	Name        string                     `json:"name,omitempty"`
	Tools       []*Tool                    `json:"tools,omitempty"`
	UpdateTime  string                     `json:"updateTime,omitempty"`
}

// Endpoint mirrors agentregistry.Endpoint.
type Endpoint struct {
	Attributes  map[string]json.RawMessage `json:"attributes,omitempty"`
	CreateTime  string                     `json:"createTime,omitempty"`
	Description string                     `json:"description,omitempty"`
	DisplayName string                     `json:"displayName,omitempty"`
	EndpointId  string                     `json:"endpointId,omitempty"`
	Interfaces  []*Interface               `json:"interfaces,omitempty"`
	Name        string                     `json:"name,omitempty"`
	UpdateTime  string                     `json:"updateTime,omitempty"`
}

// Binding mirrors agentregistry.Binding.
type Binding struct {
	AuthProviderBinding *AuthProviderBinding `json:"authProviderBinding,omitempty"`
	CreateTime          string               `json:"createTime,omitempty"`
	Description         string               `json:"description,omitempty"`
	DisplayName         string               `json:"displayName,omitempty"`
	Name                string               `json:"name,omitempty"`
	Source              *Source              `json:"source,omitempty"`
	Target              *Target              `json:"target,omitempty"`
	UpdateTime          string               `json:"updateTime,omitempty"`
}

// Skill mirrors agentregistry.Skill.
type Skill struct {
	CreateTime      string          `json:"createTime,omitempty"`
	DefaultRevision string          `json:"defaultRevision,omitempty"`
	Description     string          `json:"description,omitempty"`
	DisplayName     string          `json:"displayName,omitempty"`
	Frontmatter     *Frontmatter    `json:"frontmatter,omitempty"`
	InitialRevision *SkillRevision  `json:"initialRevision,omitempty"`
	Name            string          `json:"name,omitempty"`
	Publisher       string          `json:"publisher,omitempty"`
	ScanningConfig  *ScanningConfig `json:"scanningConfig,omitempty"`
	SkillId         string          `json:"skillId,omitempty"`
	State           string          `json:"state,omitempty"`
	TargetState     string          `json:"targetState,omitempty"`
	Type            string          `json:"type,omitempty"`
	Uid             string          `json:"uid,omitempty"`
	UpdateTime      string          `json:"updateTime,omitempty"`
}

// SkillRevision mirrors agentregistry.SkillRevision.
type SkillRevision struct {
	ArchiveUploadSource *ArchiveUploadSource `json:"archiveUploadSource,omitempty"`
	CreateTime          string               `json:"createTime,omitempty"`
	Frontmatter         *Frontmatter         `json:"frontmatter,omitempty"`
	GcsSource           *GcsSource           `json:"gcsSource,omitempty"`
	Name                string               `json:"name,omitempty"`
	ScanResult          *ScanResult          `json:"scanResult,omitempty"`
	Sha256Hash          string               `json:"sha256Hash,omitempty"`
	SizeBytes           int64                `json:"sizeBytes,omitempty,string"`
	State               string               `json:"state,omitempty"`
	Uid                 string               `json:"uid,omitempty"`
}

// ListServicesResponse mirrors agentregistry.ListServicesResponse.
type ListServicesResponse struct {
	NextPageToken string     `json:"nextPageToken,omitempty"`
	Services      []*Service `json:"services,omitempty"`
}

// ListBindingsResponse mirrors agentregistry.ListBindingsResponse.
type ListBindingsResponse struct {
	Bindings      []*Binding `json:"bindings,omitempty"`
	NextPageToken string     `json:"nextPageToken,omitempty"`
}

// FetchAvailableBindingsResponse mirrors agentregistry.FetchAvailableBindingsResponse.
type FetchAvailableBindingsResponse struct {
	Bindings      []*Binding `json:"bindings,omitempty"`
	NextPageToken string     `json:"nextPageToken,omitempty"`
}

// ListSkillsResponse mirrors agentregistry.ListSkillsResponse.
type ListSkillsResponse struct {
	NextPageToken string   `json:"nextPageToken,omitempty"`
	Skills        []*Skill `json:"skills,omitempty"`
	Unreachable   []string `json:"unreachable,omitempty"`
}

// SearchSkillsResponse mirrors agentregistry.SearchSkillsResponse.
type SearchSkillsResponse struct {
	NextPageToken string   `json:"nextPageToken,omitempty"`
	Skills        []*Skill `json:"skills,omitempty"`
}

// ListSkillRevisionsResponse mirrors agentregistry.ListSkillRevisionsResponse.
type ListSkillRevisionsResponse struct {
	NextPageToken  string           `json:"nextPageToken,omitempty"`
	SkillRevisions []*SkillRevision `json:"skillRevisions,omitempty"`
}

// AgentSpec mirrors agentregistry.AgentSpec.
type AgentSpec struct {
	Content json.RawMessage `json:"content,omitempty"`
	Type    string          `json:"type,omitempty"`
}

// EndpointSpec mirrors agentregistry.EndpointSpec.
type EndpointSpec struct {
	Content json.RawMessage `json:"content,omitempty"`
	Type    string          `json:"type,omitempty"`
}

// Interface mirrors agentregistry.Interface.
type Interface struct {
	ProtocolBinding string `json:"protocolBinding,omitempty"`
	Url             string `json:"url,omitempty"`
}

// McpServerSpec mirrors agentregistry.McpServerSpec.
type McpServerSpec struct {
	Content json.RawMessage `json:"content,omitempty"`
	Type    string          `json:"type,omitempty"`
}

// Card mirrors agentregistry.Card.
type Card struct {
	Content json.RawMessage `json:"content,omitempty"`
	Type    string          `json:"type,omitempty"`
}

// Protocol mirrors agentregistry.Protocol.
type Protocol struct {
	Interfaces      []*Interface `json:"interfaces,omitempty"`
	ProtocolVersion string       `json:"protocolVersion,omitempty"`
	Type            string       `json:"type,omitempty"`
}

// A2ASkill mirrors agentregistry.A2ASkill.
type A2ASkill struct {
	Description string   `json:"description,omitempty"`
	Examples    []string `json:"examples,omitempty"`
	Id          string   `json:"id,omitempty"`
	Name        string   `json:"name,omitempty"`
	Tags        []string `json:"tags,omitempty"`
}

// Tool mirrors agentregistry.Tool.
type Tool struct {
	Meta        json.RawMessage `json:"_meta,omitempty"`
	Annotations *Annotations    `json:"annotations,omitempty"`
	Description string          `json:"description,omitempty"`
	Name        string          `json:"name,omitempty"`
}

// AuthProviderBinding mirrors agentregistry.AuthProviderBinding.
type AuthProviderBinding struct {
	AuthProvider string   `json:"authProvider,omitempty"`
	ContinueUri  string   `json:"continueUri,omitempty"`
	Scopes       []string `json:"scopes,omitempty"`
}

// Source mirrors agentregistry.Source.
type Source struct {
	Identifier string `json:"identifier,omitempty"`
}

// Target mirrors agentregistry.Target.
type Target struct {
	Identifier string `json:"identifier,omitempty"`
}

// Frontmatter mirrors agentregistry.Frontmatter.
type Frontmatter struct {
	Compatibility string            `json:"compatibility,omitempty"`
	Description   string            `json:"description,omitempty"`
	License       string            `json:"license,omitempty"`
	Metadata      map[string]string `json:"metadata,omitempty"`
	Name          string            `json:"name,omitempty"`
}

// ScanningConfig mirrors agentregistry.ScanningConfig.
type ScanningConfig struct {
	Policy string `json:"policy,omitempty"`
}

// ArchiveUploadSource mirrors agentregistry.ArchiveUploadSource.
type ArchiveUploadSource struct {
	ArchiveContent string `json:"archiveContent,omitempty"`
}

// GcsSource mirrors agentregistry.GcsSource.
type GcsSource struct {
	Generation int64  `json:"generation,omitempty,string"`
	Uri        string `json:"uri,omitempty"`
}

// ScanResult mirrors agentregistry.ScanResult.
type ScanResult struct {
	ErrorMessage string   `json:"errorMessage,omitempty"`
	Findings     []string `json:"findings,omitempty"`
	ScanState    string   `json:"scanState,omitempty"`
	ScanTime     string   `json:"scanTime,omitempty"`
}

// Annotations mirrors agentregistry.Annotations.
type Annotations struct {
	DestructiveHint bool   `json:"destructiveHint"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   bool   `json:"openWorldHint"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	Title           string `json:"title,omitempty"`
}
