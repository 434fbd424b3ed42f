package resource

import "encoding/json"

// App Hub v1 (google.golang.org/api/apphub/v1): the workloads and what they carry.

// Workload mirrors apphub.Workload.
type Workload struct {
	Attributes         *Attributes         `json:"attributes,omitempty"`
	CreateTime         string              `json:"createTime,omitempty"`
	Description        string              `json:"description,omitempty"`
	DiscoveredWorkload string              `json:"discoveredWorkload,omitempty"`
	DisplayName        string              `json:"displayName,omitempty"`
	Name               string              `json:"name,omitempty"`
	State              string              `json:"state,omitempty"`
	Uid                string              `json:"uid,omitempty"`
	UpdateTime         string              `json:"updateTime,omitempty"`
	WorkloadProperties *WorkloadProperties `json:"workloadProperties,omitempty"`
	WorkloadReference  *WorkloadReference  `json:"workloadReference,omitempty"`
}

// ListWorkloadsResponse mirrors apphub.ListWorkloadsResponse.
type ListWorkloadsResponse struct {
	NextPageToken string      `json:"nextPageToken,omitempty"`
	Unreachable   []string    `json:"unreachable,omitempty"`
	Workloads     []*Workload `json:"workloads,omitempty"`
}

// Attributes mirrors apphub.Attributes.
type Attributes struct {
	BusinessOwners  []*ContactInfo `json:"businessOwners,omitempty"`
	Criticality     *Criticality   `json:"criticality,omitempty"`
	DeveloperOwners []*ContactInfo `json:"developerOwners,omitempty"`
	Environment     *Environment   `json:"environment,omitempty"`
	OperatorOwners  []*ContactInfo `json:"operatorOwners,omitempty"`
}

// WorkloadProperties mirrors apphub.WorkloadProperties.
type WorkloadProperties struct {
	ExtendedMetadata map[string]ExtendedMetadata `json:"extendedMetadata,omitempty"`
	FunctionalType   *FunctionalType             `json:"functionalType,omitempty"`
	GcpProject       string                      `json:"gcpProject,omitempty"`
	Identity         *Identity                   `json:"identity,omitempty"`
	Location         string                      `json:"location,omitempty"`
	Zone             string                      `json:"zone,omitempty"`
}

// WorkloadReference mirrors apphub.WorkloadReference.
type WorkloadReference struct {
	Uri string `json:"uri,omitempty"`
}

// ContactInfo mirrors apphub.ContactInfo.
type ContactInfo struct {
	DisplayName string `json:"displayName,omitempty"`
	Email       string `json:"email,omitempty"`
}

// Criticality mirrors apphub.Criticality.
type Criticality struct {
	Type string `json:"type,omitempty"`
}

// Environment mirrors apphub.Environment.
type Environment struct {
	Type string `json:"type,omitempty"`
}

// ExtendedMetadata mirrors apphub.ExtendedMetadata.
type ExtendedMetadata struct {
	MetadataStruct json.RawMessage `json:"metadataStruct,omitempty"`
}

// FunctionalType mirrors apphub.FunctionalType.
type FunctionalType struct {
	Type string `json:"type,omitempty"`
}

// Identity mirrors apphub.Identity.
type Identity struct {
	Principal string `json:"principal,omitempty"`
}
