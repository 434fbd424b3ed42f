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
	Ratio    float64                   `tfsdk:"ratio"`
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

func TestModelOf_derivesEveryFieldKind(t *testing.T) {
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

// A model builds the value the framework's reflection makes of the same
// struct with the derived type: nil slices and maps are null, embedded
// fields promoted.
func TestModelOf_agreesWithObjectValueFrom(t *testing.T) {
	leaf := func(url string) objectTypeLeaf { return objectTypeLeaf{URL: types.StringValue(url)} }
	samples := map[string]objectTypeSample{
		"zero":         {},
		"nil and null": {Nullable: types.StringNull(), One: objectTypeLeaf{URL: types.StringNull()}},
		"empty":        {Tags: []string{}, Leaves: []objectTypeLeaf{}, Nested: [][]objectTypeLeaf{}, Labels: map[string]string{}, ByKey: map[string]objectTypeLeaf{}},
		"full": {
			objectTypeEmbedded:         objectTypeEmbedded{Project: types.StringValue("p"), Location: "l"},
			ObjectTypeExportedEmbedded: ObjectTypeExportedEmbedded{Extra: true},
			Name:                       "n", Nullable: types.StringValue("v"), Count: 3, Ratio: 0.5, Flag: types.BoolValue(true),
			Tags: []string{"a", "b"}, Leaves: []objectTypeLeaf{leaf("https://x"), leaf("https://y")},
			Nested: [][]objectTypeLeaf{nil, {leaf("https://z")}}, Labels: map[string]string{"k": "v"},
			ByKey: map[string]objectTypeLeaf{"k": leaf("https://k")}, One: leaf("https://one"),
			Skipped: "not an attribute", private: "not an attribute",
		},
	}
	m := modelOf[objectTypeSample]()
	for name, sample := range samples {
		t.Run(name, func(t *testing.T) {
			want, diags := types.ObjectValueFrom(context.Background(), m.ObjectType().AttrTypes, sample)
			if diags.HasError() {
				t.Fatalf("ObjectValueFrom with the derived type: %v", diags)
			}
			if got := m.Object(sample); !got.Equal(want) {
				t.Fatalf("the model builds\n%s\nthe framework\n%s", got, want)
			}
		})
	}
	if got := m.List(nil); !got.IsNull() || !got.ElementType(context.Background()).Equal(m.ObjectType()) {
		t.Errorf("List(nil) = %s of %s, want a null list of the model's type", got, got.ElementType(context.Background()))
	}
	if got := m.List([]objectTypeSample{samples["full"]}); len(got.Elements()) != 1 || !got.Elements()[0].Equal(m.Object(samples["full"])) {
		t.Errorf("List of one = %s", got)
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

type objectTypePointer struct {
	Name *string `tfsdk:"name"`
}

type objectTypeIntKeys struct {
	ByID map[int]string `tfsdk:"by_id"`
}

type objectTypeTaggedEmbed struct {
	objectTypeEmbedded `tfsdk:"embedded"`
}

func TestModelOf_panicsOnWhatItCannotDerive(t *testing.T) {
	tests := []struct {
		name   string
		derive func()
		want   string
	}{
		{"types.List has no element type", func() { objectTypeOf[objectTypeUntypedList]() }, `objectTypeUntypedList.Items ("items") is a basetypes.ListValue`},
		{"a channel", func() { objectTypeOf[objectTypeChannel]() }, `objectTypeChannel.C ("c") is a chan int`},
		{"a pointer", func() { objectTypeOf[objectTypePointer]() }, `objectTypePointer.Name ("name") is a *string`},
		{"a field without a tag", func() { objectTypeOf[objectTypeUntagged]() }, "objectTypeUntagged.Name has no tfsdk tag"},
		{"an embedded pointer", func() { objectTypeOf[objectTypePointerEmbed]() }, "embeds *provider.objectTypeEmbedded"},
		{"an embedded struct with a tag", func() { objectTypeOf[objectTypeTaggedEmbed]() }, "embeds provider.objectTypeEmbedded"},
		{"a tag twice", func() { objectTypeOf[objectTypeDuplicate]() }, `two fields tagged "project"`},
		{"a map with int keys", func() { objectTypeOf[objectTypeIntKeys]() }, `objectTypeIntKeys.ByID ("by_id") is a map[int]string`},
		{"not a struct", func() { objectTypeOf[string]() }, "modelOf: string is not a struct"},
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
