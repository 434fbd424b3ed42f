package provider

// What a data source returns is capped by what it keeps, not by the bytes the
// registry sent: each value of a result becomes a Terraform value that costs
// the provider about a kilobyte on its way to the state (the framework's
// values, attribute paths, equality walks and the wire encoding), whatever
// its size in the registry's answer. A one-letter tag is four bytes of JSON
// and about 500 bytes of the provider's memory; a skill given once per agent
// URL multiplies both. The registry client caps the bytes and JSON values it
// reads (registryclient.PageLimits); these caps bound what a read keeps, and
// are checked on the flattened models, before any Terraform value is made.

import (
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// The caps of one data source result: at most maxResultValues values (each
// attribute, list or map element and object counts one) and maxResultText
// bytes of text. At the caps the provider's memory for the read stays under
// about 512 MB (BenchmarkHostileRegistryPages).
const (
	maxResultValues = 200_000
	maxResultText   = 16 << 20
)

// resultCapsDoc states the caps of a result on the pages of the data sources
// that read the registry.
var resultCapsDoc = fmt.Sprintf("What a read returns is capped too, by what the provider keeps rather than by the "+
	"bytes the registry sent (a one-letter tag is 4 bytes of JSON and about half a kilobyte once it is a Terraform "+
	"value): at most %d values (each attribute, list element and object of the result counts one) and %d MiB of "+
	"text. A read past either fails with an error that names the cap and the attributes that narrow the read. With "+
	"the caps of the pages, one read keeps the provider under about 512 MB whatever the registry sends.",
	maxResultValues, maxResultText>>20)

// resultSize counts the values and the bytes of text of a result while they
// stay within the caps; it stops counting once they are passed.
type resultSize struct {
	values, text int64
}

func (s *resultSize) over() bool { return s.values > maxResultValues || s.text > maxResultText }

// add counts a flattened model: a Go value of the kinds model[T] converts
// (object_type.go), or a framework value.
func (s *resultSize) add(v reflect.Value) {
	if s.over() {
		return
	}
	s.values++
	if v.CanInterface() {
		// model[T] takes framework values of primitive types only.
		if a, ok := v.Interface().(attr.Value); ok {
			if str, isString := a.(basetypes.StringValue); isString {
				s.text += int64(len(str.ValueString()))
			}
			return
		}
	}
	switch v.Kind() {
	case reflect.String:
		s.text += int64(v.Len())
	case reflect.Slice:
		for i := 0; i < v.Len() && !s.over(); i++ {
			s.add(v.Index(i))
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next() && !s.over(); {
			s.text += int64(it.Key().Len())
			s.add(it.Value())
		}
	case reflect.Struct:
		s.fields(v)
	}
}

// fields counts the attributes of an object: its exported fields, and those
// of the structs it embeds (whose fields are its own, as model[T] reads them).
func (s *resultSize) fields(v reflect.Value) {
	for i := 0; i < v.NumField() && !s.over(); i++ {
		switch f := v.Type().Field(i); {
		case f.Anonymous && f.Type.Kind() == reflect.Struct:
			s.fields(v.Field(i))
		case f.IsExported():
			s.add(v.Field(i))
		}
	}
}

// withinResultCaps reports whether a data source's result (a model, or a
// slice of them) fits the caps, and otherwise adds an error that names the
// cap passed and what narrows the read (narrow; "" for a single record).
func withinResultCaps(diags *diag.Diagnostics, what string, result any, narrow string) bool {
	var s resultSize
	s.add(reflect.ValueOf(result))
	if !s.over() {
		return true
	}
	passed := fmt.Sprintf("%d values", maxResultValues)
	if s.text > maxResultText {
		passed = fmt.Sprintf("%d MiB of text", maxResultText>>20)
	}
	todo := "Narrow the read with " + narrow + "."
	if narrow == "" {
		todo = "The registry's record is larger than a data source returns; if the registry is yours, check the record."
	}
	diags.AddError("Registry Read Over the Result Cap", fmt.Sprintf("Reading %s stopped: the result passed the "+
		"cap of %s per read, before anything was kept.\n\n%s %s", what, passed, resultCapsDoc, todo))
	return false
}
