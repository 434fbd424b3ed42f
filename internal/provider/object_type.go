package provider

// The Terraform object type of a model struct, derived from its tfsdk tags,
// so that an object the provider returns is described once (its model
// struct) besides its schema. Hand-written because the framework converts a
// struct to a value (types.ObjectValueFrom) but has nothing that derives the
// type that conversion needs, and the AWS provider's fwtypes.NewObjectTypeOf
// is internal to that provider.
//
// A model field is either a framework value of a primitive type (types.String
// and the like, for an attribute that can be null) or a Go value: string,
// bool, int64, float64, a slice (a list), a map with string keys (a map), a
// struct (an object) or a pointer to one of these. A slice or map that is nil
// becomes null, so a flatten that means "empty" gives an empty one. An
// embedded struct (by value) contributes its fields, as the framework's
// reflection reads them. Anything else (types.List, whose element type a Go
// type does not say; a channel; an embedded pointer) panics when the type is
// derived, at package initialisation, naming the field.

import (
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// objectTypeOf is the object type of the model struct T.
func objectTypeOf[T any]() types.ObjectType {
	typ := reflect.TypeFor[T]()
	if typ.Kind() != reflect.Struct {
		panic(fmt.Sprintf("objectTypeOf: %s is not a struct", typ))
	}
	return types.ObjectType{AttrTypes: structAttrTypes(typ, typ.String())}
}

// frameworkPrimitiveTypes are the framework value types a model field may
// have, with their attribute types.
var frameworkPrimitiveTypes = map[reflect.Type]attr.Type{
	reflect.TypeFor[types.String]():  types.StringType,
	reflect.TypeFor[types.Bool]():    types.BoolType,
	reflect.TypeFor[types.Int64]():   types.Int64Type,
	reflect.TypeFor[types.Float64](): types.Float64Type,
	reflect.TypeFor[types.Number]():  types.NumberType,
}

// structAttrTypes are the attribute types of the fields of the struct typ,
// with the framework's reading of tags: unexported fields and `tfsdk:"-"`
// are skipped, an embedded struct's fields are promoted, and every other
// field needs a tag. where names the struct in a panic.
func structAttrTypes(typ reflect.Type, where string) map[string]attr.Type {
	out := map[string]attr.Type{}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		tag, tagged := f.Tag.Lookup("tfsdk")
		switch {
		case tag == "-" || (!f.IsExported() && !f.Anonymous):
			continue
		case f.Anonymous:
			if tagged || f.Type.Kind() != reflect.Struct {
				panic(fmt.Sprintf("objectTypeOf: %s embeds %s, which must be a struct embedded by value without a tfsdk tag", where, f.Type))
			}
			for name, t := range structAttrTypes(f.Type, where+"."+f.Name) {
				addAttrType(out, name, t, where)
			}
		case !tagged:
			panic(fmt.Sprintf("objectTypeOf: %s.%s has no tfsdk tag", where, f.Name))
		default:
			addAttrType(out, tag, attrTypeOf(f.Type, fmt.Sprintf("%s.%s (%q)", where, f.Name, tag)), where)
		}
	}
	return out
}

func addAttrType(out map[string]attr.Type, name string, t attr.Type, where string) {
	if _, dup := out[name]; dup {
		panic(fmt.Sprintf("objectTypeOf: %s has two fields tagged %q", where, name))
	}
	out[name] = t
}

// attrTypeOf is the attribute type of a field of Go type typ; where names the
// field in a panic.
func attrTypeOf(typ reflect.Type, where string) attr.Type {
	if t, ok := frameworkPrimitiveTypes[typ]; ok {
		return t
	}
	if typ.Implements(reflect.TypeFor[attr.Value]()) {
		panic(fmt.Sprintf("objectTypeOf: %s is a %s, whose Terraform type its Go type does not give; use a Go slice, map or struct", where, typ))
	}
	switch typ.Kind() {
	case reflect.String:
		return types.StringType
	case reflect.Bool:
		return types.BoolType
	case reflect.Int64:
		return types.Int64Type
	case reflect.Float64:
		return types.Float64Type
	case reflect.Pointer:
		return attrTypeOf(typ.Elem(), where)
	case reflect.Slice:
		return types.ListType{ElemType: attrTypeOf(typ.Elem(), where+"[]")}
	case reflect.Map:
		if typ.Key().Kind() == reflect.String {
			return types.MapType{ElemType: attrTypeOf(typ.Elem(), where+"[key]")}
		}
	case reflect.Struct:
		return types.ObjectType{AttrTypes: structAttrTypes(typ, where)}
	}
	panic(fmt.Sprintf("objectTypeOf: %s is a %s, which has no Terraform type here", where, typ))
}
