package provider

// A stand-in for the Google provider (hashicorp/google) in CLI tests of
// `moved`: it serves the schemas of google_agent_registry_service and
// google_agent_registry_binding as the Google provider prints them
// (testdata/google/schema.json, the types of its attributes and blocks
// written down from an 8.0-era build of hashicorp/google) and upgrades their
// state as it stands, which is all a CLI asks of a move's source provider.
// It manages nothing: the test writes the state that provider wrote.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

const googleSchemaFile = "testdata/google/schema.json"

// googleStandIn serves the Google provider's Agent Registry resources.
type googleStandIn struct {
	tfprotov6.ProviderServer // nil: a call the stand-in does not answer is a test bug, and panics
	schemas                  map[string]*tfprotov6.Schema
}

// newGoogleStandIn reads the Google provider's schemas.
func newGoogleStandIn(t *testing.T) servedProvider {
	t.Helper()
	raw, err := os.ReadFile(googleSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Resources map[string]jsonSchema `json:"resource_schemas"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	s := &googleStandIn{schemas: map[string]*tfprotov6.Schema{}}
	for name, js := range doc.Resources {
		schema, err := js.protocol()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s.schemas[name] = schema
	}
	return servedProvider{address: "hashicorp/google", server: func() tfprotov6.ProviderServer { return s }}
}

func (s *googleStandIn) GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	resp := &tfprotov6.GetMetadataResponse{ServerCapabilities: &tfprotov6.ServerCapabilities{}}
	for name := range s.schemas {
		resp.Resources = append(resp.Resources, tfprotov6.ResourceMetadata{TypeName: name})
	}
	return resp, nil
}

func (s *googleStandIn) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return &tfprotov6.GetProviderSchemaResponse{
		Provider:           &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{}},
		ResourceSchemas:    s.schemas,
		ServerCapabilities: &tfprotov6.ServerCapabilities{},
	}, nil
}

func (s *googleStandIn) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{IdentitySchemas: map[string]*tfprotov6.ResourceIdentitySchema{}}, nil
}

func (s *googleStandIn) ValidateProviderConfig(_ context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return &tfprotov6.ValidateProviderConfigResponse{PreparedConfig: req.Config}, nil
}

func (s *googleStandIn) ConfigureProvider(context.Context, *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return &tfprotov6.ConfigureProviderResponse{}, nil
}

func (s *googleStandIn) StopProvider(context.Context, *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{}, nil
}

// UpgradeResourceState returns the state as written: the sample state is at
// the schema's version.
func (s *googleStandIn) UpgradeResourceState(_ context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	schema, ok := s.schemas[req.TypeName]
	if !ok {
		return nil, fmt.Errorf("the stand-in has no %s", req.TypeName)
	}
	typ := schema.ValueType()
	v, err := req.RawState.UnmarshalWithOpts(typ, tfprotov6.UnmarshalOpts{ValueFromJSONOpts: tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true}})
	if err != nil {
		return nil, err
	}
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: &dv}, err
}

// jsonSchema is a schema as `providers schema -json` prints it.
type jsonSchema struct {
	Version int64     `json:"version"`
	Block   jsonBlock `json:"block"`
}

type jsonBlock struct {
	Attributes map[string]struct {
		Type     json.RawMessage `json:"type"`
		Optional bool            `json:"optional"`
		Required bool            `json:"required"`
		Computed bool            `json:"computed"`
	} `json:"attributes"`
	BlockTypes map[string]struct {
		NestingMode string    `json:"nesting_mode"`
		Block       jsonBlock `json:"block"`
		MinItems    int64     `json:"min_items"`
		MaxItems    int64     `json:"max_items"`
	} `json:"block_types"`
}

func (s jsonSchema) protocol() (*tfprotov6.Schema, error) {
	b, err := s.Block.protocol()
	return &tfprotov6.Schema{Version: s.Version, Block: b}, err
}

func (b jsonBlock) protocol() (*tfprotov6.SchemaBlock, error) {
	out := &tfprotov6.SchemaBlock{}
	for name, a := range b.Attributes {
		typ, err := tftypes.ParseJSONType(a.Type) //nolint:staticcheck // deprecated for third parties, but the one parser of the JSON type form Terraform prints
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out.Attributes = append(out.Attributes, &tfprotov6.SchemaAttribute{
			Name: name, Type: typ, Optional: a.Optional, Required: a.Required, Computed: a.Computed,
		})
	}
	for name, bt := range b.BlockTypes {
		nested, err := bt.Block.protocol()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		modes := map[string]tfprotov6.SchemaNestedBlockNestingMode{
			"list": tfprotov6.SchemaNestedBlockNestingModeList, "set": tfprotov6.SchemaNestedBlockNestingModeSet,
			"single": tfprotov6.SchemaNestedBlockNestingModeSingle, "map": tfprotov6.SchemaNestedBlockNestingModeMap,
		}
		out.BlockTypes = append(out.BlockTypes, &tfprotov6.SchemaNestedBlock{
			TypeName: name, Nesting: modes[bt.NestingMode], Block: nested, MinItems: bt.MinItems, MaxItems: bt.MaxItems,
		})
	}
	return out, nil
}
