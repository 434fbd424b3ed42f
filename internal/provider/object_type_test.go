package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type objectTypeLeaf struct {
	URL types.String `tfsdk:"url"`
}

type objectTypeEmbedded struct {
	Project  types.String `tfsdk:"project"`
	Location string       `tfsdk:"location"`
}

type ObjectTypeExportedEmbedded struct {
	Extra bool `tfsdk:"extra"`
}

type objectTypeSample struct {
	objectTypeEmbedded
	ObjectTypeExportedEmbedded
	Name     string                    `tfsdk:"name"`
	Nullable types.String              `tfsdk:"nullable"`
	Count    int64                     `tfsdk:"count"`
	Ratio    *float64                  `tfsdk:"ratio"`
	Flag     types.Bool                `tfsdk:"flag"`
	Tags     []string                  `tfsdk:"tags"`
	Leaves   []objectTypeLeaf          `tfsdk:"leaves"`
	Nested   [][]objectTypeLeaf        `tfsdk:"nested"`
	Labels   map[string]string         `tfsdk:"labels"`
	ByKey    map[string]objectTypeLeaf `tfsdk:"by_key"`
	One      objectTypeLeaf            `tfsdk:"one"`
	Skipped  string                    `tfsdk:"-"`
	private  string
}

func TestObjectTypeOf_derivesEveryFieldKind(t *testing.T) {
	leaf := types.ObjectType{AttrTypes: map[string]attr.Type{"url": types.StringType}}
	want := types.ObjectType{AttrTypes: map[string]attr.Type{
		"project":  types.StringType,
		"location": types.StringType,
		"extra":    types.BoolType,
		"name":     types.StringType,
		"nullable": types.StringType,
		"count":    types.Int64Type,
		"ratio":    types.Float64Type,
		"flag":     types.BoolType,
		"tags":     types.ListType{ElemType: types.StringType},
		"leaves":   types.ListType{ElemType: leaf},
		"nested":   types.ListType{ElemType: types.ListType{ElemType: leaf}},
		"labels":   types.MapType{ElemType: types.StringType},
		"by_key":   types.MapType{ElemType: leaf},
		"one":      leaf,
	}}
	if got := objectTypeOf[objectTypeSample](); !got.Equal(want) {
		t.Fatalf("objectTypeOf[objectTypeSample]()\n got %s\nwant %s", got, want)
	}
}

// The framework's reflection reads a model as objectTypeOf does: a value
// built from the model with the derived type has the model's values, and
// nil slices and maps are null.
func TestObjectTypeOf_agreesWithObjectValueFrom(t *testing.T) {
	ratio := 0.5
	m := objectTypeSample{
		objectTypeEmbedded: objectTypeEmbedded{Project: types.StringValue("p"), Location: "l"},
		Name:               "n", Nullable: types.StringNull(), Count: 3, Ratio: &ratio, Flag: types.BoolValue(true),
		Tags: []string{}, Leaves: []objectTypeLeaf{{URL: types.StringValue("https://x")}},
		One: objectTypeLeaf{URL: types.StringNull()}, Skipped: "not an attribute", private: "not an attribute",
	}
	typ := objectTypeOf[objectTypeSample]()
	obj, diags := types.ObjectValueFrom(context.Background(), typ.AttrTypes, m)
	if diags.HasError() {
		t.Fatalf("ObjectValueFrom with the derived type: %v", diags)
	}
	attrs := obj.Attributes()
	checks := map[string]string{
		"project": `"p"`, "location": `"l"`, "extra": "false", "nullable": "<null>", "ratio": "0.500000",
		"tags": "[]", "leaves": `[{"url":"https://x"}]`, "nested": "<null>", "labels": "<null>", "one": `{"url":<null>}`,
	}
	for name, want := range checks {
		if got := attrs[name].String(); got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
}

type objectTypeUntypedList struct {
	Items types.List `tfsdk:"items"`
}

type objectTypeChannel struct {
	C chan int `tfsdk:"c"`
}

type objectTypeUntagged struct {
	Name string
}

type objectTypePointerEmbed struct {
	*objectTypeEmbedded
}

type objectTypeDuplicate struct {
	objectTypeEmbedded
	Project string `tfsdk:"project"`
}

type objectTypeIntKeys struct {
	ByID map[int]string `tfsdk:"by_id"`
}

type objectTypeTaggedEmbed struct {
	objectTypeEmbedded `tfsdk:"embedded"`
}

func TestObjectTypeOf_panicsOnWhatItCannotDerive(t *testing.T) {
	tests := []struct {
		name   string
		derive func()
		want   string
	}{
		{"types.List has no element type", func() { objectTypeOf[objectTypeUntypedList]() }, `objectTypeUntypedList.Items ("items") is a basetypes.ListValue`},
		{"a channel", func() { objectTypeOf[objectTypeChannel]() }, `objectTypeChannel.C ("c") is a chan int`},
		{"a field without a tag", func() { objectTypeOf[objectTypeUntagged]() }, "objectTypeUntagged.Name has no tfsdk tag"},
		{"an embedded pointer", func() { objectTypeOf[objectTypePointerEmbed]() }, "embeds *provider.objectTypeEmbedded"},
		{"an embedded struct with a tag", func() { objectTypeOf[objectTypeTaggedEmbed]() }, "embeds provider.objectTypeEmbedded"},
		{"a tag twice", func() { objectTypeOf[objectTypeDuplicate]() }, `two fields tagged "project"`},
		{"a map with int keys", func() { objectTypeOf[objectTypeIntKeys]() }, `objectTypeIntKeys.ByID ("by_id") is a map[int]string`},
		{"not a struct", func() { objectTypeOf[string]() }, "string is not a struct"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := panicMessage(tt.derive)
			if !strings.Contains(msg, tt.want) {
				t.Fatalf("panic %q, want one containing %q", msg, tt.want)
			}
		})
	}
}

// panicMessage is what f panics with, "" when it returns.
func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg, _ = r.(string)
		}
	}()
	f()
	return ""
}
