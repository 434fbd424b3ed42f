package jsondoc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
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

// NewUnknown returns an unknown document.
func NewUnknown() Value { return Value{StringValue: basetypes.NewStringUnknown()} }

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

// SemanticallyEqual reports whether a and b are the same JSON value. Invalid JSON
// is equal only to the byte-identical string.
func SemanticallyEqual(a, b string) bool {
	if a == b {
		return true
	}
	va, errA := decode(a)
	vb, errB := decode(b)
	if errA != nil || errB != nil {
		return false
	}
	return equalValues(va, vb)
}

func decode(s string) (any, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return v, nil
}

func equalValues(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equalValues(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValues(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		return ok && equalNumbers(x, y)
	default: // string, bool, nil
		return a == b
	}
}

// equalNumbers compares by value as doubles, which is what a protobuf Struct keeps.
func equalNumbers(a, b json.Number) bool {
	if a == b {
		return true
	}
	fa, errA := strconv.ParseFloat(string(a), 64)
	fb, errB := strconv.ParseFloat(string(b), 64)
	return errA == nil && errB == nil && fa == fb
}
