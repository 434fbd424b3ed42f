package provider

// The Terraform object type of a model struct, derived from its tfsdk tags,
// and the conversion of a model to its value, so that an object the provider
// returns is described once (its model struct) besides its schema.
// Hand-written: the framework converts a struct to a value
// (types.ObjectValueFrom) but has nothing that derives the type that
// conversion needs (the AWS provider's fwtypes.NewObjectTypeOf is internal to
// that provider), and its conversion goes through tftypes and compiles a
// regular expression per field per value: for one agent of
// agentregistry_agents, 1.5 ms and 4,400 allocations, against 50 µs and 86
// building the values directly as this file does (BenchmarkAgentsResults;
// TestModelOf_agreesWithObjectValueFrom holds the two to the same result).
//
// A model field is either a framework value of a primitive type (types.String
// and the like, for an attribute that can be null) or a Go value: string,
// bool, int64, float64, a slice (a list), a map with string keys (a map) or a
// struct (an object). A slice or map that is nil becomes null, so a flatten
// that means "empty" gives an empty one (orEmpty). An embedded struct (by
// value, untagged) contributes its fields, as the framework's reflection reads
// them. Anything else (types.List, whose element type its Go type does not
// say; a pointer; a channel) panics when the type is derived, at package
// initialisation, naming the field.

import (
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// model is the derived object type of the model struct T and its conversion.
type model[T any] struct {
	objectType types.ObjectType
	convert    func(reflect.Value) types.Object
}

// converter builds the Terraform value of a Go value of a model field.
type converter func(reflect.Value) attr.Value

// modelOf derives the object type of the model struct T and its conversion.
func modelOf[T any]() model[T] {
	typ := reflect.TypeFor[T]()
	if typ.Kind() != reflect.Struct {
		panic(fmt.Sprintf("modelOf: %s is not a struct", typ))
	}
	t, convert := deriveStruct(typ, typ.String())
	return model[T]{objectType: t, convert: convert}
}

// objectTypeOf is the object type of the model struct T.
func objectTypeOf[T any]() types.ObjectType { return modelOf[T]().objectType }

// ObjectType is the Terraform type of a T.
func (m model[T]) ObjectType() types.ObjectType { return m.objectType }

// Object is the value of v.
func (m model[T]) Object(v T) types.Object { return m.convert(reflect.ValueOf(v)) }

// List is the list of the values of vs, null for nil.
func (m model[T]) List(vs []T) types.List {
	if vs == nil {
		return types.ListNull(m.objectType)
	}
	elems := make([]attr.Value, len(vs))
	for i, v := range vs {
		elems[i] = m.Object(v)
	}
	return types.ListValueMust(m.objectType, elems)
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

// deriveField is the attribute type of a field of Go type typ and its
// converter; where names the field in a panic.
func deriveField(typ reflect.Type, where string) (attr.Type, converter) {
	if t, ok := frameworkPrimitiveTypes[typ]; ok {
		return t, func(v reflect.Value) attr.Value {
			val, _ := v.Interface().(attr.Value) // every type of frameworkPrimitiveTypes is one
			return val
		}
	}
	if typ.Implements(reflect.TypeFor[attr.Value]()) {
		panic(fmt.Sprintf("modelOf: %s is a %s, whose Terraform type its Go type does not give; use a Go slice, map or struct", where, typ))
	}
	switch typ.Kind() {
	case reflect.String:
		return types.StringType, func(v reflect.Value) attr.Value { return types.StringValue(v.String()) }
	case reflect.Bool:
		return types.BoolType, func(v reflect.Value) attr.Value { return types.BoolValue(v.Bool()) }
	case reflect.Int64:
		return types.Int64Type, func(v reflect.Value) attr.Value { return types.Int64Value(v.Int()) }
	case reflect.Float64:
		return types.Float64Type, func(v reflect.Value) attr.Value { return types.Float64Value(v.Float()) }
	case reflect.Slice:
		return deriveList(typ, where)
	case reflect.Map:
		if typ.Key().Kind() == reflect.String {
			return deriveMap(typ, where)
		}
	case reflect.Struct:
		t, convert := deriveStruct(typ, where)
		return t, func(v reflect.Value) attr.Value { return convert(v) }
	}
	panic(fmt.Sprintf("modelOf: %s is a %s, which has no Terraform type here", where, typ))
}

func deriveList(typ reflect.Type, where string) (attr.Type, converter) {
	elemType, convertElem := deriveField(typ.Elem(), where+"[]")
	return types.ListType{ElemType: elemType}, func(v reflect.Value) attr.Value {
		if v.IsNil() {
			return types.ListNull(elemType)
		}
		elems := make([]attr.Value, v.Len())
		for i := range elems {
			elems[i] = convertElem(v.Index(i))
		}
		return types.ListValueMust(elemType, elems)
	}
}

func deriveMap(typ reflect.Type, where string) (attr.Type, converter) {
	elemType, convertElem := deriveField(typ.Elem(), where+"[key]")
	return types.MapType{ElemType: elemType}, func(v reflect.Value) attr.Value {
		if v.IsNil() {
			return types.MapNull(elemType)
		}
		elems := make(map[string]attr.Value, v.Len())
		for it := v.MapRange(); it.Next(); {
			elems[it.Key().String()] = convertElem(it.Value())
		}
		return types.MapValueMust(elemType, elems)
	}
}

// modelField is one attribute of a model struct: where its value is (a
// field index path, longer for a field of an embedded struct).
type modelField struct {
	name    string
	index   []int
	convert converter
}

func deriveStruct(typ reflect.Type, where string) (types.ObjectType, func(reflect.Value) types.Object) {
	attrTypes := map[string]attr.Type{}
	fields := structFields(typ, where, nil, attrTypes)
	return types.ObjectType{AttrTypes: attrTypes}, func(v reflect.Value) types.Object {
		attrs := make(map[string]attr.Value, len(fields))
		for _, f := range fields {
			attrs[f.name] = f.convert(v.FieldByIndex(f.index))
		}
		return types.ObjectValueMust(attrTypes, attrs)
	}
}

// structFields are the attributes of the struct typ (at index path prefix in
// the model), with the framework's reading of tags: unexported fields and
// `tfsdk:"-"` are skipped, an embedded struct's fields are promoted, and
// every other field needs a tag. Their types are added to attrTypes.
func structFields(typ reflect.Type, where string, prefix []int, attrTypes map[string]attr.Type) []modelField {
	var out []modelField
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		tag, tagged := f.Tag.Lookup("tfsdk")
		index := append(append([]int{}, prefix...), i)
		switch {
		case tag == "-" || (!f.IsExported() && !f.Anonymous):
			continue
		case f.Anonymous:
			if tagged || f.Type.Kind() != reflect.Struct {
				panic(fmt.Sprintf("modelOf: %s embeds %s, which must be a struct embedded by value without a tfsdk tag", where, f.Type))
			}
			out = append(out, structFields(f.Type, where+"."+f.Name, index, attrTypes)...)
		case !tagged:
			panic(fmt.Sprintf("modelOf: %s.%s has no tfsdk tag", where, f.Name))
		default:
			if _, dup := attrTypes[tag]; dup {
				panic(fmt.Sprintf("modelOf: %s has two fields tagged %q", where, tag))
			}
			t, convert := deriveField(f.Type, fmt.Sprintf("%s.%s (%q)", where, f.Name, tag))
			attrTypes[tag] = t
			out = append(out, modelField{name: tag, index: index, convert: convert})
		}
	}
	return out
}
