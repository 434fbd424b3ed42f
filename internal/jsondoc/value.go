package jsondoc

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

var _ basetypes.StringValuableWithSemanticEquals = Value{}

// Value is a JSON document held as the user wrote it.
type Value struct {
	basetypes.StringValue
}

// NewValue returns a known document.
func NewValue(s string) Value { return Value{StringValue: basetypes.NewStringValue(s)} }

// NewNull returns a null document.
func NewNull() Value { return Value{StringValue: basetypes.NewStringNull()} }

func (v Value) Type(context.Context) attr.Type { return Type{} }

func (v Value) Equal(o attr.Value) bool {
	other, ok := o.(Value)
	return ok && v.StringValue.Equal(other.StringValue)
}

// StringSemanticEquals reports whether two documents are the same JSON value:
// key order, whitespace and the spelling of numbers do not matter.
func (v Value) StringSemanticEquals(_ context.Context, newValuable basetypes.StringValuable) (bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	other, ok := newValuable.(Value)
	if !ok {
		diags.AddError("Semantic Equality Check Error", fmt.Sprintf("expected a jsondoc.Value, got %T; please report this to the provider developers", newValuable))
		return false, diags
	}
	return SemanticallyEqual(v.ValueString(), other.ValueString()), diags
}

// SemanticallyEqual reports whether a and b are the same JSON value, as
// jsoncanon.Equal defines it for the whole project. Invalid JSON (including a
// duplicate key) is equal only to the byte-identical string.
func SemanticallyEqual(a, b string) bool {
	if a == b {
		return true
	}
	eq, err := jsoncanon.Equal([]byte(a), []byte(b))
	return err == nil && eq
}
