package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// The stored form is what `jsonencode` gives for the document Terraform
// writes into generated configuration: keys sorted, no spaces, HTML
// characters escaped, numbers in plain decimal. It is the same document, and
// converting it again changes nothing.
func TestGeneratedConfigForm(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"b": 1, "a": [true, null, "x"]}`, `{"a":[true,null,"x"],"b":1}`},
		{`{"d":"Rates & quotes <live>"}`, `{"d":"Rates \u0026 quotes \u003clive\u003e"}`},
		{`{"n":1.5e2,"m":1e21,"f":0.1,"neg":-2.50}`, `{"f":0.1,"m":1000000000000000000000,"n":150,"neg":-2.5}`},
		{`{"u":"é\u2028"}`, `{"u":"é\u2028"}`},
		{`{"empty":{},"none":[]}`, `{"empty":{},"none":[]}`},
	} {
		got, err := generatedConfigForm([]byte(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("generatedConfigForm(%s) = %s, %v; want %s", tc.in, got, err, tc.want)
			continue
		}
		if again, _ := generatedConfigForm(got); string(again) != string(got) {
			t.Errorf("not stable: %s, then %s", got, again)
		}
		if same, err := jsoncanon.Equal([]byte(tc.in), got); err != nil || !same {
			t.Errorf("%s is not the same document as %s (%v)", got, tc.in, err)
		}
	}
	if _, err := generatedConfigForm([]byte(`{"a":`)); err == nil {
		t.Error("a malformed document must be an error")
	}
}

// importedDocumentIs checks that the one imported instance holds, in attr,
// the same document as want (an import stores the generated-configuration
// form, so a byte-wise ImportStateVerify of a document can differ).
func importedDocumentIs(attr, want string) resource.ImportStateCheckFunc {
	return func(states []*terraform.InstanceState) error {
		if len(states) != 1 {
			return fmt.Errorf("%d instances imported, want 1", len(states))
		}
		got := states[0].Attributes[attr]
		if same, err := jsoncanon.Equal([]byte(got), []byte(want)); err != nil || !same {
			return fmt.Errorf("imported %s is not the same document (%v):\n got %s\nwant %s", attr, err, got, want)
		}
		return nil
	}
}
