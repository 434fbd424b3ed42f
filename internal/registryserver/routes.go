package registryserver

// The routing table: one line per method of the discovery documents that
// google.golang.org/api ships (agentregistry/v1, and apphub/v1 for the
// workloads and their AgentProperties), in the documents' order. A line
// without a handler is refused with 501 UNIMPLEMENTED on purpose; the
// conformance test (discovery_test.go) calls every method of both documents
// through the generated clients and fails on a method that is in neither
// state, so a new method in a future document fails it until it has a line.

import (
	"net/http"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/state"
)

// q lists a method's query parameters.
func q(params ...string) []string { return params }

const loc = "/v1/projects/{project}/locations/{location}"

var routes = []route{
	// Locations and operations. App Hub documents the same six methods on
	// the same paths (apphub.projects.locations.get, ...); these lines
	// serve both APIs.
	{pattern: "GET /v1/projects/{project}/locations", id: "agentregistry.projects.locations.list", query: q("extraLocationTypes", "filter", "pageSize", "pageToken"), serve: (*Server).listLocations},
	{pattern: "GET " + loc, id: "agentregistry.projects.locations.get", serve: (*Server).getLocation},
	{pattern: "POST " + loc + "/operations/{operation}:cancel", id: "agentregistry.projects.locations.operations.cancel", serve: (*Server).cancelOperation},
	{pattern: "DELETE " + loc + "/operations/{operation}", id: "agentregistry.projects.locations.operations.delete", serve: (*Server).deleteOperation},
	{pattern: "GET " + loc + "/operations/{operation}", id: "agentregistry.projects.locations.operations.get", serve: (*Server).getOperation},
	{pattern: "GET " + loc + "/operations", id: "agentregistry.projects.locations.operations.list", query: q("filter", "pageSize", "pageToken", "returnPartialSuccess"), serve: (*Server).listOperations},

	// Agent Registry: agents.
	{pattern: "GET " + loc + "/agents/{agent}", id: "agentregistry.projects.locations.agents.get", serve: kindAgent.get},
	{pattern: "GET " + loc + "/agents", id: "agentregistry.projects.locations.agents.list", query: q("filter", "orderBy", "pageSize", "pageToken"), serve: kindAgent.list},
	{pattern: "POST " + loc + "/agents:search", id: "agentregistry.projects.locations.agents.search", serve: kindAgent.search},

	// AI applications, which Google discovers (discovered.go).
	{pattern: "GET " + loc + "/aiApplications/{aiApplication}", id: "agentregistry.projects.locations.aiApplications.get", serve: (*Server).getAIApplication},
	{pattern: "GET " + loc + "/aiApplications/{aiApplication}:getIamPolicy", id: "agentregistry.projects.locations.aiApplications.getIamPolicy", query: q("options.requestedPolicyVersion")},
	{pattern: "GET " + loc + "/aiApplications", id: "agentregistry.projects.locations.aiApplications.list", query: q("filter", "orderBy", "pageSize", "pageToken"), serve: (*Server).listAIApplications},
	{pattern: "POST " + loc + "/aiApplications/{aiApplication}:setIamPolicy", id: "agentregistry.projects.locations.aiApplications.setIamPolicy"},
	{pattern: "POST " + loc + "/aiApplications/{aiApplication}:testIamPermissions", id: "agentregistry.projects.locations.aiApplications.testIamPermissions"},
	{pattern: "GET " + loc + "/aiApplications/{aiApplication}/agents/{agent}", id: "agentregistry.projects.locations.aiApplications.agents.get", serve: (*Server).inAIApplication},
	{pattern: "GET " + loc + "/aiApplications/{aiApplication}/agents", id: "agentregistry.projects.locations.aiApplications.agents.list", query: q("pageSize", "pageToken"), serve: (*Server).inAIApplication},
	{pattern: "GET " + loc + "/aiApplications/{aiApplication}/endpoints/{endpoint}", id: "agentregistry.projects.locations.aiApplications.endpoints.get", serve: (*Server).inAIApplication},
	{pattern: "GET " + loc + "/aiApplications/{aiApplication}/endpoints", id: "agentregistry.projects.locations.aiApplications.endpoints.list", query: q("pageSize", "pageToken"), serve: (*Server).inAIApplication},
	{pattern: "GET " + loc + "/aiApplications/{aiApplication}/mcpServers/{mcpServer}", id: "agentregistry.projects.locations.aiApplications.mcpServers.get", serve: (*Server).inAIApplication},
	{pattern: "GET " + loc + "/aiApplications/{aiApplication}/mcpServers", id: "agentregistry.projects.locations.aiApplications.mcpServers.list", query: q("pageSize", "pageToken"), serve: (*Server).inAIApplication},

	// Bindings.
	{pattern: "POST " + loc + "/bindings", id: "agentregistry.projects.locations.bindings.create", query: q("bindingId", "requestId"), serve: (*Server).createBinding},
	{pattern: "DELETE " + loc + "/bindings/{binding}", id: "agentregistry.projects.locations.bindings.delete", query: q("requestId"), serve: (*Server).deleteBinding},
	{pattern: "GET " + loc + "/bindings:fetchAvailable", id: "agentregistry.projects.locations.bindings.fetchAvailable", query: q("pageSize", "pageToken", "sourceIdentifier", "targetIdentifier"), serve: (*Server).fetchAvailableBindings},
	{pattern: "GET " + loc + "/bindings/{binding}", id: "agentregistry.projects.locations.bindings.get", serve: (*Server).getBinding},
	{pattern: "GET " + loc + "/bindings", id: "agentregistry.projects.locations.bindings.list", query: q("filter", "orderBy", "pageSize", "pageToken"), serve: (*Server).listBindings},
	{pattern: "PATCH " + loc + "/bindings/{binding}", id: "agentregistry.projects.locations.bindings.patch", query: q("requestId", "updateMask"), serve: (*Server).patchBinding},

	// Endpoints.
	{pattern: "GET " + loc + "/endpoints/{endpoint}", id: "agentregistry.projects.locations.endpoints.get", serve: kindEndpoint.get},
	{pattern: "GET " + loc + "/endpoints", id: "agentregistry.projects.locations.endpoints.list", query: q("filter", "pageSize", "pageToken"), serve: kindEndpoint.list},

	// Findings, which Google's scans produce (discovered.go).
	{pattern: "GET " + loc + "/findings/{finding}", id: "agentregistry.projects.locations.findings.get", serve: (*Server).getFinding},
	{pattern: "GET " + loc + "/findings", id: "agentregistry.projects.locations.findings.list", query: q("filter", "orderBy", "pageSize", "pageToken"), serve: (*Server).listFindings},

	// MCP servers.
	{pattern: "GET " + loc + "/mcpServers/{mcpServer}", id: "agentregistry.projects.locations.mcpServers.get", serve: kindMCP.get},
	{pattern: "GET " + loc + "/mcpServers", id: "agentregistry.projects.locations.mcpServers.list", query: q("filter", "orderBy", "pageSize", "pageToken"), serve: kindMCP.list},
	{pattern: "POST " + loc + "/mcpServers:search", id: "agentregistry.projects.locations.mcpServers.search", serve: kindMCP.search},

	// Publishers of skills. Google prepopulates some (publishers/cloud.google.com,
	// ...); the bundled server has none and refuses a skill's publisher.
	{pattern: "GET " + loc + "/publishers/{publisher}", id: "agentregistry.projects.locations.publishers.get"},
	{pattern: "GET " + loc + "/publishers", id: "agentregistry.projects.locations.publishers.list", query: q("pageSize", "pageToken")},

	// Services.
	{pattern: "POST " + loc + "/services", id: "agentregistry.projects.locations.services.create", query: q("requestId", "serviceId"), serve: (*Server).createService},
	{pattern: "DELETE " + loc + "/services/{service}", id: "agentregistry.projects.locations.services.delete", query: q("requestId"), serve: (*Server).deleteService},
	{pattern: "GET " + loc + "/services/{service}", id: "agentregistry.projects.locations.services.get", serve: (*Server).getService},
	{pattern: "GET " + loc + "/services", id: "agentregistry.projects.locations.services.list", query: q("filter", "pageSize", "pageToken"), serve: (*Server).listServices},
	{pattern: "PATCH " + loc + "/services/{service}", id: "agentregistry.projects.locations.services.patch", query: q("requestId", "updateMask"), serve: (*Server).patchService},

	// Skills and their revisions (skills.go, skills_search.go; state/skills.go, state/revisions.go).
	{pattern: "POST " + loc + "/skills", id: "agentregistry.projects.locations.skills.create", query: q("requestId", "skillId"), serve: (*Server).createSkill},
	{pattern: "DELETE " + loc + "/skills/{skill}", id: "agentregistry.projects.locations.skills.delete", query: q("force", "requestId"), serve: (*Server).deleteSkill},
	{pattern: "GET " + loc + "/skills/{skill}", id: "agentregistry.projects.locations.skills.get", serve: (*Server).getSkill},
	{pattern: "GET " + loc + "/skills/{skill}:getIamPolicy", id: "agentregistry.projects.locations.skills.getIamPolicy", query: q("options.requestedPolicyVersion")},
	{pattern: "GET " + loc + "/skills", id: "agentregistry.projects.locations.skills.list", query: q("filter", "orderBy", "pageSize", "pageToken"), serve: (*Server).listSkillsOnly},
	{pattern: "PATCH " + loc + "/skills/{skill}", id: "agentregistry.projects.locations.skills.patch", query: q("requestId", "updateMask"), serve: (*Server).patchSkill},
	{pattern: "GET " + loc + "/skills:search", id: "agentregistry.projects.locations.skills.search", query: q("filter", "pageSize", "pageToken", "searchString", "searchType"), serve: (*Server).searchSkills},
	{pattern: "POST " + loc + "/skills/{skill}:setIamPolicy", id: "agentregistry.projects.locations.skills.setIamPolicy"},
	{pattern: "POST " + loc + "/skills/{skill}:testIamPermissions", id: "agentregistry.projects.locations.skills.testIamPermissions"},
	{pattern: "POST " + loc + "/skills/{skill}/revisions", id: "agentregistry.projects.locations.skills.revisions.create", query: q("requestId", "skillRevisionId"), serve: (*Server).createRevision},
	{pattern: "DELETE " + loc + "/skills/{skill}/revisions/{revision}", id: "agentregistry.projects.locations.skills.revisions.delete", query: q("requestId"), serve: (*Server).deleteRevision},
	{pattern: "GET " + loc + "/skills/{skill}/revisions/{revision}", id: "agentregistry.projects.locations.skills.revisions.get", serve: (*Server).getRevision},
	{pattern: "GET " + loc + "/skills/{skill}/revisions", id: "agentregistry.projects.locations.skills.revisions.list", query: q("pageSize", "pageToken"), serve: (*Server).listRevisions},

	// App Hub: the workloads whose AgentProperties the provider writes, and
	// the schema of AgentProperties (workloads.go). The rest of App Hub
	// (applications, services, discovery, boundaries, attachments) describes
	// a project's runtime, which the bundled server does not have.
	{pattern: "POST " + loc + ":detachServiceProjectAttachment", id: "apphub.projects.locations.detachServiceProjectAttachment"},
	{pattern: "GET " + loc + "/boundary", id: "apphub.projects.locations.getBoundary"},
	{pattern: "GET " + loc + ":lookupServiceProjectAttachment", id: "apphub.projects.locations.lookupServiceProjectAttachment"},
	{pattern: "PATCH " + loc + "/boundary", id: "apphub.projects.locations.updateBoundary", query: q("requestId", "updateMask")},
	{pattern: "POST " + loc + "/applications", id: "apphub.projects.locations.applications.create", query: q("applicationId", "requestId")},
	{pattern: "DELETE " + loc + "/applications/{application}", id: "apphub.projects.locations.applications.delete", query: q("requestId")},
	{pattern: "GET " + loc + "/applications/{application}", id: "apphub.projects.locations.applications.get"},
	{pattern: "GET " + loc + "/applications/{application}:getIamPolicy", id: "apphub.projects.locations.applications.getIamPolicy", query: q("options.requestedPolicyVersion")},
	{pattern: "GET " + loc + "/applications", id: "apphub.projects.locations.applications.list", query: q("filter", "orderBy", "pageSize", "pageToken")},
	{pattern: "PATCH " + loc + "/applications/{application}", id: "apphub.projects.locations.applications.patch", query: q("requestId", "updateMask")},
	{pattern: "POST " + loc + "/applications/{application}:setIamPolicy", id: "apphub.projects.locations.applications.setIamPolicy"},
	{pattern: "POST " + loc + "/applications/{application}:testIamPermissions", id: "apphub.projects.locations.applications.testIamPermissions"},
	{pattern: "POST " + loc + "/applications/{application}/services", id: "apphub.projects.locations.applications.services.create", query: q("requestId", "serviceId")},
	{pattern: "DELETE " + loc + "/applications/{application}/services/{appService}", id: "apphub.projects.locations.applications.services.delete", query: q("requestId")},
	{pattern: "GET " + loc + "/applications/{application}/services/{appService}", id: "apphub.projects.locations.applications.services.get"},
	{pattern: "GET " + loc + "/applications/{application}/services", id: "apphub.projects.locations.applications.services.list", query: q("filter", "orderBy", "pageSize", "pageToken")},
	{pattern: "PATCH " + loc + "/applications/{application}/services/{appService}", id: "apphub.projects.locations.applications.services.patch", query: q("requestId", "updateMask")},
	// A workload is created by PATCH with allowMissing=true (state/workloads.go), the
	// bundled server's one extension of the document: Google creates
	// workloads from the ones it discovers, which this server has none of.
	{pattern: "POST " + loc + "/applications/{application}/workloads", id: "apphub.projects.locations.applications.workloads.create", query: q("requestId", "workloadId")},
	{pattern: "DELETE " + loc + "/applications/{application}/workloads/{workload}", id: "apphub.projects.locations.applications.workloads.delete", query: q("requestId"), serve: (*Server).deleteWorkload},
	{pattern: "GET " + loc + "/applications/{application}/workloads/{workload}", id: "apphub.projects.locations.applications.workloads.get", serve: (*Server).getWorkload},
	{pattern: "GET " + loc + "/applications/{application}/workloads", id: "apphub.projects.locations.applications.workloads.list", query: q("filter", "orderBy", "pageSize", "pageToken"), serve: (*Server).listWorkloads},
	{pattern: "PATCH " + loc + "/applications/{application}/workloads/{workload}", id: "apphub.projects.locations.applications.workloads.patch", query: q("requestId", "updateMask", "allowMissing"), serve: (*Server).patchWorkload},
	{pattern: "GET " + loc + "/discoveredServices/{discoveredService}", id: "apphub.projects.locations.discoveredServices.get"},
	{pattern: "GET " + loc + "/discoveredServices", id: "apphub.projects.locations.discoveredServices.list", query: q("filter", "orderBy", "pageSize", "pageToken")},
	{pattern: "GET " + loc + "/discoveredServices:lookup", id: "apphub.projects.locations.discoveredServices.lookup", query: q("uri")},
	{pattern: "GET " + loc + "/discoveredWorkloads/{discoveredWorkload}", id: "apphub.projects.locations.discoveredWorkloads.get"},
	{pattern: "GET " + loc + "/discoveredWorkloads", id: "apphub.projects.locations.discoveredWorkloads.list", query: q("filter", "orderBy", "pageSize", "pageToken")},
	{pattern: "GET " + loc + "/discoveredWorkloads:lookup", id: "apphub.projects.locations.discoveredWorkloads.lookup", query: q("uri")},
	{pattern: "GET " + loc + "/extendedMetadataSchemas/{schema...}", id: "apphub.projects.locations.extendedMetadataSchemas.get", serve: (*Server).getSchema},
	{pattern: "GET " + loc + "/extendedMetadataSchemas", id: "apphub.projects.locations.extendedMetadataSchemas.list", query: q("pageSize", "pageToken"), serve: (*Server).listSchemas},
	{pattern: "POST " + loc + "/serviceProjectAttachments", id: "apphub.projects.locations.serviceProjectAttachments.create", query: q("requestId", "serviceProjectAttachmentId")},
	{pattern: "DELETE " + loc + "/serviceProjectAttachments/{serviceProjectAttachment}", id: "apphub.projects.locations.serviceProjectAttachments.delete", query: q("requestId")},
	{pattern: "GET " + loc + "/serviceProjectAttachments/{serviceProjectAttachment}", id: "apphub.projects.locations.serviceProjectAttachments.get"},
	{pattern: "GET " + loc + "/serviceProjectAttachments", id: "apphub.projects.locations.serviceProjectAttachments.list", query: q("filter", "orderBy", "pageSize", "pageToken")},
}

// The adapters of the handlers that serve several methods.

func (s *Server) listSkillsOnly(w http.ResponseWriter, r *http.Request, parent string) {
	s.listSkills(w, r, parent, false)
}

func (s *Server) searchSkills(w http.ResponseWriter, r *http.Request, parent string) {
	s.listSkills(w, r, parent, true)
}

// derivedKind serves the methods of one kind of derived record.
type derivedKind struct{ state.DerivedKind }

var (
	kindAgent    = derivedKind{state.KindAgent}
	kindMCP      = derivedKind{state.KindMCP}
	kindEndpoint = derivedKind{state.KindEndpoint}
)

func (k derivedKind) get(s *Server, w http.ResponseWriter, _ *http.Request, name string) {
	b, err := s.st.Derived(k.DerivedKind, name)
	if err != nil {
		s.writeError(w, err)
		return
	}
	writeRawJSON(w, b)
}

func (k derivedKind) list(s *Server, w http.ResponseWriter, r *http.Request, parent string) {
	s.listDerived(w, r, parent, k.DerivedKind)
}

func (k derivedKind) search(s *Server, w http.ResponseWriter, r *http.Request, parent string) {
	s.search(w, r, parent, k.DerivedKind)
}
