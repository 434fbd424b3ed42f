// Package jsondoc is the Terraform attribute type of the provider's JSON documents
// (agent cards, tool specs, AgentProperties).
//
// It is written here rather than taken from terraform-plugin-framework-jsontypes
// because jsontypes.Normalized compares numbers as written ("1.0" != "1"), while
// the registry stores documents as protobuf Structs and sends them back with
// numbers re-encoded (1.0 as 1, 1e21 as 1e+21). A refresh must never show that
// as drift, so semantic equality is jsoncanon.Equal: numbers by exact decimal
// value. An integer beyond 2^53 that the registry's doubles round does show as
// drift, because the stored value did change. Equal stays byte-wise, as the
// framework requires.
package jsondoc

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

var _ basetypes.StringTypable = Type{}

// Type is the attribute type: a string holding a JSON document.
type Type struct {
	basetypes.StringType
}

func (t Type) String() string { return "jsondoc.Type" }

func (t Type) ValueType(context.Context) attr.Value { return Value{} }

func (t Type) Equal(o attr.Type) bool {
	other, ok := o.(Type)
	return ok && t.StringType.Equal(other.StringType)
}

func (t Type) ValueFromString(_ context.Context, in basetypes.StringValue) (basetypes.StringValuable, diag.Diagnostics) {
	return Value{StringValue: in}, nil
}

func (t Type) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	attrValue, err := t.StringType.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	stringValue, ok := attrValue.(basetypes.StringValue)
	if !ok {
		return nil, fmt.Errorf("unexpected value type %T", attrValue)
	}
	return Value{StringValue: stringValue}, nil
}
