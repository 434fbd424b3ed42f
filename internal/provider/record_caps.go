package provider

// A record the provider keeps as a resource (a refresh, an import, a
// `terraform query` result with include_resource) is bounded by what it
// keeps, as a data source's result is (data_source_result_caps.go), and by the
// same caps, applied to each record. The registry client bounds one answer
// (32 MiB and 2,000,000 JSON values), but one record inside those bounds cost
// the provider gigabytes: a card of 990,000 skills in 17.8 MB was
// canonicalised, parsed and made a 990,000-element skill_ids, each step about
// a kilobyte per JSON value. The caps are checked on the record as decoded by
// the client, its documents (a card, a tool spec, AgentProperties) counted on
// their JSON bytes, before any of them is parsed or made a Terraform value.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"google.golang.org/api/googleapi"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// recordCapsDoc states the caps of a record on the pages of the resources
// and list resources.
var recordCapsDoc = fmt.Sprintf("Each record a refresh, an import or a `terraform query` with `include_resource` "+
	"reads is capped by what the provider keeps of it, whatever the registry sends: at most %d JSON values and %d "+
	"MiB of text per record (each attribute, list element, object and string counts one value; a document such as "+
	"a card counts each of its JSON values, and its JSON bytes as text), counted before anything is parsed. A "+
	"record past either cap fails the read with an error that names the record and the cap, and nothing of it is "+
	"kept. A record the registry's API accepts (documents of at most %d bytes) stays far inside the caps; at the "+
	"caps a read keeps the provider under about 512 MB.", maxResultValues, maxResultText>>20, spec.MaxDocumentBytes)

// rawJSONTypes are the types of the documents a record carries as JSON
// bytes: counted by their JSON values, not element by element.
var rawJSONTypes = map[reflect.Type]bool{
	reflect.TypeFor[googleapi.RawMessage](): true,
	reflect.TypeFor[json.RawMessage]():      true,
}

// addRecord counts a record as the client decoded it: pointers followed,
// documents counted on their bytes, struct fields the client does not decode
// (`json:"-"`: the answer's headers, the fields to send) left out.
func (s *resultSize) addRecord(v reflect.Value) {
	if s.over() {
		return
	}
	switch k := v.Kind(); {
	case k == reflect.Pointer || k == reflect.Interface:
		if v.IsNil() {
			s.values++
			return
		}
		s.addRecord(v.Elem())
	case rawJSONTypes[v.Type()]:
		s.values += registryclient.CountValues(v.Bytes())
		s.text += int64(v.Len())
	case k == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8:
		s.values++
		s.text += int64(v.Len())
	case k == reflect.Struct || k == reflect.Slice || k == reflect.Map:
		s.values++
		s.addElements(v)
	default:
		s.add(v)
	}
}

// addElements counts what an object, a list or a map of a record holds: the
// fields the client decodes, the elements, the keys (as text) and values.
func (s *resultSize) addElements(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField() && !s.over(); i++ {
			if f := v.Type().Field(i); f.IsExported() && f.Tag.Get("json") != "-" {
				s.addRecord(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len() && !s.over(); i++ {
			s.addRecord(v.Index(i))
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next() && !s.over(); {
			s.text += int64(len(fmt.Sprint(it.Key().Interface())))
			s.addRecord(it.Value())
		}
	}
}

// withinRecordCaps reports whether the record the registry sent for name
// fits the caps, and otherwise adds an error that names the record and the
// cap passed.
func withinRecordCaps(diags *diag.Diagnostics, name string, record any) bool {
	var s resultSize
	s.addRecord(reflect.ValueOf(record))
	if !s.over() {
		return true
	}
	var passed []string
	if s.values > maxResultValues {
		passed = append(passed, fmt.Sprintf("%d values", maxResultValues))
	}
	if s.text > maxResultText {
		passed = append(passed, fmt.Sprintf("%d MiB of text", maxResultText>>20))
	}
	caps := "cap"
	if len(passed) > 1 {
		caps = "caps"
	}
	diags.AddError("Registry Record Over the Record Cap", fmt.Sprintf("Reading %s stopped: the registry's "+
		"record passed the %s of %s per record, counted before anything was parsed; nothing of it was kept.\n\n%s "+
		"Check the record in the registry (its documents, lists and texts), or stop managing it with `terraform "+
		"state rm`.", name, caps, strings.Join(passed, " and "), recordCapsDoc))
	return false
}
